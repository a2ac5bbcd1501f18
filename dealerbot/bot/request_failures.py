"""What a table's worker does when one of its requests fails: never an endless loop.

A gone channel stops the worker and has the relay close the table; a 403 waits for a
command; any other 4xx is logged once with Discord's error and that request dropped
(the next change of the table tries afresh); a 429 that discord.py gave up on, a 5xx or
a network error is retried after a delay that doubles each time, up to a cap.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from .table_channel import Failure, Hub, on_failure


class RequestFailures:
    """Mixin of :class:`~.table_messages.TableMessenger`: its answer to failed requests."""

    hub: Hub
    guild_id: int
    channel_id: int
    unavailable: str | None
    failures: int  # transient failures in a row (each retry waits twice as long)
    _closing: bool
    _retry: asyncio.TimerHandle | None

    if TYPE_CHECKING:  # TableMessenger's: wake the worker

        def kick(self) -> None: ...

    def _failed(self, error: Exception, label: str, drop: Callable[[], object]) -> None:
        failure, delay = on_failure(self.channel_id, label, error, self.failures + 1)
        if failure is Failure.UNAVAILABLE:
            self.unavailable = str(error)
        elif failure is Failure.GONE:  # the relay closes the table
            self._closing = True
            self.hub.gone(self.guild_id, self.channel_id)
        elif failure is Failure.REFUSED:
            drop()
        else:
            self.failures += 1
            self._schedule_retry(delay)

    def _schedule_retry(self, delay: float) -> None:
        if self._retry is None or self._retry.cancelled():
            loop = asyncio.get_running_loop()

            def again() -> None:
                self._retry = None
                self.kick()

            self._retry = loop.call_later(delay, again)

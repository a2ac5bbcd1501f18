"""What the bot did (every request, every gateway frame) and waiting for state to change."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass
class RecordedRequest:
    """One REST request and how the emulator answered it."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    time: float
    status: int | None = None
    response: Any = None
    files: list[dict[str, Any]] = field(default_factory=list)
    injected: bool = False

    @property
    def error_code(self) -> int | None:
        """Discord's JSON error code, when the answer was an error."""
        if isinstance(self.response, dict) and "code" in self.response:
            return int(self.response["code"])
        return None


@dataclass(frozen=True)
class RefusedRequest:
    """A request the emulator refused as Discord would (any 4xx/5xx answer).

    `route` is the matched template (e.g. "/channels/{channel_id}/messages"), None for
    unknown paths; `errors` is Discord's nested 50035 tree when there is one; `injected`
    marks failures a test planted with `fail_next` (not the bot's fault).
    """

    method: str
    path: str
    route: str | None
    status: int
    code: int | None
    message: str | None
    errors: dict[str, Any] | None
    injected: bool = False
    body: Any = None
    """The JSON the bot sent (payload_json for multipart)."""
    answer: Any = None
    """The emulator's JSON answer (for a 429: retry_after and global)."""

    def describe(self) -> str:
        """One line for assertion messages."""
        detail = f" {self.errors}" if self.errors else ""
        if self.status == 429 and isinstance(self.answer, dict):
            detail = f" (global={self.answer.get('global')})"
        return f"{self.method} {self.path} -> {self.status} {self.code} {self.message}{detail}"


@dataclass
class GatewayFrame:
    """One gateway payload, sent ("out") or received ("in")."""

    direction: str
    op: int
    t: str | None
    s: int | None
    d: Any
    time: float = field(default_factory=time.monotonic)


class ChangeNotifier:
    """Wakes waiters whenever the emulator's recorded state changes."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def notify(self) -> None:
        """Signal a change (safe to call from sync code on the loop)."""
        self._event.set()
        self._event = asyncio.Event()

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = 5.0,  # noqa: ASYNC109 - tests pass one deadline per wait
    ) -> T:
        """Return the predicate's first truthy value; TimeoutError after `timeout` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"condition not met within {timeout} s: {predicate!r}")
            event = self._event
            # Polling as well as waiting covers state changed outside notify().
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout=min(remaining, 0.05))

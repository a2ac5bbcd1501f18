"""Turn alerts: one DM when a player's turn has waited a few seconds.

Why a DM and not a channel mention: a DM pings only that player, is one request (the DM
channel is already open from the deal DM), needs no clean-up, and leaves the channel
quiet for everyone else; a channel mention would cost a post plus a delete once he acts,
and ping in front of the table. Edits and mentions inside embeds notify nobody, so the
table message alone cannot do it.

At most one alert per turn (hand, action number): a new turn, an action or the end of
the hand cancels the waiting one, and when it fires it checks that the same turn is
still open. The wait counts from the moment the table message showed the turn's buttons
(the table messenger says so, :meth:`TurnAlerts.shown`), not from when the service
opened it: a player who could not see his turn yet has not waited. A player who blocks
DMs gets none (he was pointed at "My cards"), and one who said ``/stud alerts off`` none.
Time comes from the service's clock, so tests drive it with a fake clock.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from dealerbot.tables import Clock, PlayerPrefs, TableView, is_house_user
from dealerbot.tables import events as ev

from .dm import DmCourier
from .markup import COLOR_PRIVATE, timestamp

log = logging.getLogger(__name__)

DEFAULT_DELAY = 10.0  # seconds; the setting is TURN_ALERT_SECONDS (dealerbot.settings)
UNSHOWN_TRIES = 3  # delays a turn never shown on the table waits before it is alerted

Key = tuple[int, int]  # (guild, channel)


def alert_embed(turn: ev.Turn, where: str, link: str, deadline: float | None) -> discord.Embed:
    """``Your turn at #stud: 10 to call · time runs out in 20 s`` with a link to the table."""
    text = f"Your turn at {where}"
    if turn.to_call:
        text += f": {turn.to_call} to call"
    if deadline is not None:
        text += f" · time runs out {timestamp(deadline)}"
    text += f"\n[Go to the table]({link})"
    return discord.Embed(title="Your turn", description=text, colour=COLOR_PRIVATE)


class TurnAlerts:
    """One waiting alert per table; the players who turned alerts off, cached."""

    def __init__(
        self,
        clock: Clock,
        prefs: PlayerPrefs,
        courier: DmCourier,
        delay: float,
        where: Callable[[int, int], str],
    ) -> None:
        self.clock = clock
        self.prefs = prefs
        self.courier = courier
        self.delay = delay
        self.where = where
        self._waiting: dict[Key, tuple[int, int, asyncio.Task[None]]] = {}  # (hand, seq, task)
        self._off: dict[int, bool] = {}
        self._firing: set[asyncio.Task[None]] = set()  # woken: checking, then queueing the DM
        self._shown: dict[Key, tuple[int, int, float]] = {}  # (hand, seq, when) per table
        self.sent = 0

    def shown(self, guild_id: int, channel_id: int, hand_id: int, seq: int) -> None:
        """The table message now carries this turn's buttons (the first time counts)."""
        key = (guild_id, channel_id)
        seen = self._shown.get(key)
        if seen is None or seen[:2] != (hand_id, seq):
            self._shown[key] = (hand_id, seq, self.clock.now())

    def _due(self, key: Key, turn: ev.Turn, tries: int) -> float | None:
        """When this turn's alert is due: ``delay`` after its buttons were shown (None: now).
        A turn not shown after three delays is alerted anyway (the table cannot show it)."""
        seen = self._shown.get(key)
        if seen is not None and seen[:2] == (turn.hand_id, turn.seq):
            due = seen[2] + self.delay
            return due if due > self.clock.now() else None
        return self.clock.now() + self.delay if tries < UNSHOWN_TRIES else None

    def turn(
        self, turn: ev.Turn, current: Callable[[], TableView | None], link: Callable[[], str]
    ) -> None:
        """A turn opened: arm its alert (replacing the table's previous one)."""
        key = (turn.guild_id, turn.channel_id)
        waiting = self._waiting.get(key)
        if waiting is not None and waiting[:2] == (turn.hand_id, turn.seq):
            return  # the same turn again (e.g. re-sent): still one alert
        self.cancel(key)
        # a house player (issue 20) has no DMs: no alert
        if self.delay <= 0 or is_house_user(turn.user_id) or self._off.get(turn.user_id):
            return
        task = asyncio.create_task(
            self._wait(key, turn, current, link), name=f"turn-alert:{turn.channel_id}"
        )
        self._waiting[key] = (turn.hand_id, turn.seq, task)

    def cancel(self, key: Key) -> None:
        waiting = self._waiting.pop(key, None)
        if waiting is not None and not waiting[2].done():
            waiting[2].cancel()

    async def _wait(
        self,
        key: Key,
        turn: ev.Turn,
        current: Callable[[], TableView | None],
        link: Callable[[], str],
    ) -> None:
        try:
            due: float | None = self.clock.now() + self.delay
            tries = 0
            while due is not None:
                await self.clock.sleep_until(due)
                tries += 1
                due = self._due(key, turn, tries)
        except asyncio.CancelledError:
            return
        if self._waiting.get(key, (None, None))[:2] == (turn.hand_id, turn.seq):
            del self._waiting[key]
        # Awake, it is background work again (a settings query, then the DM): visible to
        # `busy` until the DM is queued with the courier, whose tasks cover the rest.
        me = asyncio.current_task()
        assert me is not None  # created by `turn` as a task
        self._firing.add(me)
        try:
            await self._fire(turn, current, link)
        finally:
            self._firing.discard(me)

    def busy(self) -> list[asyncio.Task[None]]:
        """Alerts that are due and still running (not the ones waiting for their time)."""
        return [task for task in self._firing if not task.done()]

    async def _fire(
        self, turn: ev.Turn, current: Callable[[], TableView | None], link: Callable[[], str]
    ) -> None:
        view = current()
        if view is None or (view.hand_id, view.seq, view.to_act_user) != (
            turn.hand_id,
            turn.seq,
            turn.user_id,
        ):
            return  # he acted (or the hand moved on) before the alert was due
        if self.courier.refused_in(turn.user_id, turn.hand_id):
            return
        if await self._alerts_off(turn.user_id):
            return
        where = self.where(turn.guild_id, turn.channel_id)
        embed = alert_embed(turn, where, link(), view.deadline)
        self.sent += 1
        log.info("turn alert to user %s (hand %s, action %s)", turn.user_id, turn.hand_id, turn.seq)
        self.courier.deliver(turn.guild_id, turn.channel_id, turn.user_id, turn.hand_id, embed)

    async def _alerts_off(self, user_id: int) -> bool:
        known = self._off.get(user_id)
        if known is None:
            try:
                known = user_id in await self.prefs.alerts_off((user_id,))
            except Exception:
                log.exception("cannot read the alert setting of user %s", user_id)
                return True
            self._off[user_id] = known
        return known

    def remember(self, user_id: int, on: bool) -> None:
        """``/stud alerts``: the new setting, without another query."""
        self._off[user_id] = not on

    def close(self) -> None:
        for key in list(self._waiting):
            self.cancel(key)

"""The bot's REST budget: at most REST_BUDGET requests per second that are not interaction
answers (45 by default).

Discord allows a bot token 50 requests per second in all (its global limit, shared by
every process and shard on the token); interaction answers do not count. Every other
request (table posts and edits, DMs, DM-channel opens) holds a token while it is in
flight, and the token comes back one second after its answer arrived. Discord receives
a request between those two moments, so no second of Discord's clock ever holds more than
``limit`` of them, however late the event loop sends a request it was granted (a
sliding-window token bucket; a classic bucket of size B refilled at r/s would allow
B + r in a second).

When more requests are due than the budget allows, they wait in two lanes: table
messages go first, DMs after them, and DMs leave a reserve of tokens to table messages
(a table's worker holds its message lock while its request waits, and a click may wait
on that lock) (a player can always read his cards through **My
cards**, an interaction answer that costs nothing). The queue is plain logic on a clock
given to it (:class:`BudgetQueue`), so tests drive it with a fake clock; :class:`RestBudget`
runs it on the event loop with no task of its own (a timer callback wakes it).

When Discord cannot be reached every request fails: :class:`FailureLog` says so in one line
per kind of request a minute (with how many more failed meanwhile), not a traceback each.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Callable
from enum import IntEnum
from typing import Generic, TypeVar

import discord

from dealerbot.settings import DEFAULT_REST_BUDGET

T = TypeVar("T")

DEFAULT_LIMIT = DEFAULT_REST_BUDGET  # requests per window: a margin under Discord's 50/s
DEFAULT_WINDOW = 1.0  # seconds
DEFAULT_TABLE_RESERVE = 10  # tokens DMs leave for table messages (about 7/s at 200 tables)


def table_reserve_for(limit: int) -> int:
    """The table reserve scaled to a budget: 10 of 45, 4 of 22 (a process's share)."""
    return limit * DEFAULT_TABLE_RESERVE // DEFAULT_LIMIT


class Lane(IntEnum):
    """Which requests go first when the budget is short: lower values first."""

    TABLE = 0
    DM = 1


class SlidingBudget:
    """``limit`` tokens; one is out while its request is in flight and for ``window``
    seconds after the request finished."""

    def __init__(self, limit: int = DEFAULT_LIMIT, window: float = DEFAULT_WINDOW) -> None:
        if limit < 1 or window <= 0:
            raise ValueError("a budget needs a limit of at least 1 and a positive window")
        self.limit = limit
        self.window = window
        self.in_flight = 0
        self._resting: deque[float] = deque()  # when each resting token's request finished

    def _expire(self, now: float) -> None:
        resting = self._resting
        while resting and resting[0] + self.window <= now:  # the same sum as next_free
            resting.popleft()

    def available(self, now: float, keep: int = 0) -> bool:
        """A token is free, leaving ``keep`` of them for others."""
        self._expire(now)
        return self.in_flight + len(self._resting) < self.limit - keep

    def take(self, now: float) -> None:
        self.in_flight += 1

    def give_back(self, now: float) -> None:
        """The request finished (answered or failed): its token rests for ``window`` s."""
        self.in_flight -= 1
        self._resting.append(now)

    def next_free(self, now: float, keep: int = 0) -> float | None:
        """When a token is free leaving ``keep`` (``now`` if one is; None: only once a
        request in flight finishes, plus the window)."""
        if self.available(now, keep):
            return now
        must_rest = self.in_flight + len(self._resting) - (self.limit - keep)  # >= 0
        if must_rest < len(self._resting):
            return self._resting[must_rest] + self.window
        return None


class BudgetQueue(Generic[T]):
    """Requests waiting for the budget, in lanes; :meth:`due` grants them in lane order."""

    def __init__(self, budget: SlidingBudget, table_reserve: int = 0) -> None:
        self.budget = budget
        # Tokens DMs may not use: a table request (whose worker holds the table's message
        # lock meanwhile, and a click may wait on that lock) then rarely waits at all.
        self.table_reserve = min(table_reserve, budget.limit - 1)
        self._lanes: tuple[deque[T], ...] = tuple(deque() for _ in Lane)
        self.granted = [0 for _ in Lane]
        self.queued = [0 for _ in Lane]  # requests that had to wait

    def __len__(self) -> int:
        return sum(len(lane) for lane in self._lanes)

    def waiting(self, lane: Lane) -> int:
        return len(self._lanes[lane])

    def _keep(self, lane: Lane) -> int:
        return self.table_reserve if lane is Lane.DM else 0

    def try_now(self, lane: Lane, now: float) -> bool:
        """Spend a token at once if nobody of this lane or a first one waits and one is
        free for this lane (the common case)."""
        waiting = sum(len(self._lanes[earlier]) for earlier in Lane if earlier <= lane)
        if waiting == 0 and self.budget.available(now, self._keep(lane)):
            self.budget.take(now)
            self.granted[lane] += 1
            return True
        return False

    def push(self, lane: Lane, item: T) -> None:
        self._lanes[lane].append(item)
        self.queued[lane] += 1

    def due(self, now: float, live: Callable[[T], bool] = lambda _: True) -> list[T]:
        """The waiting items the budget allows now, table lane first; items no longer
        ``live`` (their caller gave up) are dropped without spending a token."""
        out: list[T] = []
        for lane in Lane:
            queue = self._lanes[lane]
            while queue and self.budget.available(now, self._keep(lane)):
                item = queue.popleft()
                if live(item):
                    self.budget.take(now)
                    self.granted[lane] += 1
                    out.append(item)
            if queue:
                break
        return out

    def wake_at(self, now: float) -> float | None:
        """When :meth:`due` may grant something again (None: nothing waits, or every token
        is in flight and the next :meth:`finish` will tell)."""
        times = [self.budget.next_free(now, self._keep(lane)) for lane in Lane if self._lanes[lane]]
        known = [t for t in times if t is not None]  # None: that lane waits for a finish()
        return min(known) if known else None

    def finish(self, now: float) -> None:
        self.budget.give_back(now)


class RestBudget:
    """The budget on the event loop: ``async with budget.token(Lane.DM):`` around a request."""

    def __init__(
        self,
        limit: int = DEFAULT_LIMIT,
        window: float = DEFAULT_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        table_reserve: int | None = None,
    ) -> None:
        reserve = table_reserve_for(limit) if table_reserve is None else table_reserve
        self.queue: BudgetQueue[asyncio.Future[None]] = BudgetQueue(
            SlidingBudget(limit, window), reserve
        )
        self._clock = clock
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at = 0.0  # when the armed timer fires (on the budget's clock)

    async def spend(self, lane: Lane) -> None:
        """Return once this request may go (at once while the budget is not short); the
        caller must then call :meth:`finish` once the request is over."""
        if self.queue.try_now(lane, self._clock()):
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.push(lane, future)
        self._arm()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.finish()  # granted, but the caller gave up before using it
            raise

    def finish(self) -> None:
        """The request granted by :meth:`spend` is over (call exactly once after it)."""
        self.queue.finish(self._clock())
        self._arm()

    @contextlib.asynccontextmanager
    async def token(self, lane: Lane) -> AsyncIterator[None]:
        """Hold one token around a request (:meth:`spend`, then :meth:`finish`)."""
        await self.spend(lane)
        try:
            yield
        finally:
            self.finish()

    def _arm(self) -> None:
        """Wake up when the first waiting request may go. A timer armed for a later lane
        (DMs, behind the table reserve) is moved earlier when a table request comes to
        wait: it would otherwise wait for the DMs' moment."""
        now = self._clock()
        at = self.queue.wake_at(now)
        if at is None:
            return  # nothing waits, or only a finish() can free a token: it re-arms
        if self._timer is not None:
            if self._timer_at <= at:
                return
            self._timer.cancel()
        self._timer_at = at
        self._timer = asyncio.get_running_loop().call_later(max(0.0, at - now), self._release)

    def _release(self) -> None:
        self._timer = None
        for future in self.queue.due(self._clock(), lambda f: not f.done()):
            future.set_result(None)
        self._arm()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


FAILURE_LINE_EVERY = 60.0  # seconds between two log lines about one kind of failed request


def failure_text(error: BaseException) -> str:
    """A failed request in words, without a traceback (Discord's status, code and text)."""
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status} code {error.code}: {error.text or 'no detail'}"
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class FailureLog:
    """One log line per kind of failed request (a table edit, a DM, ...) per minute; the
    failures in between are counted in the next line. Discord out of reach makes every
    request fail at once, at every table: a line (or a traceback) each would flood the log."""

    def __init__(
        self,
        logger: logging.Logger,
        every: float = FAILURE_LINE_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.every = every
        self.clock = clock
        self._kinds: dict[str, tuple[float, int]] = {}  # kind -> (last line, failures since)

    def failed(self, kind: str, error: BaseException, then: str = "") -> bool:
        """Log ``<kind> failed (<error>)[; <then>]`` unless this kind was logged less than a
        minute ago (then only counted). True: a line was written."""
        now = self.clock()
        seen = self._kinds.get(kind)
        if seen is not None and now - seen[0] < self.every:
            self._kinds[kind] = (seen[0], seen[1] + 1)
            return False
        self._kinds[kind] = (now, 0)
        more = f" ({seen[1]} more failed since the last line)" if seen and seen[1] else ""
        self.logger.warning(
            "%s failed (%s)%s%s", kind, failure_text(error), f"; {then}" if then else "", more
        )
        return True

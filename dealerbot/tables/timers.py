"""Clocks and one-shot timers driven by stored deadlines.

Deadlines are absolute (seconds since the epoch, from the injected clock) so they can
be stored in the hand row and resumed after a restart. Production uses
:class:`SystemClock`; tests and the soak script use :class:`FakeClock`, which only
moves when told to, so no test depends on the wall clock.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

log = logging.getLogger(__name__)


class Clock(Protocol):
    """What the service needs of time: the current instant and a way to wait for one."""

    def now(self) -> float: ...

    async def sleep_until(self, deadline: float) -> None: ...


class SystemClock:
    """Wall-clock time (epoch seconds) and asyncio sleeps."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, deadline: float) -> None:
        while True:
            delay = deadline - time.time()
            if delay <= 0:
                return
            await asyncio.sleep(delay)


class FakeClock:
    """A clock that moves only on :meth:`advance`; sleepers wake in deadline order."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()

    def now(self) -> float:
        return self._now

    async def sleep_until(self, deadline: float) -> None:
        if deadline <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (deadline, next(self._counter), future))
        await future

    def next_deadline(self) -> float | None:
        """The earliest instant someone is waiting for (cancelled waits skipped)."""
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def advance(self, seconds: float) -> None:
        """Move time forward and let every sleeper that is now due start running."""
        if seconds < 0:
            raise ValueError("time does not go backwards")
        self._now += seconds
        while self._sleepers and self._sleepers[0][0] <= self._now:
            _, _, future = heapq.heappop(self._sleepers)
            if not future.done():
                future.set_result(None)
        for _ in range(3):
            await asyncio.sleep(0)


class TaskTracker:
    """Owns background tasks: logs their failures, counts the ones doing work, stops them.

    ``wait_idle`` returns once no timer callback is running or due, which lets tests
    driving a :class:`FakeClock` wait for the consequences of ``advance``.
    """

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()
        self._busy = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.stopped = False

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.ensure_future(coro)
        task.set_name(name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def enter(self) -> None:
        self._busy += 1
        self._idle.clear()

    def leave(self) -> None:
        self._busy -= 1
        if self._busy == 0:
            self._idle.set()

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task %s failed", task.get_name(), exc_info=task.exception())

    async def wait_idle(self) -> None:
        while True:
            for _ in range(3):
                await asyncio.sleep(0)
            if self._busy == 0:
                return
            await self._idle.wait()

    async def join(self) -> None:
        """Wait for every task still running (call after cancelling the sleeping ones)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


class _Job:
    __slots__ = ("callback", "counted", "deadline", "firing", "task")

    def __init__(self, deadline: float, callback: Callable[[], Awaitable[None]]) -> None:
        self.counted = False
        self.firing = False
        self.deadline = deadline
        self.callback = callback
        self.task: asyncio.Task[None] | None = None


class Timer:
    """At most one pending callback; re-arming replaces one that is still waiting.

    A callback that has started is never cancelled (it may be inside a database
    transaction); callbacks check for themselves that they are still current (hand
    id, sequence number) before doing anything. A stopped timer (:meth:`stop`: its table
    is no longer run here) arms nothing, even for a step that was in flight.
    """

    def __init__(self, clock: Clock, tracker: TaskTracker, name: str) -> None:
        self._clock = clock
        self._tracker = tracker
        self._name = name
        self._job: _Job | None = None
        self.deadline: float | None = None
        self.stopped = False

    def arm(self, deadline: float, callback: Callable[[], Awaitable[None]]) -> None:
        job = self._job
        if (
            job is not None
            and not job.counted
            and not job.firing
            and job.task is not None
            and not job.task.done()
            and job.deadline <= deadline
            and not self._tracker.stopped
            and not self.stopped
        ):
            # Every action pushes the turn deadline later: the sleeping task wakes at the
            # old deadline and sleeps on. Cancelling it instead would leave a task,
            # an exception and a traceback per action for the cyclic GC to collect.
            job.deadline, job.callback, self.deadline = deadline, callback, deadline
            return
        self.cancel()
        if self._tracker.stopped or self.stopped:
            return
        job = _Job(deadline, callback)
        if deadline <= self._clock.now():
            job.counted = True
            self._tracker.enter()
        self.deadline = deadline
        job.task = self._tracker.spawn(self._run(job), self._name)
        self._job = job

    def stop(self) -> None:
        """Cancel, and arm nothing from now on."""
        self.stopped = True
        self.cancel()

    def cancel(self) -> None:
        job, self._job, self.deadline = self._job, None, None
        if job is None or job.firing or job.task is None or job.task.done():
            return
        if job.counted:
            job.counted = False
            self._tracker.leave()
        job.task.cancel()

    async def _run(self, job: _Job) -> None:
        if not job.counted:
            while True:
                deadline = job.deadline
                await self._clock.sleep_until(deadline)
                if job.deadline <= deadline:  # not pushed later while asleep
                    break
            job.counted = True
            self._tracker.enter()
        job.firing = True
        if self._job is job:
            self._job, self.deadline = None, None
        try:
            await job.callback()
        finally:
            job.firing = False
            job.counted = False
            self._tracker.leave()

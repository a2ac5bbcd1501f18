"""The REST budget's ordering and limit logic, on a fake clock (counts, never time)."""

from __future__ import annotations

import asyncio
import heapq
import logging
import random
import selectors
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

from dealerbot.bot.rest_budget import (
    BudgetQueue,
    FailureLog,
    Lane,
    RestBudget,
    SlidingBudget,
    table_reserve_for,
)

T = TypeVar("T")


def finish_all(queue: BudgetQueue[str], items: list[str], now: float) -> None:
    for _ in items:
        queue.finish(now)


def test_a_burst_larger_than_the_budget_sends_table_requests_first() -> None:
    queue: BudgetQueue[str] = BudgetQueue(SlidingBudget(limit=45, window=1.0))
    for i in range(60):
        queue.push(Lane.DM, f"dm{i}")
    for i in range(30):
        queue.push(Lane.TABLE, f"table{i}")

    first = queue.due(0.0)
    assert len(first) == 45
    assert first[:30] == [f"table{i}" for i in range(30)]
    assert first[30:] == [f"dm{i}" for i in range(15)]
    assert queue.wake_at(0.0) is None  # every token in flight: the next finish tells
    finish_all(queue, first, 0.1)
    assert queue.due(0.5) == []  # a token rests a whole second after its request
    assert queue.wake_at(0.5) == pytest.approx(1.1)
    assert queue.due(1.1) == [f"dm{i}" for i in range(15, 60)]
    assert len(queue) == 0 and queue.wake_at(1.1) is None


def test_a_table_request_overtakes_dms_already_waiting() -> None:
    queue: BudgetQueue[str] = BudgetQueue(SlidingBudget(limit=2, window=1.0))
    assert queue.try_now(Lane.DM, 0.0) and queue.try_now(Lane.DM, 0.0)
    assert not queue.try_now(Lane.DM, 0.1)  # both tokens out: it must wait
    queue.push(Lane.DM, "dm")
    assert not queue.try_now(Lane.TABLE, 0.2)  # someone waits: no jumping the budget
    queue.push(Lane.TABLE, "edit")
    queue.finish(0.3)
    queue.finish(0.3)
    assert queue.due(1.0) == []
    assert queue.due(1.3) == ["edit", "dm"]


def test_nobody_jumps_the_queue_while_requests_wait() -> None:
    queue: BudgetQueue[str] = BudgetQueue(SlidingBudget(limit=1, window=1.0))
    queue.push(Lane.DM, "waiting")
    assert not queue.try_now(Lane.DM, 0.0)  # a token is free, but a DM waits before it
    queue.push(Lane.TABLE, "edit")
    assert not queue.try_now(Lane.TABLE, 0.0)  # and a table request before this one
    assert queue.due(0.0) == ["edit"]


def test_requests_whose_caller_gave_up_spend_no_token() -> None:
    queue: BudgetQueue[str] = BudgetQueue(SlidingBudget(limit=2, window=1.0))
    for name in ("gone", "a", "b", "c"):
        queue.push(Lane.DM, name)
    assert queue.due(0.0, live=lambda item: item != "gone") == ["a", "b"]
    assert queue.waiting(Lane.DM) == 1


def test_dms_leave_a_reserve_to_table_messages() -> None:
    queue: BudgetQueue[str] = BudgetQueue(SlidingBudget(limit=10, window=1.0), table_reserve=3)
    for i in range(10):
        queue.push(Lane.DM, f"dm{i}")
    assert queue.due(0.0) == [f"dm{i}" for i in range(7)]  # three tokens stay for tables
    assert queue.try_now(Lane.TABLE, 0.1)  # a table request overtakes the waiting DMs
    queue.push(Lane.TABLE, "edit")
    assert queue.due(0.2) == ["edit"]
    assert not queue.try_now(Lane.DM, 0.3)
    for _ in range(9):
        queue.finish(0.5)
    assert queue.wake_at(0.6) == pytest.approx(1.5)
    assert queue.due(1.5) == ["dm7", "dm8", "dm9"]


def test_no_second_at_the_receiver_holds_more_than_the_limit() -> None:
    """Bursts of requests; each granted one reaches Discord at a random moment of its
    flight (a busy event loop sends late) and finishes later still."""
    rng = random.Random(13)
    queue: BudgetQueue[int] = BudgetQueue(SlidingBudget(limit=45, window=1.0), table_reserve=10)
    arrivals: list[float] = []
    finishing: list[float] = []  # heap of the finish times of requests in flight
    now = 0.0

    def launch(at: float) -> None:
        flight = rng.uniform(0.0, 0.3)
        arrivals.append(at + rng.uniform(0.0, flight))
        heapq.heappush(finishing, at + flight)

    def settle(clock: float, until: float) -> None:
        """Run the requests' finishes and the queue's grants in time order up to ``until``."""
        while True:
            upcoming = [finishing[0]] if finishing else []
            wake = queue.wake_at(clock)
            if wake is not None:
                upcoming.append(wake)
            if not upcoming or min(upcoming) > until:
                return
            clock = max(clock, min(upcoming))
            while finishing and finishing[0] <= clock:
                queue.finish(heapq.heappop(finishing))
            for _ in queue.due(clock):
                launch(clock)

    for n in range(3000):
        before, now = now, now + rng.expovariate(80.0)
        settle(before, now)
        lane = Lane.TABLE if rng.random() < 0.3 else Lane.DM
        if queue.try_now(lane, now):
            launch(now)
        else:
            queue.push(lane, n)
    settle(now, now + 1e6)
    assert len(arrivals) == 3000 and len(queue) == 0
    arrivals.sort()
    start = 0
    for end, at in enumerate(arrivals):
        while arrivals[start] <= at - 1.0:
            start += 1
        assert end - start + 1 <= 45, f"{end - start + 1} requests in the second up to {at}"
    assert sum(queue.queued) > 0  # the budget was short: requests did wait


def test_a_budget_needs_a_limit_and_a_window() -> None:
    with pytest.raises(ValueError):
        SlidingBudget(limit=0)
    with pytest.raises(ValueError):
        SlidingBudget(window=0)


def test_the_table_reserve_scales_with_a_process_share_of_the_budget() -> None:
    assert table_reserve_for(45) == 10
    assert table_reserve_for(22) == 4
    assert table_reserve_for(1) == 0
    budget = RestBudget(22)
    assert budget.queue.budget.limit == 22
    assert budget.queue.table_reserve == 4


# --- RestBudget on an event loop whose clock is virtual ------------------------------------


class Stalled(AssertionError):
    """The loop had nothing scheduled while a test's work still waited: a lost wake-up."""


class VirtualSelector(selectors.DefaultSelector):
    """Never blocks: a wait for the next timer advances the loop's clock instead."""

    def __init__(self) -> None:
        super().__init__()
        self.loop: VirtualLoop | None = None

    def select(self, timeout: float | None = None) -> list[Any]:
        assert self.loop is not None
        if timeout is None:
            raise Stalled("nothing is scheduled, yet the test's work waits")
        ready = super().select(0)
        if not ready and timeout > 0:
            self.loop.now += timeout
        return ready


class VirtualLoop(asyncio.SelectorEventLoop):
    """An event loop on a fake clock: timers fire at once, in order, as time "passes"."""

    def __init__(self) -> None:
        selector = VirtualSelector()
        super().__init__(selector)
        selector.loop = self
        self.now = 0.0

    def time(self) -> float:
        return self.now


def run_virtual(main: Callable[[VirtualLoop], Awaitable[T]]) -> T:
    loop = VirtualLoop()
    try:
        return loop.run_until_complete(main(loop))
    finally:
        loop.close()


def test_a_table_request_waiting_behind_a_dm_timer_goes_at_its_own_moment() -> None:
    """A DM waiting behind the table reserve arms the timer for its own (later) moment; a
    table request that then comes to wait must not wait for that moment too."""

    async def main(loop: VirtualLoop) -> dict[str, float]:
        budget = RestBudget(limit=3, window=1.0, clock=loop.time, table_reserve=1)
        granted: dict[str, float] = {}

        async def request(name: str, lane: Lane, at: float, flight: float) -> None:
            await asyncio.sleep(at - loop.time())
            async with budget.token(lane):
                granted[name] = loop.time()
                await asyncio.sleep(flight)

        await asyncio.gather(
            request("dm a", Lane.DM, 0.0, 0.2),  # its token rests until 1.2
            request("dm b", Lane.DM, 0.0, 0.3),  # until 1.3
            request("edit x", Lane.TABLE, 0.1, 0.3),  # until 1.4
            request("dm c", Lane.DM, 0.5, 0.0),  # may go once two tokens rest no more: 1.3
            request("edit y", Lane.TABLE, 0.6, 0.0),  # once one token is free: 1.2
        )
        return granted

    granted = run_virtual(main)
    assert granted["edit y"] == pytest.approx(1.2)  # not 1.3, the DM's moment
    assert granted["dm c"] == pytest.approx(1.4)  # behind the reserve (edit y holds one)


def test_the_budget_never_stalls_under_random_demand_and_cancellations() -> None:
    """Hundreds of requests in both lanes, random flights, callers giving up while they
    wait or just after their grant (a superseded DM): every one ends, no token is lost,
    and the loop never sits with nothing scheduled while a request waits."""
    for seed in range(40):
        rng = random.Random(seed)

        async def main(loop: VirtualLoop, rng: random.Random = rng) -> tuple[int, int]:
            budget = RestBudget(limit=5, window=1.0, clock=loop.time, table_reserve=2)
            ended = 0

            async def request(lane: Lane) -> None:
                nonlocal ended
                try:
                    await asyncio.sleep(rng.uniform(0, 20))
                    async with budget.token(lane):
                        await asyncio.sleep(rng.choice([0.01, 0.2, 1.5, 3.0]))
                finally:
                    ended += 1

            tasks = [asyncio.ensure_future(request(rng.choice(list(Lane)))) for _ in range(300)]
            for _ in range(80):
                await asyncio.sleep(rng.uniform(0, 0.3))
                rng.choice(tasks).cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            return ended, budget.queue.budget.in_flight

        assert run_virtual(main) == (300, 0), f"seed {seed}"


def test_failures_are_told_once_a_minute_per_kind(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    failures = FailureLog(logging.getLogger("dealerbot.test"), clock=lambda: now[0])
    down = OSError("Cannot connect to host")
    with caplog.at_level(logging.WARNING, logger="dealerbot.test"):
        assert failures.failed("table edit", down, "retrying in 3 s")
        assert failures.failed("DM", down)  # another kind: its own line
        for step in range(1, 60):
            now[0] = float(step)
            assert not failures.failed("table edit", down)
        now[0] = 60.0
        assert failures.failed("table edit", down)
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "table edit failed (OSError: Cannot connect to host); retrying in 3 s",
        "DM failed (OSError: Cannot connect to host)",
        "table edit failed (OSError: Cannot connect to host) (59 more failed since the last line)",
    ]
    assert not any(r.exc_info for r in caplog.records)

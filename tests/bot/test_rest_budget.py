"""The REST budget's ordering and limit logic, on a fake clock (counts, never time)."""

from __future__ import annotations

import heapq
import random

import pytest

from dealerbot.bot.rest_budget import (
    BudgetQueue,
    Lane,
    RestBudget,
    SlidingBudget,
    table_reserve_for,
)


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

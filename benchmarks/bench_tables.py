"""Table service speed: hands settled per second and the time of one action, at 50 tables.

Run from the repo root: ``python benchmarks/bench_tables.py [--tables 50] [--hands 300]``.

1. Throughput: 50 tables play at once on ONE database connection (bots act the moment
   their turn is announced); hands settled per second, actions per second.
2. Latency: with a hand in progress at each of the 50 tables, one action at a time,
   round robin; the median time of ``act()`` (table lock, engine, hand-log append, events).

References measured in the same run, on the same machine load: a bare aiosqlite
transaction (BEGIN IMMEDIATE, one INSERT, COMMIT) and the engine's ``apply`` alone; the
action time is also printed as a multiple of the bare transaction. Target: < 2 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiosqlite

from dealerbot.engine import (
    Action,
    SeatSpec,
    Stakes,
    Variant,
    apply,
    legal_actions,
    shuffled_deck,
    start_hand,
)
from dealerbot.store.opening import open_database
from dealerbot.tables import Database, FakeClock, TableService
from dealerbot.tables import events as ev

GUILD = 1
PLAYERS_PER_TABLE = 4
TARGET_RATIO = 2.0  # one action at most twice a bare transaction (issue 13)
TARGET_MS = 2.0


class Bots:
    """Tracks the turn at each table and wakes the table's bot when it changes."""

    def __init__(self) -> None:
        self.turns: dict[int, ev.Turn | None] = {}
        self.wake: dict[int, asyncio.Event] = {}
        self.hands = 0
        self.actions = 0

    def event(self, channel: int) -> asyncio.Event:
        return self.wake.setdefault(channel, asyncio.Event())

    async def __call__(self, event: ev.TableEvent) -> None:
        if isinstance(event, ev.Turn):
            self.turns[event.channel_id] = event
            self.event(event.channel_id).set()
        elif isinstance(event, ev.ActionTaken):
            self.actions += 1
            self.turns[event.channel_id] = None
        elif isinstance(event, ev.HandEnded):
            self.hands += 1
            self.turns[event.channel_id] = None


async def _open(path: Path, tables: int, clock: FakeClock) -> tuple[Database, TableService, Bots]:
    db = await open_database(path, clock=clock.now)
    service = TableService(db, clock=clock, rng=random.Random(7))
    bots = Bots()
    service.subscribe(bots)
    await service.startup()
    for channel in range(1, tables + 1):
        await service.config_set(GUILD, channel, between_hands_seconds=0, max_buyin=5000)
        for seat in range(PLAYERS_PER_TABLE):
            user = channel * 10 + seat
            await service.admin_adjust(GUILD, user, 100_000)
            await service.join(GUILD, channel, user, f"bot{user}", 5000)
    return db, service, bots


async def _top_up(service: TableService, channel: int) -> None:
    view = await service.table_view(GUILD, channel)
    if view.status != "waiting":
        return
    for seat in view.seats:
        if seat.stack < 1000:
            await service.add_chips(GUILD, channel, seat.user_id, 5000 - seat.stack)


async def throughput(path: Path, tables: int, hands: int) -> tuple[float, float, int]:
    clock = FakeClock()
    db, service, bots = await _open(path, tables, clock)
    rng = random.Random(1)
    done = asyncio.Event()

    async def bot(channel: int) -> None:
        wake = bots.event(channel)
        while not done.is_set():
            await wake.wait()
            wake.clear()
            turn = bots.turns.get(channel)
            if turn is None:
                continue
            kind = rng.choice([o.kind for o in turn.options])
            await service.act(GUILD, channel, turn.user_id, turn.hand_id, turn.seq, kind)
            if bots.hands >= hands:
                done.set()

    async def dealer() -> None:  # hands start on the (fake) between-hands timer
        while not done.is_set():
            for channel in range(1, tables + 1):
                await _top_up(service, channel)
            await clock.advance(1)
            await asyncio.sleep(0.01)

    start = time.perf_counter()
    tasks = [asyncio.create_task(bot(c)) for c in range(1, tables + 1)]
    tasks.append(asyncio.create_task(dealer()))
    await done.wait()
    elapsed = time.perf_counter() - start
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    hands_done, actions = bots.hands, bots.actions
    await service.shutdown()
    await db.close()
    return hands_done / elapsed, actions / elapsed, hands_done


async def latency(path: Path, tables: int, samples: int) -> list[float]:
    clock = FakeClock()
    db, service, bots = await _open(path, tables, clock)
    rng = random.Random(2)
    times: list[float] = []
    channels = list(range(1, tables + 1))
    while len(times) < samples:
        for channel in channels:
            turn = bots.turns.get(channel)
            if turn is None:
                await _top_up(service, channel)
                continue
            kind = rng.choice([o.kind for o in turn.options])
            start = time.perf_counter()
            await service.act(GUILD, channel, turn.user_id, turn.hand_id, turn.seq, kind)
            times.append(time.perf_counter() - start)
        await clock.advance(1)
        await service.wait_idle()
    await service.shutdown()
    await db.close()
    return times


async def bare_transaction(path: Path, count: int) -> float:
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute("PRAGMA synchronous = NORMAL")
    await conn.execute("CREATE TABLE t (a INTEGER, b TEXT)")
    times = []
    for i in range(count):
        start = time.perf_counter()
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("INSERT INTO t VALUES (?, ?)", (i, "call"))
        await conn.execute("COMMIT")
        times.append(time.perf_counter() - start)
    await conn.close()
    return statistics.median(times)


def engine_apply(count: int) -> float:
    rng = random.Random(3)
    stakes = Stakes.of(5, 1, 2)
    times: list[float] = []
    while len(times) < count:
        state, _ = start_hand(
            Variant.STUD, stakes, [SeatSpec(i, 500) for i in range(4)], shuffled_deck(rng)
        )
        while not state.is_over:
            legal = legal_actions(state)
            assert legal.seat is not None
            option = rng.choice(legal.options)
            start = time.perf_counter()
            state, _ = apply(state, Action(legal.seat, option.kind))
            times.append(time.perf_counter() - start)
    return statistics.median(times)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--samples", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        base = Path(folder)
        bare = await bare_transaction(base / "bare.sqlite3", 500)
        apply_s = engine_apply(2000)
        hands_s, actions_s, hands = await throughput(base / "thr.sqlite3", args.tables, args.hands)
        times = await latency(base / "lat.sqlite3", args.tables, args.samples)
    median = statistics.median(times)
    p90 = statistics.quantiles(times, n=10)[-1]
    print(f"tables: {args.tables}, one connection, {PLAYERS_PER_TABLE} players each")
    print(
        f"throughput: {hands_s:.1f} hands settled/s, {actions_s:.0f} actions/s "
        f"({1000 / actions_s:.2f} ms per action, all tables at once; {hands} hands)"
    )
    print(
        f"one action through the service: median {median * 1000:.2f} ms, "
        f"p90 {p90 * 1000:.2f} ms ({len(times)} actions) -- target < {TARGET_MS} ms"
    )
    print(
        f"reference (same run): bare aiosqlite transaction {bare * 1000:.2f} ms, "
        f"engine apply {apply_s * 1e6:.0f} us; one action = {median / bare:.1f} x bare "
        "transaction"
    )
    print("verdict:", "OK" if median * 1000 < TARGET_MS else "SLOWER THAN TARGET")
    ratio = median / bare
    print(
        f"target (issue 13): one action <= {TARGET_RATIO:g} x a bare aiosqlite transaction: "
        f"{ratio:.1f} x, {'met' if ratio <= TARGET_RATIO else 'NOT met'}"
    )


if __name__ == "__main__":
    asyncio.run(main())

"""Player stats speed: a player's stats, the week's winnings board, and what settlement pays.

Run from the repo root: ``python benchmarks/bench_stats.py [--hands 100000] [--players 100000]``.

1. ``/stud stats`` for one player with 100,000 hands (over a year, three games): the store's
   rollup query, for all time and for this week. Reference in the same run: the same
   numbers summed from the player's 100,000 ``hand_players`` rows (the query without the
   rollup). Target: under 20 ms.
2. The winnings leaderboard for this week over 100,000 players: page 1, a deep page, the
   rank of the last player. Reference: the same top 10 grouped from ``hand_players``.
   Target: under 50 ms.
3. Settlement with and without the stats rows, in one run: 8-handed hands played to the
   showdown through the table service, alternating (one hand works out and writes the rows,
   the next does neither); the median time of the settlement transaction (stacks, ledger,
   hand row, stats rows; the rows are worked out just before it) and of the whole action
   that ends the hand (engine showdown, rows, transaction, events), and the CPU time of
   the transaction. The rows are written pending (migration 0009): the CPU of the folds
   that roll them up later (every few hands, after a transaction) is printed too, per hand
   with rows, and added to the transaction's. Target: at most 10 % more with the rows.

Rows for 1 and 2 go straight into ``hand_players``, pending as at settlement, and one fold
rolls them up (the store's roll-up); the API would take hours for 100,000 hands.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealerbot.store import stats as stats_db
from dealerbot.store.boards import Seek
from dealerbot.store.db import Database, execute_many, fetch_all
from dealerbot.store.opening import open_database
from dealerbot.store.stats import Period, PeriodKeys
from dealerbot.tables import FakeClock, TableService
from dealerbot.tables import events as ev
from dealerbot.tables import hand_log as hand_module

GUILD = 900_000_000_000_000_001
PLAYER = 100_000_000_000_000_000
NOW = 1_796_083_200.0 + 12 * 3600  # a Tuesday, noon UTC
DAY = 86_400
VARIANTS = ("stud", "stud8", "razz")
INSERT = (
    "INSERT INTO hand_players (hand_id, user_id, guild_id, table_id, variant, seat_no, put_in,"
    " won, net, last_street, entered_third, raised_third, showdown, won_showdown, shown_rank,"
    " shown_cards, ended_at, day, week, month, pending)"
    " VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"
)
REFERENCE_STATS = (
    "SELECT variant, COUNT(*), SUM(net), SUM(CASE WHEN won > 0 THEN 1 ELSE 0 END),"
    " SUM(entered_third), SUM(raised_third), SUM(CASE WHEN last_street = 7 THEN 1 ELSE 0 END),"
    " SUM(showdown), SUM(won_showdown), MAX(won), MAX(shown_rank)"
    " FROM hand_players WHERE guild_id = ? AND user_id = ? GROUP BY variant"
)
REFERENCE_BOARD = (
    "SELECT user_id, SUM(net) AS total FROM hand_players WHERE guild_id = ? AND week = ?"
    " GROUP BY user_id ORDER BY total DESC, user_id LIMIT 10"
)


def row(hand_id: int, user: int, at: float, rng: random.Random) -> tuple[Any, ...]:
    keys = PeriodKeys.at(at)
    put_in = rng.randrange(1, 60)
    won = rng.choice((0, 0, 0, rng.randrange(1, 400)))
    showdown = rng.random() < 0.25
    rank = rng.randrange(1, 7000) if showdown else None
    return (
        hand_id,
        user,
        GUILD,
        rng.choice(VARIANTS),
        rng.randrange(8),
        put_in,
        won,
        won - put_in,
        rng.choice((3, 3, 4, 5, 6, 7)),
        int(rng.random() < 0.3),
        int(rng.random() < 0.1),
        int(showdown),
        int(showdown and won > 0),
        rank,
        None if rank is None else "As Ah Ad Ac Kd Ks 2c",
        at,
        keys.day,
        keys.week,
        keys.month,
    )


async def populate(db: Database, hands: int, players: int, rng: random.Random) -> None:
    """One player's hands over a year, then one hand this week for each of ``players``."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO guilds (guild_id, starting_chips, daily_chips, daily_cooldown_seconds,"
            " created_at) VALUES (?, 1000, 100, 86400, 0)",
            (GUILD,),
        )
        await conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, created_at) VALUES (1, ?, 1, 0)",
            (GUILD,),
        )
    # hand_players.hand_id references hands: the bench writes stats rows alone.
    await db.conn.execute("PRAGMA foreign_keys = OFF")
    batch: list[tuple[Any, ...]] = []
    for i in range(hands):
        batch.append(row(i + 1, PLAYER, NOW - rng.random() * 365 * DAY, rng))
    monday = PeriodKeys.at(NOW).week * DAY
    for j in range(players):
        at = monday + rng.random() * (NOW - monday)
        batch.append(row(hands + j + 1, PLAYER + 1 + j, at, rng))
    for start in range(0, len(batch), 20_000):
        async with db.transaction() as conn:
            await execute_many(conn, INSERT, batch[start : start + 20_000])
    await stats_db.fold_pending(db)  # the rollups, as the reads and the table service fold
    await db.conn.execute("PRAGMA foreign_keys = ON")
    await db.conn.execute("ANALYZE")


async def read(db: Database, sql: str, params: tuple[Any, ...]) -> list[Any]:
    async with db.reading() as conn:
        return list(await fetch_all(conn, sql, params))


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> float:
    """Median milliseconds over ``repeat`` calls (after one warm-up)."""
    await call()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


async def queries(db: Database, repeat: int) -> bool:
    week = PeriodKeys.at(NOW).week
    first_day = PeriodKeys.at(NOW).first_day
    last = await read(
        db,
        "SELECT user_id FROM winnings WHERE guild_id = ? AND week = ?"
        " ORDER BY week_net, user_id DESC LIMIT 1",
        (GUILD, week),
    )
    [(total,)] = await read(
        db,
        "SELECT COUNT(*) FROM winnings WHERE guild_id = ? AND week = ?",
        (GUILD, week),
    )
    deep = total // stats_db.PAGE_SIZE // 2
    shown = (await stats_db.winnings_page(db, GUILD, Period.WEEK, deep - 1, at=NOW)).entries[-1]
    seek = Seek(shown.net, shown.user_id)  # what page deep - 1's Next button carries

    async def stats(period: Period) -> None:
        await stats_db.player_totals(db, GUILD, PLAYER, since_day=first_day(period), variant=None)

    results = {
        "stats, 100k hands, all time": (await timed(lambda: stats(Period.ALL), repeat), 20),
        "stats, this month": (await timed(lambda: stats(Period.MONTH), repeat), 20),
        "stats, this week": (await timed(lambda: stats(Period.WEEK), repeat), 20),
        "winnings this week, page 1": (
            await timed(lambda: stats_db.winnings_page(db, GUILD, Period.WEEK, 1, at=NOW), repeat),
            50,
        ),
        f"winnings this week, page {deep:,} (Next: seek)": (
            await timed(
                lambda: stats_db.winnings_page(db, GUILD, Period.WEEK, 1, at=NOW, after=seek),
                repeat,
            ),
            50,
        ),
        f"winnings this week, page {deep:,} by number": (
            await timed(
                lambda: stats_db.winnings_page(db, GUILD, Period.WEEK, deep, at=NOW), repeat
            ),
            1000,  # an OFFSET walk: only a button made before the seek pages this way
        ),
        "rank of the last player this week": (
            await timed(
                lambda: stats_db.winnings_rank(db, GUILD, last[0][0], Period.WEEK, at=NOW),
                repeat,
            ),
            50,
        ),
    }
    ref_stats = await timed(lambda: read(db, REFERENCE_STATS, (GUILD, PLAYER)), max(3, repeat // 5))
    ref_board = await timed(lambda: read(db, REFERENCE_BOARD, (GUILD, week)), max(3, repeat // 5))
    print(f"\nmedian ms per call ({total:,} players this week):")
    for name, (ms, target) in results.items():
        print(f"  {name:<40} {ms:8.3f} ms  target < {target} ms  {'ok' if ms < target else 'SLOW'}")
    print(f"  {'reference: stats summed from 100k rows':<40} {ref_stats:8.3f} ms")
    print(f"  {'reference: week board grouped from rows':<40} {ref_board:8.3f} ms")
    all_time = results["stats, 100k hands, all time"][0]
    page_one = results["winnings this week, page 1"][0]
    print(f"  stats are {ref_stats / all_time:.0f}x faster than the reference")
    print(f"  the board is {ref_board / page_one:.0f}x faster than the reference")
    return all(ms < target for ms, target in results.values())


class Timing:
    """Alternates hands with and without the stats rows (the rows worked out and written, or
    neither) and times the settlement transaction and the action that ends the hand."""

    def __init__(self) -> None:
        self.with_rows: list[float] = []
        self.without: list[float] = []
        self.act_with: list[float] = []  # the whole action that ended the hand
        self.act_without: list[float] = []
        self.cpu_with: list[float] = []  # CPU time of the process (all threads) for it
        self.cpu_without: list[float] = []
        self.rows_on = True
        self.settle = hand_module._settle_writes
        self.stats_rows = hand_module._stats_rows
        self.fold = stats_db.fold_pending
        self.cpu_fold: list[float] = []  # the folds of pending rows, after settlements
        self.folded = 0

    async def fold_pending(self, db: Database) -> int:
        cpu = time.process_time()
        try:
            count = await self.fold(db)
            self.folded += count
            return count
        finally:
            self.cpu_fold.append((time.process_time() - cpu) * 1000)

    def next_hand(self) -> None:
        self.rows_on = not self.rows_on

        def no_rows(*_: Any) -> list[Any]:
            return []

        hand_module._stats_rows = self.stats_rows if self.rows_on else no_rows  # type: ignore[assignment]

    async def settle_writes(self, *args: Any) -> Any:
        start, cpu = time.perf_counter(), time.process_time()
        try:
            return await self.settle(*args)
        finally:
            spent = (time.perf_counter() - start) * 1000
            used = (time.process_time() - cpu) * 1000
            (self.with_rows if self.rows_on else self.without).append(spent)
            (self.cpu_with if self.rows_on else self.cpu_without).append(used)

    def restore(self) -> None:
        hand_module._settle_writes = self.settle  # type: ignore[assignment]
        hand_module._stats_rows = self.stats_rows  # type: ignore[assignment]
        stats_db.fold_pending = self.fold  # type: ignore[assignment]


async def settlement(folder: Path, hands: int) -> bool:
    clock = FakeClock(NOW)
    db = await open_database(folder / "settle.sqlite3", clock=clock.now)
    service = TableService(db, clock=clock, rng=random.Random(7))
    turns: list[ev.Turn | None] = [None]

    async def listen(event: ev.TableEvent) -> None:
        if isinstance(event, ev.Turn):
            turns[0] = event
        elif isinstance(event, ev.HandEnded):
            turns[0] = None

    service.subscribe(listen)
    await service.startup()
    timing = Timing()
    hand_module._settle_writes = timing.settle_writes  # type: ignore[assignment]
    stats_db.fold_pending = timing.fold_pending  # type: ignore[assignment]
    try:
        await service.config_set(
            GUILD, 1, between_hands_seconds=60, max_buyin=5000, turn_seconds=300
        )
        await service.economy_set(GUILD, starting_chips=10_000_000)
        for seat in range(8):
            await service.join(GUILD, 1, PLAYER + seat, f"p{seat}", 5000)
        for _ in range(hands):
            timing.next_hand()
            await service.start(GUILD, 1)
            while (turn := turns[0]) is not None:
                kinds = {o.kind.value: o.kind for o in turn.options}
                kind = next(kinds[k] for k in ("check", "call", "bring_in") if k in kinds)
                start = time.perf_counter()
                await service.act(GUILD, 1, turn.user_id, turn.hand_id, turn.seq, kind)
                if turns[0] is None:  # this action ended the hand
                    spent = (time.perf_counter() - start) * 1000
                    (timing.act_with if timing.rows_on else timing.act_without).append(spent)
    finally:
        timing.restore()
        await service.shutdown()
        await db.close()
    with_rows = statistics.median(timing.with_rows)
    without = statistics.median(timing.without)
    ratio = with_rows / without
    print(f"\nsettlement transaction, 8 players, showdown ({hands} hands, alternating):")
    print(f"  without stats rows  {without:8.3f} ms (median of {len(timing.without)})")
    print(f"  with stats rows     {with_rows:8.3f} ms (median of {len(timing.with_rows)})")
    print(f"  cost of the rows    {100 * (ratio - 1):+.1f} %  (target: at most +10 %)")
    cpu_with = statistics.mean(timing.cpu_with)
    cpu_without = statistics.mean(timing.cpu_without)
    print(
        f"  CPU time (all threads, mean; what load on the machine does not inflate):"
        f" {cpu_without:.3f} -> {cpu_with:.3f} ms, {100 * (cpu_with / cpu_without - 1):+.1f} %"
    )
    folds = sum(timing.cpu_fold) / len(timing.cpu_with)
    print(
        f"  the folds of the pending rows, after the transactions ({len(timing.cpu_fold)} folds,"
        f" {timing.folded} rows): {folds:.3f} ms CPU per hand with rows; transaction + its share"
        f" of the folds {cpu_without:.3f} -> {cpu_with + folds:.3f} ms,"
        f" {100 * ((cpu_with + folds) / cpu_without - 1):+.1f} %"
    )
    act_with = statistics.median(timing.act_with)
    act_without = statistics.median(timing.act_without)
    print("the action that ends the hand (engine showdown, settlement, events):")
    print(f"  without stats rows  {act_without:8.3f} ms")
    print(f"  with stats rows     {act_with:8.3f} ms")
    print(f"  cost of the rows    {100 * (act_with / act_without - 1):+.1f} %")
    return ratio <= 1.10


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--settle-hands", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        db = await open_database(folder / "bench.sqlite3", clock=lambda: NOW)
        try:
            start = time.perf_counter()
            await populate(db, args.hands, args.players, random.Random(2026))
            print(
                f"populated {args.hands:,} hands of one player and {args.players:,} players"
                f" this week in {time.perf_counter() - start:.1f} s"
            )
            fast = await queries(db, args.repeat)
        finally:
            await db.close()
        cheap = await settlement(folder, args.settle_hands)
    return 0 if fast and cheap else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

"""Leaderboard speed with 100,000 wallets in one guild (plus another guild's 20,000).

Run from the repo root: ``python benchmarks/bench_leaderboard.py [--wallets N]``.
Times the store's own functions (top 10, a player's rank, a deep page, page-of-user) and,
as a reference measured in the same run, the same top-10 query with the index disabled
(``NOT INDEXED``: a scan and a sort). Prints EXPLAIN QUERY PLAN for each query.
Target: under 50 ms per query, by index.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealerbot.store import leaderboard
from dealerbot.store.boards import Seek
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.leaderboard import COUNT_SQL, RANK_SQL, TOP_SQL
from dealerbot.store.opening import open_database

GUILD = 900_000_000_000_000_001
OTHER_GUILD = GUILD + 1
FIRST_USER = 100_000_000_000_000_000
REFERENCE_SQL = (
    "SELECT user_id, chips, table_chips, chips + table_chips AS worth FROM wallets NOT INDEXED"
    " WHERE guild_id = ? ORDER BY worth DESC, user_id LIMIT 10"
)


async def populate(db: Database, n: int, rng: random.Random) -> None:
    """Bulk rows straight into the schema (the API would take minutes for 100k wallets)."""
    async with db.transaction() as conn:
        for guild in (GUILD, OTHER_GUILD):
            await conn.execute(
                "INSERT INTO guilds (guild_id, starting_chips, daily_chips, daily_cooldown_seconds,"
                " created_at) VALUES (?, 1000, 100, 86400, 0)",
                (guild,),
            )
        chips = [int(rng.paretovariate(1.2) * 500) for _ in range(n)]
        rows = [(GUILD, FIRST_USER + i, c, c) for i, c in enumerate(chips)]
        other = [rng.randrange(5000) for _ in range(n // 5)]
        rows += [(OTHER_GUILD, FIRST_USER + i, c, c) for i, c in enumerate(other)]
        await conn.executemany(
            "INSERT INTO wallets (guild_id, user_id, chips, net_worth, created_at)"
            " VALUES (?, ?, ?, ?, 0)",
            rows,
        )
        # 125 tables with 8 players each: their table_chips come from the seat triggers.
        for t in range(125):
            table_id = t + 1
            await conn.execute(
                "INSERT INTO tables (id, guild_id, channel_id, created_at) VALUES (?, ?, ?, 0)",
                (table_id, GUILD, 700_000 + t),
            )
            for seat in range(8):
                user = FIRST_USER + t * 8 + seat
                await conn.execute(
                    "INSERT INTO seats (table_id, seat_no, guild_id, user_id, display_name,"
                    " stack, joined_at) VALUES (?, ?, ?, ?, 'p', ?, 0)",
                    (table_id, seat, GUILD, user, rng.randrange(100, 1000)),
                )
    await db.conn.execute("ANALYZE")


async def read(db: Database, sql: str, params: tuple[int, ...]) -> list[Any]:
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


async def plan(db: Database, sql: str, params: tuple[object, ...]) -> str:
    async with db.reading() as conn:
        rows = await fetch_all(conn, "EXPLAIN QUERY PLAN " + sql, params)
    return "; ".join(r[3] for r in rows)


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--wallets", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(2024)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.sqlite3")
        try:
            start = time.perf_counter()
            await populate(db, args.wallets, rng)
            print(f"populated {args.wallets:,} wallets in {time.perf_counter() - start:.1f} s")

            top10 = await leaderboard.top(db, GUILD, 10)
            bottom = await read(
                db,
                "SELECT user_id FROM wallets WHERE guild_id = ? ORDER BY net_worth, user_id"
                " LIMIT 1",
                (GUILD,),
            )
            last_user = bottom[0][0]
            middle_page = args.wallets // leaderboard.PAGE_SIZE // 2
            users = [FIRST_USER + rng.randrange(args.wallets) for _ in range(args.repeat)]
            user_iter = iter(users * 2)
            shown = (await leaderboard.page(db, GUILD, middle_page)).entries[-1]
            seek = Seek(shown.net_worth, shown.user_id)  # what the page's Next button carries

            results = {
                "top 10": await timed(lambda: leaderboard.top(db, GUILD, 10), args.repeat),
                "rank of the top player": await timed(
                    lambda: leaderboard.rank_of(db, GUILD, top10[0].user_id), args.repeat
                ),
                "rank of a random player": await timed(
                    lambda: leaderboard.rank_of(db, GUILD, next(user_iter)), args.repeat
                ),
                "rank of the last player (worst case)": await timed(
                    lambda: leaderboard.rank_of(db, GUILD, last_user), args.repeat
                ),
                "page 1 (with total count)": await timed(
                    lambda: leaderboard.page(db, GUILD, 1), args.repeat
                ),
                f"page {middle_page:,} (deep offset)": await timed(
                    lambda: leaderboard.page(db, GUILD, middle_page), args.repeat
                ),
                f"page {middle_page + 1:,} (Next: seek, no offset)": await timed(
                    lambda: leaderboard.page(db, GUILD, middle_page, after=seek), args.repeat
                ),
                "page of the last player": await timed(
                    lambda: leaderboard.page_of_user(db, GUILD, last_user), args.repeat
                ),
            }

            async def reference() -> None:
                await read(db, REFERENCE_SQL, (GUILD,))

            ref = await timed(reference, max(5, args.repeat // 3))

            print("\nmedian ms per call (target < 50 ms):")
            for name, ms in results.items():
                verdict = "ok" if ms < 50 else "SLOW"
                print(f"  {name:<40} {ms:8.3f} ms  {verdict}")
            print(f"  {'reference: top 10 without the index':<40} {ref:8.3f} ms")
            print(f"  top 10 is {ref / results['top 10']:.0f}x faster than the reference scan")

            print("\nEXPLAIN QUERY PLAN:")
            plans = {
                "top 10": await plan(db, TOP_SQL, (GUILD, 10, 0)),
                "rank": await plan(db, RANK_SQL, (GUILD, 1000)),
                "count": await plan(db, COUNT_SQL, (GUILD,)),
                "reference": await plan(db, REFERENCE_SQL, (GUILD,)),
            }
            for name, text in plans.items():
                print(f"  {name:<10} {text}")
            indexed = all("USING" in plans[k] and "INDEX" in plans[k] for k in ("top 10", "rank"))
            no_sort = "TEMP B-TREE" not in plans["top 10"]
            print(f"\nleaderboard queries use an index: {indexed}; no sort step: {no_sort}")
            slow = [k for k, v in results.items() if v >= 50]
            return 0 if indexed and no_sort and not slow else 1
        finally:
            await db.close()


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

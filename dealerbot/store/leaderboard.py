"""The leaderboard: players ranked by net worth (wallet plus chips at tables) in a guild.

``wallets.net_worth`` is chips + table_chips, materialised (a CHECK keeps it exact), and
``wallets_leaderboard (guild_id, net_worth DESC, user_id)`` orders it, so the top N and each
page are an index walk (a seek from a neighbouring page's row: store/boards.py), and a
rank is a count over an index range. ``table_chips`` is kept by triggers on ``seats`` in
the same transaction as every stack change.
Ranks are competition ranks: players with equal net worth share one.
House wallets (negative ids: the bankroll, the house players; store/house.py) are never
ranked: every query here reads members only (``user_id > 0``, inside the same index).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .boards import BoardSql, Seek, Slice, page_rows
from .db import Connection, Database, fetch_all, fetch_one
from .validate import check_id

PAGE_SIZE = 10
MAX_TOP = 100

# Both read only the index (covering): skipping an OFFSET or counting never touches rows.
TOP_SQL = (
    "SELECT user_id, net_worth FROM wallets WHERE guild_id = ? AND user_id > 0"
    " ORDER BY net_worth DESC, user_id LIMIT ? OFFSET ?"
)
RANK_SQL = "SELECT COUNT(*) FROM wallets WHERE guild_id = ? AND user_id > 0 AND net_worth > ?"
BOARD = BoardSql("wallets", "guild_id = ? AND user_id > 0", "net_worth")
# Kept by a trigger on wallets (members' wallets only); the audit compares it with a count.
COUNT_SQL = "SELECT wallet_count FROM guilds WHERE guild_id = ?"


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    rank: int
    user_id: int
    chips: int
    table_chips: int
    net_worth: int


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    guild_id: int
    page: int  # 1-based
    pages: int
    total_players: int
    entries: tuple[LeaderboardEntry, ...]
    start: int = 0  # the first entry's 0-based place (a seek page need not start at a ten)

    @property
    def at_end(self) -> bool:
        return self.start + len(self.entries) >= self.total_players


async def _rank_of_worth(conn: Connection, guild_id: int, net_worth: int) -> int:
    row = await fetch_one(conn, RANK_SQL, (guild_id, net_worth))
    return 1 + (int(row[0]) if row is not None else 0)


async def _entries(conn: Connection, guild_id: int, found: Slice) -> list[LeaderboardEntry]:
    """The page's rows with their wallet and table chips (ten lookups by key)."""
    if not found.rows:
        return []
    marks = ", ".join("?" for _ in found.rows)
    split = {
        r[0]: (r[1], r[2])
        for r in await fetch_all(
            conn,
            f"SELECT user_id, chips, table_chips FROM wallets"
            f" WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *(r.user_id for r in found.rows)),
        )
    }
    return [
        LeaderboardEntry(rank, r.user_id, *split[r.user_id], r.score)
        for r, rank in zip(found.rows, found.ranks, strict=True)
    ]


async def top(db: Database, guild_id: int, n: int = 10) -> list[LeaderboardEntry]:
    """The ``n`` richest players (1..100)."""
    check_id(guild_id, "guild id")
    n = max(1, min(int(n), MAX_TOP))
    async with db.reading() as conn:
        found = await page_rows(conn, BOARD, (guild_id,), size=n, start=0)
        return await _entries(conn, guild_id, found)


async def page(
    db: Database,
    guild_id: int,
    page: int = 1,
    *,
    after: Seek | None = None,
    before: Seek | None = None,
) -> LeaderboardPage:
    """One page of PAGE_SIZE players: the page after ``after`` or before ``before`` (a
    (net worth, user id) seek: no OFFSET walk), else page number ``page`` (pages past the
    end show the last page)."""
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        row = await fetch_one(conn, COUNT_SQL, (guild_id,))
        total = int(row[0]) if row is not None else 0
        pages = max(1, math.ceil(total / PAGE_SIZE))
        number = max(1, min(int(page), pages))
        found = await page_rows(
            conn, BOARD, (guild_id,), size=PAGE_SIZE, start=(number - 1) * PAGE_SIZE,
            after=after, before=before,
        )  # fmt: skip
        entries = await _entries(conn, guild_id, found)
    number = min(found.start // PAGE_SIZE + 1, pages)
    return LeaderboardPage(guild_id, number, pages, total, tuple(entries), found.start)


async def rank_of(db: Database, guild_id: int, user_id: int) -> LeaderboardEntry | None:
    """The player's rank and chips, or None if they have no wallet in this guild."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT chips, table_chips, net_worth FROM wallets WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return None
        rank = await _rank_of_worth(conn, guild_id, row[2])
    return LeaderboardEntry(rank, user_id, row[0], row[1], row[2])


async def page_of_user(db: Database, guild_id: int, user_id: int) -> int | None:
    """The leaderboard page that lists this player (ties are ordered by user id)."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT net_worth FROM wallets WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        if row is None:
            return None
        worth = row[0]
        ahead = await fetch_one(
            conn,
            "SELECT (SELECT COUNT(*) FROM wallets"
            "    WHERE guild_id = ? AND user_id > 0 AND net_worth > ?)"
            " + (SELECT COUNT(*) FROM wallets"
            "    WHERE guild_id = ? AND net_worth = ? AND user_id > 0 AND user_id < ?)",
            (guild_id, worth, guild_id, worth, user_id),
        )
    position = 1 + (int(ahead[0]) if ahead is not None else 0)
    return math.ceil(position / PAGE_SIZE)

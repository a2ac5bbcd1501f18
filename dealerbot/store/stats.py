"""Player statistics: one row per player and finished hand, and the rollups that answer.

``hand_players`` rows are written in the settlement's transaction by :func:`record_hand`
(one statement, joining the caller's transaction), as pending: every read here first folds
the pending rows (:func:`fold_pending`, in the read's transaction, so answers are exact),
and the table service folds every few hands. Folding (:mod:`.rollups`) adds the rows to
``player_days`` (per player, variant and UTC day: ``/stud stats``) and to ``winnings`` (one
row per player: net chips in his current day, week and month, and all time; each period's
board walks its own index, like the chips leaderboard). Period keys are computed here from
the store's clock, so SQL needs no date function.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import Enum
from typing import NamedTuple

from .boards import BoardSql, Seek, page_rows
from .db import Connection, Database, fetch_all, fetch_one
from .hands import HandRecord, hand_in
from .rollups import fold
from .validate import check_id

PAGE_SIZE = 10
SECONDS_PER_DAY = 86_400


class Period(Enum):
    """A leaderboard or stats period; the value names its ``winnings`` columns."""

    TODAY = "day"
    WEEK = "week"
    MONTH = "month"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class PeriodKeys:
    """The UTC day, week (its Monday's day number) and month (year * 12 + month - 1)."""

    day: int
    week: int
    month: int

    @classmethod
    def at(cls, unix: float) -> PeriodKeys:
        day = math.floor(unix / SECONDS_PER_DAY)
        when = datetime.fromtimestamp(day * SECONDS_PER_DAY, UTC)
        # 1970-01-01 (day 0) was a Thursday: (day + 3) % 7 is days since Monday.
        return cls(day, day - (day + 3) % 7, when.year * 12 + when.month - 1)

    def start(self, period: Period) -> int:
        """The key of ``period`` (the ``winnings`` column of the same name; 0 for all time)."""
        return {Period.TODAY: self.day, Period.WEEK: self.week, Period.MONTH: self.month}.get(
            period, 0
        )

    def first_day(self, period: Period) -> int | None:
        """The first UTC day of ``period`` (None: all time)."""
        if period is Period.TODAY:
            return self.day
        if period is Period.WEEK:
            return self.week
        if period is Period.MONTH:
            year, month0 = divmod(self.month, 12)
            start = datetime(year, month0 + 1, 1, tzinfo=UTC)
            return int(start.timestamp()) // SECONDS_PER_DAY
        return None


class PlayerHandRow(NamedTuple):
    """One player's facts for one hand, as the engine reported them (a NamedTuple in the
    column order of the insert: settlement builds them inside its transaction)."""

    user_id: int
    seat_no: int
    put_in: int
    won: int
    net: int
    last_street: int
    entered_third: int  # 0 or 1, as the columns hold them
    raised_third: int
    showdown: int
    won_showdown: int
    shown_rank: int | None
    shown_cards: str | None  # "As Ks Kd ...": the cards the shown hand played


_INSERT = (
    "INSERT INTO hand_players (hand_id, user_id, guild_id, table_id, variant, seat_no, put_in,"
    " won, net, last_street, entered_third, raised_third, showdown, won_showdown, shown_rank,"
    " shown_cards, ended_at, day, week, month, pending{kind})"
    " SELECT ?, ?, guild_id, id, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1{mark}"
    " FROM tables WHERE id = ?"
)
# A cash hand's rows leave ``tournament`` to its default (0), as before migration 0013.
_INSERT_CASH = _INSERT.format(kind="", mark="")
_INSERT_TOURNAMENT = _INSERT.format(kind=", tournament", mark=", 1")


async def record_hand(
    db: Database,
    hand_id: int,
    table_id: int,
    variant: str,
    rows: Sequence[PlayerHandRow],
    at: float | None = None,
    *,
    tournament: bool = False,
) -> None:
    """Write the hand's rows: one statement, joining the caller's transaction (run with its
    COMMIT where the backend can: no round trip of its own). They are
    pending: the rollups take them at the next :func:`fold_pending` (a batch writes each
    rollup page once; settlement pays only for appending the rows). ``tournament``: a
    tournament hand's rows, counted apart from cash hands."""
    check_id(hand_id, "hand id")
    check_id(table_id, "table id")
    when = db.now() if at is None else at
    keys = PeriodKeys.at(when)
    tail = (when, keys.day, keys.week, keys.month, table_id)
    params = [(hand_id, r[0], variant, *r[1:], *tail) for r in rows]
    async with db.reading() as conn:
        insert = _INSERT_TOURNAMENT if tournament else _INSERT_CASH
        await conn.executemany_at_commit(insert, params)  # SQLite: in the COMMIT's hop


async def fold_pending(db: Database) -> int:
    """Add the pending rows to the rollups (own transaction, or the caller's); how many."""
    async with db.transaction() as conn:
        return await fold(conn)


# --- /stud stats ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class VariantTotals:
    """A player's counts in one variant over a period."""

    variant: str
    hands: int
    net: int
    won_hands: int
    entered_third: int
    raised_third: int
    saw_seventh: int
    showdowns: int
    won_showdowns: int
    biggest_win: int
    best_rank: int | None
    best_cards: str | None


_TOTALS = (
    "SELECT variant, SUM(hands), SUM(net), SUM(won_hands), SUM(entered_third),"
    " SUM(raised_third), SUM(saw_seventh), SUM(showdowns), SUM(won_showdowns),"
    " MAX(biggest_win) FROM player_days WHERE guild_id = ? AND user_id = ? AND day >= ?"
    " AND tournament = ?"
)
_BEST = (
    "SELECT variant, best_rank, best_cards FROM player_days"
    " WHERE guild_id = ? AND user_id = ? AND day >= ? AND tournament = ?"
    " AND best_rank IS NOT NULL"
)
_EARLIEST = -(2**31)


async def player_totals(
    db: Database,
    guild_id: int,
    user_id: int,
    *,
    since_day: int | None,
    variant: str | None,
    tournament: bool = False,
) -> list[VariantTotals]:
    """The player's totals per variant from ``since_day`` (None: all time), of his cash
    hands or (``tournament``) of his tournament hands."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    since = _EARLIEST if since_day is None else since_day
    params: tuple[object, ...] = (guild_id, user_id, since, int(tournament))
    where = ""
    if variant is not None:
        where, params = " AND variant = ?", (*params, variant)
    async with db.transaction() as conn:  # the pending rows first: exact numbers
        await fold(conn)
        sums = await fetch_all(conn, _TOTALS + where + " GROUP BY variant", params)
        bests = await fetch_all(conn, _BEST + where, params)
    best: dict[str, tuple[int, str]] = {}
    for name, rank, text in bests:
        if name not in best or rank > best[name][0]:
            best[name] = (int(rank), str(text))
    totals: list[VariantTotals] = []
    for row in sums:
        name = str(row[0])
        rank, text = best.get(name, (None, None))
        hands, net, won, entered, raised, seventh, shown, won_shown, biggest = (
            int(value) for value in row[1:]
        )
        totals.append(
            VariantTotals(
                name, hands, net, won, entered, raised, seventh, shown, won_shown, biggest,
                rank, text,
            )
        )  # fmt: skip
    return totals


# --- the winnings leaderboard -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WinningsEntry:
    rank: int
    user_id: int
    net: int
    hands: int


@dataclass(frozen=True, slots=True)
class WinningsPage:
    guild_id: int
    period: Period
    page: int  # 1-based
    pages: int
    total_players: int
    entries: tuple[WinningsEntry, ...]
    start: int = 0  # the first entry's 0-based place (a seek page need not start at a ten)

    @property
    def at_end(self) -> bool:
        return self.start + len(self.entries) >= self.total_players


def _board(period: Period) -> BoardSql:
    """One period's board: its rows are those whose key column holds the period (all time:
    every row); each query walks that period's index only."""
    prefix = "all" if period is Period.ALL else period.value
    where = "guild_id = ?" if period is Period.ALL else f"guild_id = ? AND {period.value} = ?"
    return BoardSql("winnings", where, f"{prefix}_net")


_BOARDS = {period: _board(period) for period in Period}


def _board_key(guild_id: int, period: Period, at: float) -> tuple[int, ...]:
    if period is Period.ALL:
        return (guild_id,)
    return (guild_id, PeriodKeys.at(at).start(period))


async def winnings_page(
    db: Database,
    guild_id: int,
    period: Period,
    page: int,
    *,
    at: float | None = None,
    after: Seek | None = None,
    before: Seek | None = None,
) -> WinningsPage:
    """One page of players ranked by net chips won at the tables in ``period`` (competition
    ranks: equal nets share one): the page after ``after`` or before ``before`` (a (net,
    user id) seek: no OFFSET walk), else page number ``page`` (pages past the end show the
    last page)."""
    check_id(guild_id, "guild id")
    board = _BOARDS[period]
    key = _board_key(guild_id, period, db.now() if at is None else at)
    async with db.transaction() as conn:  # the pending rows first: exact numbers
        await fold(conn)
        row = await fetch_one(conn, f"SELECT COUNT(*) FROM winnings WHERE {board.where}", key)
        total = int(row[0]) if row is not None else 0
        pages = max(1, math.ceil(total / PAGE_SIZE))
        number = max(1, min(int(page), pages))
        found = await page_rows(
            conn, board, key, size=PAGE_SIZE, start=(number - 1) * PAGE_SIZE,
            after=after, before=before,
        )  # fmt: skip
        hands: dict[int, int] = {}
        if found.rows:
            marks = ", ".join("?" for _ in found.rows)
            hands = {
                int(user): int(count)
                for user, count in await fetch_all(
                    conn,
                    f"SELECT user_id, {board.score[:-3]}hands FROM winnings"
                    f" WHERE guild_id = ? AND user_id IN ({marks})",
                    (guild_id, *(r.user_id for r in found.rows)),
                )
            }
        entries = [
            WinningsEntry(rank, r.user_id, r.score, hands[r.user_id])
            for r, rank in zip(found.rows, found.ranks, strict=True)
        ]
    number = min(found.start // PAGE_SIZE + 1, pages)
    return WinningsPage(guild_id, period, number, pages, total, tuple(entries), found.start)


async def _rank(conn: Connection, board: BoardSql, key: tuple[int, ...], net: int) -> int:
    ahead = await fetch_one(
        conn, f"SELECT COUNT(*) FROM winnings WHERE {board.where} AND {board.score} > ?",
        (*key, net),
    )  # fmt: skip
    return 1 + (int(ahead[0]) if ahead is not None else 0)


async def winnings_rank(
    db: Database, guild_id: int, user_id: int, period: Period, *, at: float | None = None
) -> WinningsEntry | None:
    """The player's place in ``period`` (None: no hand played in it)."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    board = _BOARDS[period]
    key = _board_key(guild_id, period, db.now() if at is None else at)
    async with db.transaction() as conn:  # the pending rows first: exact numbers
        await fold(conn)
        row = await fetch_one(
            conn,
            f"SELECT {board.score}, {board.score[:-3]}hands FROM winnings"
            f" WHERE {board.where} AND user_id = ?",
            (*key, user_id),
        )
        if row is None:
            return None
        rank = await _rank(conn, board, key, row[0])
    return WinningsEntry(rank, user_id, int(row[0]), int(row[1]))


# --- the backfill: finished hands without rows -------------------------------------------


async def hands_without_rows(db: Database, after_id: int, limit: int) -> list[HandRecord]:
    """Finished, unpruned hands (decks revealed) with no ``hand_players`` row, by id from
    ``after_id``: the ones the backfill can replay."""
    async with db.reading() as conn:
        ids = await fetch_all(
            conn,
            "SELECT id FROM hands h WHERE h.status = 'finished' AND h.pruned_at IS NULL"
            " AND h.id > ?"
            " AND NOT EXISTS (SELECT 1 FROM hand_players p WHERE p.hand_id = h.id)"
            " ORDER BY h.id LIMIT ?",
            (after_id, limit),
        )
        return [await hand_in(conn, int(row[0])) for row in ids]

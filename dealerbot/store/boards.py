"""Keyset paging for the boards (chips and winnings): a page seeks from a row, not an OFFSET.

Both boards are rows ordered by ``score DESC, user_id`` inside a key (guild, period), with
an index in that order. Skipping N rows with OFFSET walks N index entries; seeking from the
(score, user_id) of the row before (or after) the wanted page reads only the page, and the
page's place is two counts over the index (the rows scoring more, then the equal scores
with a smaller id). A page number alone (page 1, or a button made before the seek keys)
still walks the OFFSET.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .db import Connection, fetch_all, fetch_one

_BOTTOM = -(2**62)  # below any score: seeking before it reads the board's last rows


class Seek(NamedTuple):
    """A board row's place: a page starts after it (next) or ends before it (previous)."""

    score: int
    user_id: int


@dataclass(frozen=True, slots=True)
class BoardSql:
    """One board: rows of ``source`` where ``where`` (its key's placeholders first),
    ordered by ``score`` DESC then user id, with an index in that order. Queries read
    (user_id, score) only, so the index covers them: the caller fetches other columns for
    the page's ten rows."""

    source: str
    where: str
    score: str

    def select(self, extra: str, order: str) -> str:
        return (
            f"SELECT user_id, {self.score} FROM {self.source} WHERE {self.where}{extra}"
            f" ORDER BY {order} LIMIT ?"
        )


@dataclass(frozen=True, slots=True)
class Slice:
    """A page's rows, the 0-based place of its first row, and that row's rank."""

    rows: list[Seek]
    start: int
    first_rank: int

    @property
    def ranks(self) -> list[int]:
        return ranks(self.rows, self.start, self.first_rank)


async def _fetch(conn: Connection, sql: str, params: tuple[int, ...]) -> list[Seek]:
    return [Seek(int(r[1]), int(r[0])) for r in await fetch_all(conn, sql, params)]


async def _after(
    conn: Connection, board: BoardSql, key: tuple[int, ...], seek: Seek, n: int
) -> list[Seek]:
    s = board.score
    rows = await _fetch(
        conn,
        board.select(f" AND {s} = ? AND user_id > ?", "user_id"),
        (*key, seek.score, seek.user_id, n),
    )
    if len(rows) < n:
        rows += await _fetch(
            conn,
            board.select(f" AND {s} < ?", f"{s} DESC, user_id"),
            (*key, seek.score, n - len(rows)),
        )
    return rows


async def _before(
    conn: Connection, board: BoardSql, key: tuple[int, ...], seek: Seek, n: int
) -> list[Seek]:
    s = board.score
    rows = await _fetch(
        conn,
        board.select(f" AND {s} = ? AND user_id < ?", "user_id DESC"),
        (*key, seek.score, seek.user_id, n),
    )
    if len(rows) < n:
        rows += await _fetch(
            conn,
            board.select(f" AND {s} > ?", f"{s}, user_id DESC"),
            (*key, seek.score, n - len(rows)),
        )
    rows.reverse()
    return rows


async def _ahead(
    conn: Connection, board: BoardSql, key: tuple[int, ...], seek: Seek
) -> tuple[int, int]:
    """The rows scoring more than this one, and those scoring the same with a smaller id
    (both counts walk the covering index, never the rows)."""
    s, where = board.score, board.where
    row = await fetch_one(
        conn,
        f"SELECT (SELECT COUNT(*) FROM {board.source} WHERE {where} AND {s} > ?),"
        f" (SELECT COUNT(*) FROM {board.source} WHERE {where} AND {s} = ? AND user_id < ?)",
        (*key, seek.score, *key, seek.score, seek.user_id),
    )
    return (int(row[0]), int(row[1])) if row is not None else (0, 0)


async def page_rows(
    conn: Connection,
    board: BoardSql,
    key: tuple[int, ...],
    *,
    size: int,
    start: int,
    after: Seek | None = None,
    before: Seek | None = None,
) -> Slice:
    """A page of (user id, score): the ``size`` rows after ``after`` or before ``before``
    (a page that would be short at the top is the top page; none left after the seek: the
    last rows), or else the rows from place ``start`` (an OFFSET walk of the index)."""
    rows: list[Seek] = []
    if after is not None:
        rows = await _after(conn, board, key, after, size)
        if not rows:  # nothing left after it (the board changed): its last rows
            rows = await _before(conn, board, key, Seek(_BOTTOM, 0), size)
    elif before is not None:
        rows = await _before(conn, board, key, before, size)
        if len(rows) < size:  # fewer than a page above it: the top page
            rows, start = [], 0
    if not rows:
        found = await fetch_all(
            conn,
            board.select("", f"{board.score} DESC, user_id") + " OFFSET ?",
            (*key, size, start),
        )
        rows = [Seek(int(r[1]), int(r[0])) for r in found]
        if not rows:
            return Slice([], start, 1)
        greater, _ = await _ahead(conn, board, key, rows[0])
        return Slice(rows, start, 1 + greater)
    greater, tied = await _ahead(conn, board, key, rows[0])
    return Slice(rows, greater + tied, 1 + greater)


def ranks(rows: list[Seek], start: int, first_rank: int) -> list[int]:
    """Competition ranks of a page's rows (equal scores share one) from its first row's."""
    out: list[int] = []
    for i, row in enumerate(rows):
        if i == 0:
            out.append(first_rank)
        elif row.score == rows[i - 1].score:
            out.append(out[-1])
        else:
            out.append(start + i + 1)
    return out

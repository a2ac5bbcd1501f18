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

from .db import Connection, Row, fetch_all, fetch_one

_BOTTOM = -(2**62)  # below any score: seeking before it reads the board's last rows


class Seek(NamedTuple):
    """A board row's place: a page starts after it (next) or ends before it (previous)."""

    score: int
    user_id: int


@dataclass(frozen=True, slots=True)
class BoardSql:
    """One board: ``rows`` select (user_id, score, ...) from ``source`` where ``where`` (its
    key's placeholders first), ordered by ``score`` DESC then user id."""

    source: str
    where: str
    score: str
    columns: str

    def select(self, extra: str, order: str) -> str:
        return (
            f"SELECT {self.columns} FROM {self.source} WHERE {self.where}{extra}"
            f" ORDER BY {order} LIMIT ?"
        )


@dataclass(frozen=True, slots=True)
class Slice:
    """The rows of a page and the 0-based place of its first row on the board."""

    rows: list[Row]
    start: int


async def _after(
    conn: Connection, board: BoardSql, key: tuple[int, ...], seek: Seek, n: int
) -> list[Row]:
    s = board.score
    rows = list(
        await fetch_all(
            conn,
            board.select(f" AND {s} = ? AND user_id > ?", "user_id"),
            (*key, seek.score, seek.user_id, n),
        )
    )
    if len(rows) < n:
        rows += await fetch_all(
            conn,
            board.select(f" AND {s} < ?", f"{s} DESC, user_id"),
            (*key, seek.score, n - len(rows)),
        )
    return rows


async def _before(
    conn: Connection, board: BoardSql, key: tuple[int, ...], seek: Seek, n: int
) -> list[Row]:
    s = board.score
    rows = list(
        await fetch_all(
            conn,
            board.select(f" AND {s} = ? AND user_id < ?", "user_id DESC"),
            (*key, seek.score, seek.user_id, n),
        )
    )
    if len(rows) < n:
        rows += await fetch_all(
            conn,
            board.select(f" AND {s} > ?", f"{s}, user_id DESC"),
            (*key, seek.score, n - len(rows)),
        )
    rows.reverse()
    return rows


async def position(conn: Connection, board: BoardSql, key: tuple[int, ...], seek: Seek) -> int:
    """How many rows come before this one on the board (both counts walk the index)."""
    s, where = board.score, board.where
    row = await fetch_one(
        conn,
        f"SELECT (SELECT COUNT(*) FROM {board.source} WHERE {where} AND {s} > ?)"
        f" + (SELECT COUNT(*) FROM {board.source} WHERE {where} AND {s} = ? AND user_id < ?)",
        (*key, seek.score, *key, seek.score, seek.user_id),
    )
    return int(row[0]) if row is not None else 0


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
    """A page: the ``size`` rows after ``after`` or before ``before`` (a page that would be
    short at the top is the top page; none left after the seek: the last rows), or else
    the rows from place ``start`` (an OFFSET walk)."""
    rows: list[Row] = []
    if after is not None:
        rows = await _after(conn, board, key, after, size)
        if not rows:  # nothing left after it (the board changed): its last rows
            rows = await _before(conn, board, key, Seek(_BOTTOM, 0), size)
    elif before is not None:
        rows = await _before(conn, board, key, before, size)
        if len(rows) < size:  # fewer than a page above it: the top page
            rows, start = [], 0
    if not rows:
        rows = list(
            await fetch_all(
                conn,
                board.select("", f"{board.score} DESC, user_id") + " OFFSET ?",
                (*key, size, start),
            )
        )
        return Slice(rows, start)
    return Slice(rows, await position(conn, board, key, Seek(int(rows[0][1]), int(rows[0][0]))))

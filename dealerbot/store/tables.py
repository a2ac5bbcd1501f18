"""Tables: one row per channel (status, button, hand counter, the front end's message id).

Seats, buy-ins, cash-outs and closing (which cashes everyone out) are in :mod:`.seats`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum

from .config import ensure_guild
from .db import Connection, Database, Row, fetch_all, fetch_one
from .errors import (
    StoreError,
    UnknownTable,
)
from .validate import check_id


class TableStatus(Enum):
    OPEN = "open"  # players may sit down; hands run
    CLOSING = "closing"  # no new players; the service finishes the current hand
    CLOSED = "closed"  # nobody seated; reopened by open_table


@dataclass(frozen=True, slots=True)
class TableRow:
    """One table's row (the run-time table is :class:`dealerbot.tables.table.Table`)."""

    id: int
    guild_id: int
    channel_id: int
    status: TableStatus
    button_seat: int | None
    hand_count: int
    message_id: int | None
    created_at: float


def _table(row: Row) -> TableRow:
    return TableRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=TableStatus(row["status"]),
        button_seat=row["button_seat"],
        hand_count=row["hand_count"],
        message_id=row["message_id"],
        created_at=row["created_at"],
    )


async def table_in(conn: Connection, table_id: int, *, lock: bool = False) -> TableRow:
    """The table's row; ``lock=True`` (in a transaction) holds it until the transaction ends.

    Every transaction that reads a table's rows and then writes from what it read locks
    the table first: on PostgreSQL that serialises one table's work (SQLite serialises all
    writers anyway).
    """
    suffix = conn.lock_suffix if lock else ""
    row = await fetch_one(conn, f"SELECT * FROM tables WHERE id = ?{suffix}", (table_id,))
    if row is None:
        raise UnknownTable(f"there is no table #{table_id}")
    return _table(row)


async def live_hand_players(conn: Connection, table_id: int) -> set[int] | None:
    """User ids dealt into the table's hand in progress, or None if no hand is running."""
    row = await fetch_one(
        conn,
        "SELECT seats_json FROM hands WHERE table_id = ? AND status = 'in_progress'",
        (table_id,),
    )
    if row is None:
        return None
    return {int(s["user_id"]) for s in json.loads(row[0])}


async def open_table(db: Database, guild_id: int, channel_id: int) -> TableRow:
    """The channel's table, created (or reopened if closed). Idempotent."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.transaction() as conn:
        now = db.now()
        await ensure_guild(conn, guild_id, now)
        await conn.execute(
            "INSERT INTO tables (guild_id, channel_id, created_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, channel_id) DO UPDATE SET status = 'open'"
            " WHERE tables.status = 'closed'",
            (guild_id, channel_id, now),
        )
        row = await fetch_one(
            conn,
            "SELECT * FROM tables WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
    assert row is not None
    return _table(row)


async def get_table(db: Database, table_id: int) -> TableRow:
    check_id(table_id, "table id")
    async with db.reading() as conn:
        return await table_in(conn, table_id)


async def find_table(db: Database, guild_id: int, channel_id: int) -> TableRow | None:
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT * FROM tables WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
    return None if row is None else _table(row)


async def list_tables(
    db: Database,
    *,
    guild_id: int | None = None,
    statuses: tuple[TableStatus, ...] | None = None,
) -> list[TableRow]:
    sql = "SELECT * FROM tables WHERE 1 = 1"
    params: list[object] = []
    if guild_id is not None:
        sql += " AND guild_id = ?"
        params.append(check_id(guild_id, "guild id"))
    if statuses:
        sql += f" AND status IN ({', '.join('?' for _ in statuses)})"
        params.extend(s.value for s in statuses)
    async with db.reading() as conn:
        rows = await fetch_all(conn, sql + " ORDER BY id", tuple(params))
    return [_table(r) for r in rows]


async def set_table_status(db: Database, table_id: int, status: TableStatus) -> TableRow:
    """Mark a table open or closing. Closing for good is :func:`close_table` (it cashes out)."""
    check_id(table_id, "table id")
    if not isinstance(status, TableStatus):
        raise StoreError("the status must be a TableStatus")
    async with db.transaction() as conn:
        await table_in(conn, table_id, lock=True)
        seated = await fetch_one(
            conn, "SELECT 1 FROM seats WHERE table_id = ? LIMIT 1", (table_id,)
        )
        if status is TableStatus.CLOSED and seated is not None:
            raise StoreError("use close_table to close a table with players seated")
        await conn.execute("UPDATE tables SET status = ? WHERE id = ?", (status.value, table_id))
        return await table_in(conn, table_id)


async def set_table_message(db: Database, table_id: int, message_id: int | None) -> TableRow:
    """Remember (or forget) the channel message the bot edits to show the table."""
    check_id(table_id, "table id")
    if message_id is not None:
        check_id(message_id, "message id")
    async with db.transaction() as conn:
        await table_in(conn, table_id)
        await conn.execute("UPDATE tables SET message_id = ? WHERE id = ?", (message_id, table_id))
        return await table_in(conn, table_id)

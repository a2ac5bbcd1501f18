"""Queued top-ups (migration 0010): chips a player asked to add during a hand.

A row is a promise, not money: the chips stay in the wallet until
:func:`dealerbot.store.seats.add_chips` moves them (``queued=True`` deletes the row in
that same transaction, so a crash never applies one twice). A row is for its seat: the
cash-out that frees the seat (:func:`dealerbot.store.seats.cash_out_in`: standing up,
closing the table) deletes it in its own transaction, so no crash leaves one to land on
the next seat the player takes (the audit reports a row without a seat).
"""

from __future__ import annotations

from .db import Database, execute, fetch_all
from .validate import check_amount, check_id


async def queued_top_ups(db: Database, table_id: int) -> dict[int, int]:
    """The table's queued top-ups: user id -> chips."""
    async with db.reading() as conn:
        rows = await fetch_all(
            conn,
            "SELECT user_id, amount FROM queued_topups WHERE table_id = ? ORDER BY queued_at",
            (check_id(table_id, "table id"),),
        )
    return {int(row[0]): int(row[1]) for row in rows}


async def set_queued_top_up(db: Database, table_id: int, user_id: int, amount: int) -> None:
    """Queue ``amount`` (his whole queued total) for ``user_id`` at the table."""
    params = (check_id(table_id, "table id"), check_id(user_id, "user id"), check_amount(amount))
    async with db.transaction() as conn:
        await execute(
            conn,
            "INSERT INTO queued_topups (table_id, user_id, amount, queued_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (table_id, user_id) DO UPDATE SET amount = excluded.amount",
            (*params, db.now()),
        )


async def drop_queued_top_ups(db: Database, table_id: int) -> None:
    """Forget every top-up queued at the table (applied, no longer fitting, or closed)."""
    async with db.transaction() as conn:
        await execute(
            conn,
            "DELETE FROM queued_topups WHERE table_id = ?",
            (check_id(table_id, "table id"),),
        )


async def drop_queued_top_up(db: Database, table_id: int, user_id: int) -> None:
    """Forget one player's queued top-up (he left the table: it was for that seat only)."""
    params = (check_id(table_id, "table id"), check_id(user_id, "user id"))
    async with db.transaction() as conn:
        await execute(conn, "DELETE FROM queued_topups WHERE table_id = ? AND user_id = ?", params)

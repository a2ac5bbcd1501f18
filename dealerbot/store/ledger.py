"""The append-only ledger: one row per chip movement, written in the movement's transaction.

Two accounts per player: the wallet, and each table's seat stack. The sum of a player's
wallet rows is the wallet; the sum of their rows for a table is their seat stack there.
Triggers in the schema refuse UPDATE and DELETE on the ledger.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .db import Connection, Database, Row, fetch_all
from .validate import check_id


class Reason(Enum):
    """Why chips moved; stored as the lower-case text (the schema CHECKs the set)."""

    GRANT = "grant"  # starting balance of a new wallet
    DAILY = "daily"  # daily bonus
    BUY_IN = "buy_in"  # wallet -> table
    CASH_OUT = "cash_out"  # table -> wallet
    HAND_RESULT = "hand_result"  # between seat stacks at one table; sums to 0 per hand
    ADMIN = "admin"  # an administrator gave or took chips
    REFUND = "refund"  # chips returned (or a zero-delta note that a cancelled hand returned them)


# Chips that enter or leave the guild's economy; every other reason only moves chips inside it.
EXTERNAL_REASONS = frozenset({Reason.GRANT, Reason.DAILY, Reason.ADMIN})
INTERNAL_REASONS = frozenset(Reason) - EXTERNAL_REASONS


class Account(Enum):
    WALLET = "wallet"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    guild_id: int
    user_id: int
    account: Account
    table_id: int | None
    delta: int
    reason: Reason
    hand_id: int | None
    created_at: float
    note: str


async def record(
    conn: Connection,
    *,
    guild_id: int,
    user_id: int,
    account: Account,
    delta: int,
    reason: Reason,
    at: float,
    table_id: int | None = None,
    hand_id: int | None = None,
    note: str = "",
) -> None:
    """Append one row; call inside the transaction that moves the chips."""
    await conn.execute(
        "INSERT INTO ledger (guild_id, user_id, account, table_id, delta, reason, hand_id,"
        " created_at, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (guild_id, user_id, account.value, table_id, delta, reason.value, hand_id, at, note),
    )


def _entry(row: Row) -> LedgerEntry:
    return LedgerEntry(
        id=row["id"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        account=Account(row["account"]),
        table_id=row["table_id"],
        delta=row["delta"],
        reason=Reason(row["reason"]),
        hand_id=row["hand_id"],
        created_at=row["created_at"],
        note=row["note"],
    )


async def entries(
    db: Database, guild_id: int, user_id: int | None = None, *, limit: int = 50
) -> list[LedgerEntry]:
    """A guild's (or one player's) most recent movements, newest first."""
    check_id(guild_id, "guild id")
    limit = max(1, min(int(limit), 10_000))
    async with db.reading() as conn:
        if user_id is None:
            rows = await fetch_all(
                conn,
                "SELECT * FROM ledger WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, limit),
            )
        else:
            check_id(user_id, "user id")
            rows = await fetch_all(
                conn,
                "SELECT * FROM ledger WHERE guild_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
                (guild_id, user_id, limit),
            )
    return [_entry(r) for r in rows]


async def entries_for_hand(db: Database, hand_id: int) -> list[LedgerEntry]:
    check_id(hand_id, "hand id")
    async with db.reading() as conn:
        rows = await fetch_all(
            conn, "SELECT * FROM ledger WHERE hand_id = ? ORDER BY id", (hand_id,)
        )
    return [_entry(r) for r in rows]

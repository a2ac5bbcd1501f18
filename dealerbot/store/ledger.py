"""The append-only ledger: one row per chip movement, written in the movement's transaction.

Two accounts per player: the wallet, and each table's seat stack. The sum of a player's
wallet rows is the wallet; the sum of their rows for a table is their seat stack there.
A tournament's prize pool is a third account (migration 0013): its rows carry the
tournament's id, and add up to the pool (``tournaments.pool``); each names the player whose
buy-in, refund or prize it moved, whose wallet row (with the same tournament id) is written
in the same transaction. Tournament chips (the stacks a tournament deals with) are not
chips of the ledger: they never reach a wallet except as a prize from the pool.
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
    PRIZE = "prize"  # a tournament's pool -> a wallet, for a place


# Chips that enter or leave the guild's economy; every other reason only moves chips inside it.
EXTERNAL_REASONS = frozenset({Reason.GRANT, Reason.DAILY, Reason.ADMIN})
INTERNAL_REASONS = frozenset(Reason) - EXTERNAL_REASONS


class Account(Enum):
    WALLET = "wallet"
    TABLE = "table"
    POOL = "pool"  # a tournament's prize pool


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
    tournament_id: int | None = None


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
    tournament_id: int | None = None,
) -> None:
    """Append one row; call inside the transaction that moves the chips."""
    values = (guild_id, user_id, account.value, table_id, delta, reason.value, hand_id, at, note)
    if tournament_id is None:  # the row as before migration 0013
        await conn.execute(_INSERT, values)
    else:
        await conn.execute(_INSERT_TOURNAMENT, (*values, tournament_id))


_INSERT = (
    "INSERT INTO ledger (guild_id, user_id, account, table_id, delta, reason, hand_id,"
    " created_at, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_TOURNAMENT = (
    "INSERT INTO ledger (guild_id, user_id, account, table_id, delta, reason, hand_id,"
    " created_at, note, tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
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
        tournament_id=row["tournament_id"],
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

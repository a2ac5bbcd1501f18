"""Seats: buy-ins, top-ups, cash-outs and closing a table; chips move atomically.

A seat stack is chips like any other: buying in is a wallet row -X and a table row +X in the
transaction that creates the seat. Stacks change otherwise only when a hand settles
(:func:`dealerbot.store.hands.settle_hand`), so chips committed to a hand in progress stay in
the stacks until its result is written.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .db import Connection, Database, Row, execute, fetch_all, fetch_one
from .errors import (
    AlreadySeated,
    HandInProgress,
    InvalidSeat,
    NotSeated,
    SeatTaken,
    StoreError,
    TableNotOpen,
)
from .ledger import Account, Reason, record
from .tables import TableRow, TableStatus, live_hand_players, table_in
from .validate import HOUSE_BANK_ID, check_amount, check_id, check_player_id, is_house_player_id
from .wallets import Wallet, ensure_wallet, move_wallet_chips, wallet_in

MAX_DISPLAY_NAME = 100


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One row of ``seats``: a player at a table, his stack and his flags."""

    table_id: int
    seat_no: int  # 0..7
    guild_id: int
    user_id: int
    display_name: str
    stack: int
    sitting_out: bool
    consecutive_timeouts: int
    time_bank_seconds: float
    leave_after_hand: bool
    joined_at: float


@dataclass(frozen=True, slots=True)
class CashOut:
    table_id: int
    user_id: int
    seat_no: int
    amount: int
    wallet: Wallet


def _seat(row: Row) -> SeatRow:
    return SeatRow(
        table_id=row["table_id"],
        seat_no=row["seat_no"],
        guild_id=row["guild_id"],
        user_id=row["user_id"],
        display_name=row["display_name"],
        stack=row["stack"],
        sitting_out=bool(row["sitting_out"]),
        consecutive_timeouts=row["consecutive_timeouts"],
        time_bank_seconds=row["time_bank_seconds"],
        leave_after_hand=bool(row["leave_after_hand"]),
        joined_at=row["joined_at"],
    )


def display_name_of(name: object) -> str:
    """A display name as every row keeps it: stripped, cut at MAX_DISPLAY_NAME, non-empty."""
    if not isinstance(name, str) or not name.strip():
        raise StoreError("a display name must be non-empty text")
    return name.strip()[:MAX_DISPLAY_NAME]


def check_seat_no(seat_no: object) -> None:
    """A seat number the seats table can hold (0-7), or InvalidSeat."""
    if not isinstance(seat_no, int) or isinstance(seat_no, bool) or not 0 <= seat_no <= 7:
        raise InvalidSeat(seat_no)


async def free_seat_in(
    conn: Connection, table_id: int, user_id: int, seat_no: int, *, who: str
) -> TableRow:
    """The open table, locked, where ``user_id`` has no seat and ``seat_no`` is free: what
    every sit-down (a member's, a house player's) checks inside its transaction."""
    table = await table_in(conn, table_id, lock=True)
    if table.status is not TableStatus.OPEN:
        raise TableNotOpen("this table is closing; nobody can sit down")
    seats = await seats_in(conn, table_id)
    if any(s.user_id == user_id for s in seats):
        raise AlreadySeated(f"{who} a seat at this table")
    if any(s.seat_no == seat_no for s in seats):
        raise SeatTaken(seat_no)
    return table


async def seats_in(conn: Connection, table_id: int) -> list[SeatRow]:
    rows = await fetch_all(
        conn, "SELECT * FROM seats WHERE table_id = ? ORDER BY seat_no", (table_id,)
    )
    return [_seat(r) for r in rows]


async def seat_in(conn: Connection, table_id: int, user_id: int) -> SeatRow:
    row = await fetch_one(
        conn, "SELECT * FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
    )
    if row is None:
        raise NotSeated("you are not seated at this table")
    return _seat(row)


async def cash_out_in(conn: Connection, seat: SeatRow, now: float) -> CashOut:
    """Move the whole stack back to the wallet and free the seat (inside a transaction).

    The seat's queued top-up (store/topups.py) goes with it, in this transaction: it was for
    this seat, and a row left behind by a crash between two steps would land on the next
    seat its player takes. Only the row: its chips never left the wallet (no ledger row).
    A house player's stack goes to the house bankroll (``CashOut.wallet`` is then its)."""
    if seat.stack:
        await record(
            conn,
            guild_id=seat.guild_id,
            user_id=seat.user_id,
            account=Account.TABLE,
            table_id=seat.table_id,
            delta=-seat.stack,
            reason=Reason.CASH_OUT,
            at=now,
        )
    for table in ("seats", "queued_topups"):
        await execute(
            conn,
            f"DELETE FROM {table} WHERE table_id = ? AND user_id = ?",
            (seat.table_id, seat.user_id),
        )
    # A house player's chips go back to the house bankroll, whose chips they were.
    owner = HOUSE_BANK_ID if is_house_player_id(seat.user_id) else seat.user_id
    if seat.stack:
        await move_wallet_chips(
            conn,
            seat.guild_id,
            owner,
            seat.stack,
            Reason.CASH_OUT,
            at=now,
            note=f"left table {seat.table_id}",
        )
    wallet = await wallet_in(conn, seat.guild_id, owner)
    assert wallet is not None
    return CashOut(seat.table_id, seat.user_id, seat.seat_no, seat.stack, wallet)


async def get_seats(db: Database, table_id: int) -> list[SeatRow]:
    check_id(table_id, "table id")
    async with db.reading() as conn:
        await table_in(conn, table_id)
        return await seats_in(conn, table_id)


async def get_seat(db: Database, table_id: int, user_id: int) -> SeatRow:
    check_id(table_id, "table id")
    check_player_id(user_id)
    async with db.reading() as conn:
        return await seat_in(conn, table_id, user_id)


async def sit_down(
    db: Database,
    table_id: int,
    user_id: int,
    display_name: str,
    buy_in: int,
    *,
    seat_no: int,
    time_bank_seconds: float,
) -> SeatRow:
    """Take seat ``seat_no`` with ``buy_in`` chips from the wallet, all in one transaction.

    The house rules (the buy-in range, how many seats, which seat) are the table service's;
    this refuses what the rows say: a table not open, a second seat, a taken seat, a wallet
    short of chips.
    """
    check_id(table_id, "table id")
    check_id(user_id, "user id")
    name = display_name_of(display_name)
    check_amount(buy_in, "buy-in")
    check_seat_no(seat_no)
    async with db.transaction() as conn:
        now = db.now()
        table = await free_seat_in(conn, table_id, user_id, seat_no, who="you already have")
        await ensure_wallet(conn, table.guild_id, user_id, now)
        await _wallet_to_table(
            conn, table, user_id, buy_in, now, note=f"sat down at table {table_id}"
        )
        await conn.execute(
            "INSERT INTO seats (table_id, seat_no, guild_id, user_id, display_name, stack,"
            " time_bank_seconds, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat_no, table.guild_id, user_id, name, buy_in, time_bank_seconds, now),
        )
        return await seat_in(conn, table_id, user_id)


async def _wallet_to_table(
    conn: Connection, table: TableRow, user_id: int, amount: int, now: float, *, note: str
) -> None:
    """A buy-in's two ledger rows: wallet -amount (checked, one statement) and table +amount.

    The caller changes the seat's stack in the same transaction.
    """
    await move_wallet_chips(
        conn, table.guild_id, user_id, -amount, Reason.BUY_IN, at=now, note=note
    )
    await record(
        conn,
        guild_id=table.guild_id,
        user_id=user_id,
        account=Account.TABLE,
        table_id=table.id,
        delta=amount,
        reason=Reason.BUY_IN,
        at=now,
    )


async def add_chips(
    db: Database, table_id: int, user_id: int, amount: int, *, queued: bool = False
) -> SeatRow:
    """Top up a stack from the wallet, between hands only (the service caps the stack);
    ``queued``: a queued top-up (store/topups.py), whose row goes in the same transaction."""
    check_id(table_id, "table id")
    check_id(user_id, "user id")
    check_amount(amount)
    async with db.transaction() as conn:
        now = db.now()
        table = await table_in(conn, table_id, lock=True)
        if table.status is not TableStatus.OPEN:
            raise TableNotOpen("this table is closing; chips cannot be added")
        await seat_in(conn, table_id, user_id)  # NotSeated if he has no seat
        if await live_hand_players(conn, table_id) is not None:
            raise HandInProgress("chips can only be added between hands")
        await _wallet_to_table(
            conn, table, user_id, amount, now, note=f"added chips at table {table_id}"
        )
        await conn.execute(
            "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND user_id = ?",
            (amount, table_id, user_id),
        )
        if queued:
            await conn.execute(
                "DELETE FROM queued_topups WHERE table_id = ? AND user_id = ?", (table_id, user_id)
            )
        return await seat_in(conn, table_id, user_id)


async def stand_up(db: Database, table_id: int, user_id: int) -> CashOut:
    """Leave the table: the whole stack goes back to the wallet.

    Refused while the player is dealt into the hand in progress; the service marks
    ``leave_after_hand`` and calls this after the hand settles.
    """
    check_id(table_id, "table id")
    check_player_id(user_id)
    async with db.transaction() as conn:
        await table_in(conn, table_id, lock=True)
        seat = await seat_in(conn, table_id, user_id)
        players = await live_hand_players(conn, table_id)
        if players is not None and user_id in players:
            raise HandInProgress("you are in the current hand; you will leave when it ends")
        return await cash_out_in(conn, seat, db.now())


async def update_seat(
    db: Database,
    table_id: int,
    user_id: int,
    *,
    sitting_out: bool | None = None,
    consecutive_timeouts: int | None = None,
    time_bank_seconds: float | None = None,
    leave_after_hand: bool | None = None,
    display_name: str | None = None,
) -> SeatRow:
    """Change a seat's flags and counters (never its stack)."""
    check_id(table_id, "table id")
    check_player_id(user_id)
    changes: dict[str, object] = {}
    for flag, value in (("sitting_out", sitting_out), ("leave_after_hand", leave_after_hand)):
        if value is not None:
            if not isinstance(value, bool):
                raise StoreError(f"{flag} must be True or False")
            changes[flag] = int(value)
    if consecutive_timeouts is not None:
        if (
            not isinstance(consecutive_timeouts, int)
            or isinstance(consecutive_timeouts, bool)
            or consecutive_timeouts < 0
        ):
            raise StoreError("consecutive_timeouts must be a whole number >= 0")
        changes["consecutive_timeouts"] = consecutive_timeouts
    if time_bank_seconds is not None:
        if (
            not isinstance(time_bank_seconds, int | float)
            or isinstance(time_bank_seconds, bool)
            or not math.isfinite(time_bank_seconds)
            or time_bank_seconds < 0
        ):
            raise StoreError("time_bank_seconds must be a number >= 0")
        changes["time_bank_seconds"] = float(time_bank_seconds)
    if display_name is not None:
        changes["display_name"] = display_name_of(display_name)
    async with db.reading() as conn:  # one statement: atomic on its own
        if not changes:
            return await seat_in(conn, table_id, user_id)
        assignments = ", ".join(f"{name} = ?" for name in changes)
        row = await fetch_one(
            conn,
            f"UPDATE seats SET {assignments} WHERE table_id = ? AND user_id = ? RETURNING *",
            (*changes.values(), table_id, user_id),
        )
        if row is None:
            raise NotSeated("you are not seated at this table")
        return _seat(row)


async def close_table(db: Database, table_id: int) -> list[CashOut]:
    """Cash everyone out and mark the table closed; refused while a hand is in progress."""
    check_id(table_id, "table id")
    async with db.transaction() as conn:
        await table_in(conn, table_id, lock=True)
        if await live_hand_players(conn, table_id) is not None:
            raise HandInProgress("the table closes when the current hand ends")
        now = db.now()
        # Wallets in user-id order, as settlement moves them: two transactions that touch
        # the same players' wallets take their row locks in one order (no deadlock).
        seated = sorted(await seats_in(conn, table_id), key=lambda seat: seat.user_id)
        outs = [await cash_out_in(conn, seat, now) for seat in seated]
        outs.sort(key=lambda out: out.seat_no)
        await conn.execute(
            "UPDATE tables SET status = 'closed', button_seat = NULL WHERE id = ?", (table_id,)
        )
    return outs

"""Tables and seats: buy-in, add chips, leave, close; every refusal changes nothing."""

from __future__ import annotations

import pytest

from dealerbot.store import config, ledger, seats, tables, wallets
from dealerbot.store.audit import audit
from dealerbot.store.config import EconomyRow
from dealerbot.store.db import Database
from dealerbot.store.errors import (
    AlreadySeated,
    HandInProgress,
    InsufficientChips,
    InvalidAmount,
    InvalidSeat,
    NotSeated,
    SeatTaken,
    StoreError,
    TableNotOpen,
    UnknownTable,
)
from dealerbot.store.ledger import Account, Reason
from dealerbot.store.tables import TableStatus

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, sit, snapshot
from .hand_helpers import begin_hand


async def test_open_table_is_idempotent_and_reopens(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    assert table.status is TableStatus.OPEN
    assert await tables.open_table(db, GUILD, CHANNEL) == table
    assert await tables.find_table(db, GUILD, CHANNEL) == table
    await seats.close_table(db, table.id)
    assert (await tables.get_table(db, table.id)).status is TableStatus.CLOSED
    reopened = await tables.open_table(db, GUILD, CHANNEL)
    assert (reopened.id, reopened.status) == (table.id, TableStatus.OPEN)
    assert [t.id for t in await tables.list_tables(db, statuses=(TableStatus.OPEN,))] == [table.id]


async def test_sit_down_moves_chips_in_one_transaction(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    seat = await sit(db, table.id, ALICE, " Alice ", 400)
    assert (seat.seat_no, seat.stack, seat.display_name, seat.time_bank_seconds) == (
        0,
        400,
        "Alice",
        30,
    )
    wallet = await wallets.get_wallet(db, GUILD, ALICE)
    assert (wallet.chips, wallet.table_chips, wallet.net_worth) == (600, 400, 1000)
    rows = [(r.account, r.table_id, r.delta, r.reason) for r in await ledger.entries(db, GUILD)]
    assert rows == [
        (Account.TABLE, table.id, 400, Reason.BUY_IN),
        (Account.WALLET, None, -400, Reason.BUY_IN),
        (Account.WALLET, None, 1000, Reason.GRANT),
    ]
    bob = await sit(db, table.id, BOB, "Bob", 100, seat_no=5)
    assert bob.seat_no == 5
    assert [s.user_id for s in await seats.get_seats(db, table.id)] == [ALICE, BOB]
    assert (await audit(db)).ok


async def test_add_chips_and_stand_up(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, ALICE, "Alice", 300)
    assert (await seats.add_chips(db, table.id, ALICE, 200)).stack == 500
    out = await seats.stand_up(db, table.id, ALICE)
    assert (out.amount, out.wallet.chips, out.wallet.table_chips) == (500, 1000, 0)
    with pytest.raises(NotSeated):
        await seats.get_seat(db, table.id, ALICE)
    reasons = [(r.account, r.delta, r.reason) for r in await ledger.entries(db, GUILD, ALICE)]
    assert reasons[:2] == [
        (Account.WALLET, 500, Reason.CASH_OUT),
        (Account.TABLE, -500, Reason.CASH_OUT),
    ]
    assert (await audit(db)).ok


async def test_refusals_change_nothing(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, ALICE, "Alice", 900)
    before = await snapshot(db)
    cases: list[tuple[type[Exception], object]] = [
        (AlreadySeated, sit(db, table.id, ALICE, "Alice", 100)),
        (InvalidAmount, sit(db, table.id, BOB, "Bob", -100)),
        (InvalidAmount, sit(db, table.id, BOB, "Bob", 100.0)),
        (InvalidAmount, sit(db, table.id, BOB, "Bob", 10**15)),
        (SeatTaken, sit(db, table.id, BOB, "Bob", 100, seat_no=0)),
        (InvalidSeat, sit(db, table.id, BOB, "Bob", 100, seat_no=-1)),
        (InvalidSeat, sit(db, table.id, BOB, "Bob", 100, seat_no=8)),
        (UnknownTable, sit(db, table.id + 99, BOB, "Bob", 100)),
        (StoreError, sit(db, table.id, BOB, "   ", 100)),
        (NotSeated, seats.stand_up(db, table.id, BOB)),
        (NotSeated, seats.add_chips(db, table.id, BOB, 10)),
        (UnknownTable, seats.stand_up(db, table.id + 1, ALICE)),
    ]
    for error, call in cases:
        with pytest.raises(error):
            await call  # type: ignore[misc]
    assert await snapshot(db) == before


async def test_buying_in_for_more_than_the_wallet(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    await wallets.get_wallet(db, GUILD, BOB)
    await wallets.admin_take(db, GUILD, BOB, 950)
    before = await snapshot(db)
    with pytest.raises(InsufficientChips) as info:
        await sit(db, table.id, BOB, "Bob", 100)
    assert (info.value.needed, info.value.available) == (100, 50)
    assert await snapshot(db) == before
    # A brand-new player: the wallet created on the way is rolled back too.
    await config.put_economy(db, GUILD, EconomyRow(10, 100, 86_400))
    before = await snapshot(db)
    with pytest.raises(InsufficientChips):
        await sit(db, table.id, CAROL, "Carol", 100)
    assert await snapshot(db) == before
    assert await wallets.find_wallet(db, GUILD, CAROL) is None


async def test_closing_table_refuses_newcomers(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, ALICE, "Alice", 100)
    await tables.set_table_status(db, table.id, TableStatus.CLOSING)
    with pytest.raises(TableNotOpen):
        await sit(db, table.id, BOB, "Bob", 100)
    with pytest.raises(StoreError):
        await tables.set_table_status(db, table.id, TableStatus.CLOSED)
    outs = await seats.close_table(db, table.id)
    assert [(o.user_id, o.amount) for o in outs] == [(ALICE, 100)]
    assert (await wallets.get_wallet(db, GUILD, ALICE)).chips == 1000
    assert (await audit(db)).ok


async def test_no_leaving_or_topping_up_during_a_hand(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, ALICE, "Alice", 200)
    await sit(db, table.id, BOB, "Bob", 200)
    await sit(db, table.id, CAROL, "Carol", 200)
    await begin_hand(db, table.id, users=(ALICE, BOB))
    before = await snapshot(db)
    with pytest.raises(HandInProgress):
        await seats.stand_up(db, table.id, ALICE)
    with pytest.raises(HandInProgress):
        await seats.add_chips(db, table.id, CAROL, 10)
    with pytest.raises(HandInProgress):
        await seats.close_table(db, table.id)
    assert await snapshot(db) == before
    # Carol was not dealt in: she may leave at once.
    assert (await seats.stand_up(db, table.id, CAROL)).amount == 200
    seat = await seats.update_seat(db, table.id, ALICE, leave_after_hand=True, sitting_out=True)
    assert seat.leave_after_hand and seat.sitting_out


async def test_update_seat_validates(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, ALICE, "Alice", 200)
    seat = await seats.update_seat(
        db, table.id, ALICE, consecutive_timeouts=2, time_bank_seconds=12.5, display_name="Al"
    )
    assert (seat.consecutive_timeouts, seat.time_bank_seconds, seat.display_name) == (2, 12.5, "Al")
    for bad in (
        {"consecutive_timeouts": -1},
        {"time_bank_seconds": float("nan")},
        {"sitting_out": 1},
        {"display_name": ""},
    ):
        with pytest.raises(StoreError):
            await seats.update_seat(db, table.id, ALICE, **bad)  # type: ignore[arg-type]
    assert await seats.get_seat(db, table.id, ALICE) == seat
    with pytest.raises(NotSeated):
        await seats.update_seat(db, table.id, BOB, sitting_out=True)


async def test_table_message_id(db: Database) -> None:
    table = await tables.open_table(db, GUILD, CHANNEL)
    assert (await tables.set_table_message(db, table.id, 987654321)).message_id == 987654321
    assert (await tables.set_table_message(db, table.id, None)).message_id is None

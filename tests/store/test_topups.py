"""A queued top-up lives and dies with its seat (issue 23): the cash-out that frees a seat
deletes that seat's queued top-up in its own transaction, so no crash between the two can
leave a row that lands on the next seat its player takes. Only the row goes: its chips
never left the wallet, so the ledger gets no row for it. Migration 0012 removes the rows
that earlier crashes left behind, and the audit reports any such row."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dealerbot.store import migrate, seats, tables, topups
from dealerbot.store.audit import audit
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.errors import HandInProgress
from dealerbot.store.opening import open_database
from tests.pg.databases import create_database, drop_database

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, sit, snapshot
from .hand_helpers import begin_hand

QUEUE_VERSION = 12  # the migration that removes queued top-ups without a seat


async def queued(db: Database) -> list[tuple[object, ...]]:
    async with db.reading() as conn:
        return [
            tuple(r)
            for r in await fetch_all(
                conn, "SELECT table_id, user_id, amount FROM queued_topups ORDER BY 1, 2"
            )
        ]


async def ledger_rows(db: Database, user_id: int) -> list[tuple[object, ...]]:
    async with db.reading() as conn:
        return [
            tuple(r)
            for r in await fetch_all(
                conn,
                "SELECT account, reason, delta FROM ledger WHERE user_id = ? ORDER BY id",
                (user_id,),
            )
        ]


async def two_tables(db: Database) -> tuple[int, int]:
    """Alice and Bob at one table, Alice and Carol at another, each with a queued top-up."""
    one = (await tables.open_table(db, GUILD, CHANNEL)).id
    two = (await tables.open_table(db, GUILD, CHANNEL + 1)).id
    for table_id, users in ((one, (ALICE, BOB)), (two, (ALICE, CAROL))):
        for user in users:
            await sit(db, table_id, user, str(user), 200)
            await topups.set_queued_top_up(db, table_id, user, 40 + user % 10)
    return one, two


async def orphan(db: Database, table_id: int) -> None:
    """Carol's queued 70 at a table where she has no seat, as a crash between the cash-out
    and a separate delete of the queue row (the service's order before this fix) left it."""
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO queued_topups (table_id, user_id, amount, queued_at) VALUES (?, ?, ?, 0)",
            (table_id, CAROL, 70),
        )


async def test_standing_up_deletes_that_seats_queued_top_up_and_moves_no_chip_for_it(
    db: Database,
) -> None:
    one, two = await two_tables(db)
    wallet = (await seats.get_seat(db, one, ALICE)).stack
    rows_before = await ledger_rows(db, ALICE)
    out = await seats.stand_up(db, one, ALICE)
    assert out.amount == wallet == 200
    # Only his row at this table went: Bob's here, and his own at the other table, stay.
    assert await queued(db) == [(one, BOB, 42), (two, ALICE, 41), (two, CAROL, 43)]
    # The cash-out's two rows, and none for the queued 41: those chips never left.
    assert await ledger_rows(db, ALICE) == [
        *rows_before,
        ("table", "cash_out", -200),
        ("wallet", "cash_out", 200),
    ]
    report = await audit(db)
    assert report.ok, report.render()


async def test_a_refused_stand_up_keeps_the_queued_top_up(db: Database) -> None:
    one, _ = await two_tables(db)
    await begin_hand(db, one)  # Alice is dealt in: she cannot stand up now
    before = await snapshot(db)
    with pytest.raises(HandInProgress):
        await seats.stand_up(db, one, ALICE)
    assert await snapshot(db) == before


async def test_the_row_goes_in_the_cash_outs_transaction(db: Database) -> None:
    """Undone with the cash-out (the seat is back), it is back too: one transaction."""
    one, _ = await two_tables(db)
    before = await snapshot(db)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await seats.stand_up(db, one, BOB)
            assert (one, BOB, 42) not in await queued(db)
            raise RuntimeError("the process dies before the commit")
    assert await snapshot(db) == before


async def test_closing_a_table_deletes_its_queued_top_ups(db: Database) -> None:
    one, two = await two_tables(db)
    outs = await seats.close_table(db, one)
    assert sorted(o.user_id for o in outs) == [ALICE, BOB]
    assert await queued(db) == [(two, ALICE, 41), (two, CAROL, 43)]
    report = await audit(db)
    assert report.ok, report.render()


async def test_the_audit_reports_a_queued_top_up_without_a_seat(db: Database) -> None:
    one, _ = await two_tables(db)
    await orphan(db, one)
    report = await audit(db)
    assert not report.ok
    [failed] = report.failures
    assert failed.name == "queued top-ups are for seated players"
    assert f"table {one} user {CAROL}: 70 chips queued without a seat" in failed.detail


@pytest.fixture
async def empty_url(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """An empty database of the test's backend (db_url's PostgreSQL copy is migrated)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    server = request.getfixturevalue("pg_server")
    url = await create_database(server)
    try:
        yield url
    finally:
        await drop_database(server, url)


async def test_migration_12_removes_queued_top_ups_left_without_a_seat(
    empty_url: str, clock: FakeClock
) -> None:
    async with await open_database(empty_url, migrate_now=False, clock=clock) as db:
        await migrate.upgrade(db, target=QUEUE_VERSION - 1)
        one, two = await two_tables(db)
        await orphan(db, one)
        before = await snapshot(db)
        applied = await migrate.upgrade(db, target=QUEUE_VERSION)
        assert [m.version for m in applied] == [QUEUE_VERSION]
        assert await queued(db) == [
            (one, ALICE, 41),
            (one, BOB, 42),
            (two, ALICE, 41),
            (two, CAROL, 43),
        ]
        after = await snapshot(db)
        assert {name for name in before if before[name] != after[name]} == {"queued_topups"}
        report = await audit(db)
        assert report.ok, report.render()

"""Fixtures for store tests: a fresh database file per test and a clock the test moves."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dealerbot.store import seats
from dealerbot.store.catalog import rows_of, schema_of
from dealerbot.store.config import ConfigRow
from dealerbot.store.db import Database
from dealerbot.store.opening import open_database
from dealerbot.store.seats import SeatRow

GUILD = 111_111_111_111_111_111
CHANNEL = 222_222_222_222_222_222
ALICE = 300_000_000_000_000_001
BOB = 300_000_000_000_000_002
CAROL = 300_000_000_000_000_003
# A valid configuration row (the built-in settings) for tests that write one.
CONFIG = ConfigRow("stud", 1, 2, 5, 100, 1000, 8, 45, 5, 30)


class FakeClock:
    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "store.sqlite3"


@pytest.fixture
async def db(db_url: str, clock: FakeClock) -> AsyncIterator[Database]:
    """A migrated database on each backend (tests/conftest.py); on SQLite it is db_path."""
    database = await open_database(db_url, clock=clock)
    try:
        yield database
    finally:
        await database.close()


async def snapshot(db: Database) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table: compare before/after to prove nothing changed."""
    async with db.snapshot() as conn:
        return {info.name: await rows_of(conn, info) for info in await schema_of(conn)}


async def sit(
    db: Database,
    table_id: int,
    user_id: int,
    name: str,
    buy_in: object,
    *,
    seat_no: int | None = None,
    time_bank_seconds: float = 30.0,
) -> SeatRow:
    """Sit down as the table service does: the lowest free seat unless one is named."""
    if seat_no is None:
        taken = {s.seat_no for s in await seats.get_seats(db, table_id)}
        seat_no = min(n for n in range(8) if n not in taken)
    return await seats.sit_down(
        db,
        table_id,
        user_id,
        name,
        buy_in,  # type: ignore[arg-type]
        seat_no=seat_no,
        time_bank_seconds=time_bank_seconds,
    )

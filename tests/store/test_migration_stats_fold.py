"""Migration 0011 (the rollup triggers go; the store's roll-up folds) on a database with
stats, on both backends: rows the triggers had folded stay counted once, rows still pending
at the upgrade are folded by the store's roll-up, and the rollups equal a recount."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dealerbot.store import migrate, stats
from dealerbot.store.db import Database, fetch_one
from dealerbot.store.opening import open_database
from dealerbot.store.stats import PlayerHandRow
from tests.pg.databases import create_database, drop_database

from .conftest import ALICE, BOB, CAROL, FakeClock
from .rollup_recount import random_hand, recounted, stored
from .test_stats import DAY, seated

DECK = "2c" * 52  # a finished hand's deck column (the fold reads only the stats rows)


async def settled(db: Database, table_id: int, rows: list[PlayerHandRow], variant: str) -> None:
    """A finished hand and its stats rows, as settlement wrote them at schema 10: the hand row
    by hand (today's hand log reads columns migration 0013 adds)."""
    async with db.transaction() as conn:
        number = await fetch_one(
            conn, "SELECT COUNT(*) + 1 FROM hands WHERE table_id = ?", (table_id,)
        )
        assert number is not None
        inserted = await fetch_one(
            conn,
            "INSERT INTO hands (table_id, number, config_json, seats_json, button_seat, deck,"
            " commitment, salt_hex, status, started_at) VALUES (?, ?, '{}', '[]', 0, ?, 'c',"
            " 's', 'finished', ?) RETURNING id",
            (table_id, int(number[0]), DECK, db.now()),
        )
        assert inserted is not None
        await stats.record_hand(db, int(inserted[0]), table_id, variant, rows)


BEFORE = 10  # the last schema with the triggers


@pytest.fixture
async def empty_url(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[str]:
    """An empty database of the test's backend (the store template is already migrated)."""
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'old.sqlite3'}"
        return
    server = request.getfixturevalue("pg_server")
    url = await create_database(server)
    try:
        yield url
    finally:
        await drop_database(server, url)


async def pending_rows(db: Database) -> int:
    async with db.reading() as conn:
        row = await fetch_one(conn, "SELECT COUNT(*) FROM hand_players WHERE pending = 1")
    return int(row[0]) if row is not None else 0


async def test_upgrade_keeps_the_folded_rows_and_folds_the_pending_ones(empty_url: str) -> None:
    clock = FakeClock(1_796_083_200.0)
    rng = random.Random(3)
    async with await open_database(empty_url, migrate_now=False, clock=clock) as db:
        await migrate.upgrade(db, target=BEFORE)
        table_id = await seated(db)
        for n in range(16):
            clock.now = 1_796_083_200.0 + rng.choice((-9, -2, 0)) * DAY + n
            users = rng.sample([ALICE, BOB, CAROL], 3)
            await settled(db, table_id, random_hand(rng, users), rng.choice(("stud", "razz")))
            if n == 9:  # the fold as it was: 0009's trigger rolls up what this marks
                async with db.transaction() as conn:
                    assert await conn.execute("UPDATE hand_players SET pending = 0") == 30
        assert await pending_rows(db) == 18
        assert await stored(db) == await recounted(db)  # what the triggers folded

        # 0011, then the rest: today's fold writes 0013's rollup key (cash or tournament)
        applied = [m.version for m in await migrate.upgrade(db)]
        assert applied == list(range(BEFORE + 1, migrate.discover()[-1].version + 1))
        assert await stats.fold_pending(db) == 18
        assert await pending_rows(db) == 0
        days, wins = await stored(db)
        assert (days, wins) == await recounted(db)
        assert sum(row[5] for row in days) == 48 and len(wins) == 3

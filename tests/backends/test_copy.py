"""`dealerbot db copy`: a played card room moves SQLite -> PostgreSQL -> SQLite unchanged.

Refusals (a target with data, a hand in progress, the same database) write nothing; the
source is only read; both audits pass; ids keep counting after the copied ones.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dealerbot.store import wallets
from dealerbot.store.catalog import rows_of, schema_of
from dealerbot.store.copy import CopyRefused, db_copy
from dealerbot.store.db import Database
from tests.tables.helpers import GUILD, make_harness, play_hand, seat_players

PLAYERS = [11, 12, 13, 14]


async def everything(url: str) -> dict[str, list[tuple[object, ...]]]:
    async with await Database.open(url, migrate_now=False) as db, db.snapshot() as conn:
        return {info.name: await rows_of(conn, info) for info in await schema_of(conn)}


async def played_room(where: str, *, finish: bool = True) -> None:
    """Four players, a few hands at two tables, a daily claim; the last hand left running
    unless ``finish``."""
    h = await make_harness(where, seed=3)
    try:
        await h.service.config_set(GUILD, 501, variant="stud8")
        for channel in (500, 501):
            await seat_players(h.service, PLAYERS, buy_in=300, channel=channel)
        rng = random.Random(5)
        for channel in (500, 501):
            await h.service.start(GUILD, channel)
        for round_no in range(2):
            if round_no:
                await h.advance(10)  # the next hands start by themselves
            for channel in (500, 501):
                await play_hand(h, rng=rng, channel=channel)
        if not finish:
            await h.advance(10)
        await h.audit_ok()
    finally:
        await h.close()


@pytest.mark.backends("postgresql")
async def test_copy_to_postgresql_and_back_is_exact(
    tmp_path: Path, new_db_url, capsys: pytest.CaptureFixture[str]
) -> None:
    source = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(source)
    before = await everything(source)
    pg = await new_db_url("unused")
    async with await Database.open(pg) as db:  # freshly migrated: accepted
        pass

    assert await db_copy(source, pg) == 0
    out = capsys.readouterr().out
    assert "audit of" in out and "(source): passed" in out and "(target): passed" in out
    assert await everything(source) == before  # the source is only read
    copied = await everything(pg)
    assert copied == before
    assert sum(len(rows) for rows in copied.values()) > 50

    back = f"sqlite:///{tmp_path / 'back.sqlite3'}"  # does not exist yet: created
    assert await db_copy(pg, back) == 0
    assert await everything(back) == before

    async with await Database.open(pg) as db:  # new rows take new ids after the copied ones
        last = max(row[0] for row in copied["ledger"])
        await wallets.admin_give(db, GUILD, 999, 5)
        async with db.reading() as conn:
            row = await conn.fetch_one("SELECT MAX(id) FROM ledger")
        assert row is not None and row[0] > last


@pytest.mark.backends("postgresql")
async def test_copy_refusals_write_nothing(tmp_path: Path, new_db_url) -> None:
    source = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(source)
    full = await new_db_url("full")
    assert await db_copy(source, full) == 0
    before_full = await everything(full)
    with pytest.raises(CopyRefused, match="already holds data"):
        await db_copy(source, full)
    assert await everything(full) == before_full
    with pytest.raises(CopyRefused, match="same database"):
        await db_copy(source, source)

    running = f"sqlite:///{tmp_path / 'running.sqlite3'}"
    await played_room(running, finish=False)
    empty = await new_db_url("empty")
    before_empty = await everything(empty)
    with pytest.raises(CopyRefused, match="in progress"):
        await db_copy(running, empty)
    assert await everything(empty) == before_empty


def test_copy_command_line(tmp_path: Path) -> None:
    """Through the command: one line and exit 1 for a refusal, nothing created."""
    from tests.store.test_audit import run_cli

    missing = tmp_path / "missing.sqlite3"
    done = run_cli(
        tmp_path / "x.sqlite3", "db", "copy", "--from", str(missing), "--to", str(missing)
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "same database" in done.stderr
    assert not missing.exists()

"""`dealerbot db copy`: a played card room moves SQLite -> PostgreSQL -> SQLite unchanged.

Refusals (a target with data, a hand in progress, the same database) write nothing; the
source is only read; both audits pass; ids keep counting after the copied ones.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from dealerbot.store import copy as copy_module
from dealerbot.store import wallets
from dealerbot.store.catalog import rows_of, schema_of
from dealerbot.store.copy import CopyRefused, db_copy
from dealerbot.store.files import DatabaseFileError, ProcessLock
from dealerbot.store.opening import open_database
from tests.pg.databases import create_database, drop_database
from tests.pg.server import PostgresServer
from tests.tables.helpers import GUILD, make_harness, play_hand, seat_players

PLAYERS = [11, 12, 13, 14]


async def everything(url: str) -> dict[str, list[tuple[object, ...]]]:
    async with await open_database(url, migrate_now=False) as db, db.snapshot() as conn:
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
    async with await open_database(pg) as db:  # freshly migrated: accepted
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

    async with await open_database(pg) as db:  # new rows take new ids after the copied ones
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


# Issue 23: a copy of a database a running bot writes is refused (SQLite: its lock file is
# held; PostgreSQL: a table lease is), the source is read in one read transaction, and a
# refused copy leaves the target as it was (it used to be migrated first).


def sqlite_file(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


async def test_copy_refuses_a_sqlite_source_a_bot_holds(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(source)
    before = await everything(source)
    target = tmp_path / "copy.sqlite3"
    bot = ProcessLock(sqlite_file(source))  # what a running bot holds
    bot.acquire()
    try:
        with pytest.raises(CopyRefused, match=r"in use by process \d+ .*stop the bot"):
            await db_copy(source, f"sqlite:///{target}")
    finally:
        bot.release()
    assert not target.exists()
    assert await everything(source) == before
    assert await db_copy(source, f"sqlite:///{target}") == 0  # the bot gone: copied


async def test_a_bot_cannot_start_on_the_source_during_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(source)
    refused: list[str] = []

    async def reading_rows(conn: Any, info: Any) -> Any:
        bot = ProcessLock(sqlite_file(source))
        try:
            bot.acquire()
        except DatabaseFileError as error:
            refused.append(error.message)
        else:
            bot.release()
        return await rows_of(conn, info)

    monkeypatch.setattr(copy_module, "rows_of", reading_rows)
    assert await db_copy(source, f"sqlite:///{tmp_path / 'copy.sqlite3'}") == 0
    assert refused and all("in use" in message for message in refused)


async def test_the_sqlite_source_is_read_in_one_read_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write landing while the copy reads (another process, say) is not half copied."""
    source = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(source)
    before = await everything(source)
    wrote: list[str] = []

    async def rows_then_a_write(conn: Any, info: Any) -> Any:
        rows = await rows_of(conn, info)
        if info.name == "guilds" and not wrote:  # read early: wallets and ledger come later
            async with await open_database(source, migrate_now=False) as other:
                await wallets.admin_give(other, GUILD, 999, 5)
            wrote.append(info.name)
        return rows

    monkeypatch.setattr(copy_module, "rows_of", rows_then_a_write)
    target = f"sqlite:///{tmp_path / 'copy.sqlite3'}"
    assert await db_copy(source, target) == 0
    assert wrote
    assert await everything(target) == before  # the state the copy began reading
    assert await everything(source) != before  # the write did land, after


@pytest.mark.parametrize("why", ["in progress", "lock"])
async def test_a_refused_copy_leaves_a_new_sqlite_target_untouched(
    tmp_path: Path, why: str
) -> None:
    source = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(source, finish=why != "in progress")
    target = tmp_path / "new" / "copy.sqlite3"
    target.parent.mkdir()
    bot = ProcessLock(sqlite_file(source))
    if why == "lock":
        bot.acquire()
    try:
        with pytest.raises(CopyRefused):
            await db_copy(source, f"sqlite:///{target}")
    finally:
        bot.release()
    assert list(target.parent.iterdir()) == []


async def pg_tables(url: str) -> list[str]:
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    finally:
        await conn.close()
    return sorted(r[0] for r in rows)


@pytest.mark.backends("postgresql")
async def test_a_refused_copy_leaves_an_empty_postgresql_target_untouched(
    tmp_path: Path, new_db_url, pg_server: PostgresServer
) -> None:
    running = f"sqlite:///{tmp_path / 'running.sqlite3'}"
    await played_room(running, finish=False)
    empty = await create_database(pg_server)  # no schema at all, not even schema_version
    try:
        with pytest.raises(CopyRefused, match="in progress"):
            await db_copy(running, empty)
        assert await pg_tables(empty) == []
    finally:
        await drop_database(pg_server, empty)


@pytest.mark.backends("postgresql")
async def test_copy_refuses_a_postgresql_source_whose_table_lease_is_held(
    tmp_path: Path, new_db_url, pg_server: PostgresServer
) -> None:
    room = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    await played_room(room)
    source = await new_db_url("source")
    assert await db_copy(room, source) == 0
    empty = await create_database(pg_server)
    try:
        async with await open_database(source, migrate_now=False) as db:
            leases = await db.open_leases()  # what a running bot holds for its table
            try:
                assert await leases.hold(501)  # (the bot's take writes its lease's epoch)
                before = await everything(source)
                with pytest.raises(CopyRefused, match=r"channel 501 .*stop the bot"):
                    await db_copy(source, empty)
            finally:
                await leases.close()
        assert await pg_tables(empty) == []
        assert await everything(source) == before
        back = tmp_path / "back.sqlite3"
        assert await db_copy(source, f"sqlite:///{back}") == 0  # the bot gone: copied
        assert await everything(f"sqlite:///{back}") == before
    finally:
        await drop_database(pg_server, empty)


def test_copy_command_line_refuses_a_source_in_use(tmp_path: Path) -> None:
    from tests.store.test_audit import run_cli

    source = tmp_path / "room.sqlite3"
    asyncio.run(played_room(f"sqlite:///{source}"))
    target = tmp_path / "copy.sqlite3"
    bot = ProcessLock(source)
    bot.acquire()
    try:
        done = run_cli(source, "db", "copy", "--from", str(source), "--to", str(target))
    finally:
        bot.release()
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "in use by process" in done.stderr
    assert not target.exists()


async def test_a_missing_sqlite_source_is_refused_and_not_created(tmp_path: Path) -> None:
    source, target = tmp_path / "missing.sqlite3", tmp_path / "copy.sqlite3"
    with pytest.raises(CopyRefused, match="no database here"):
        await db_copy(f"sqlite:///{source}", f"sqlite:///{target}")
    assert not await asyncio.to_thread(lambda: list(tmp_path.iterdir()))

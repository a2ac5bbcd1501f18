"""Migrations: fresh, upgraded step by step, atomic per file, newer-than-code refused."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from dealerbot.store import migrate
from dealerbot.store.errors import DatabaseTooNewError, MigrationError
from dealerbot.store.opening import open_database


async def schema(path: Path) -> list[tuple[str, str, str, str | None]]:
    async with aiosqlite.connect(path) as conn:
        rows = await conn.execute_fetchall(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"
            " WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name",
        )
    return [tuple(r) for r in rows]  # type: ignore[misc]


async def version(path: Path) -> int:
    async with aiosqlite.connect(path) as conn:
        rows = await conn.execute_fetchall("PRAGMA user_version")
    return int(next(iter(rows))[0])


def write_migrations(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir()
    for name, body in files.items():
        (folder / name).write_text(body, encoding="utf-8")
    return folder


TOY = {
    "0001_people.sql": "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL);",
    "0002_pets.sql": (
        "CREATE TABLE pets (id INTEGER PRIMARY KEY, owner INTEGER REFERENCES people (id));\n"
        "CREATE INDEX pets_owner ON pets (owner);"
    ),
    "0003_people_age.sql": "ALTER TABLE people ADD COLUMN age INTEGER NOT NULL DEFAULT 0;",
}


async def test_fresh_database_is_at_the_latest_version(db_path: Path) -> None:
    latest = migrate.discover()[-1].version
    db = await open_database(db_path)
    try:
        assert await migrate.current_version(db) == latest
        mode = await db.conn.execute_fetchall("PRAGMA journal_mode")
        fks = await db.conn.execute_fetchall("PRAGMA foreign_keys")
        assert mode[0][0] == "wal"
        assert fks[0][0] == 1
    finally:
        await db.close()
    names = {row[1] for row in await schema(db_path)}
    assert {"wallets", "ledger", "tables", "seats", "hands", "hand_actions"} <= names


def test_migrations_folder_is_found_relative_to_the_package() -> None:
    import dealerbot

    assert Path(dealerbot.__file__).resolve().parents[1] / "migrations" == migrate.MIGRATIONS_DIR
    assert migrate.discover()[0].name == "0001_init.sql"


@pytest.mark.parametrize("first_step", [1, 2])
async def test_toy_runner_step_by_step_equals_fresh(tmp_path: Path, first_step: int) -> None:
    folder = write_migrations(tmp_path / "migrations", TOY)
    fresh, stepped = tmp_path / "fresh.db", tmp_path / "stepped.db"
    async with await open_database(fresh, migrate_now=False) as db:
        applied = await migrate.upgrade(db, folder)
        assert [m.version for m in applied] == [1, 2, 3]
    async with await open_database(stepped, migrate_now=False) as db:
        conn = db.conn
        await migrate.upgrade(db, folder, target=first_step)
        assert await migrate.current_version(db) == first_step
        await conn.execute("INSERT INTO people (name) VALUES ('kept')")
        rest = await migrate.upgrade(db, folder)
        assert [m.version for m in rest] == list(range(first_step + 1, 4))
        rows = await conn.execute_fetchall("SELECT name, age FROM people")
        assert [tuple(r) for r in rows] == [("kept", 0)]
    assert await schema(fresh) == await schema(stepped)
    assert await version(fresh) == await version(stepped) == 3


async def test_real_migrations_step_by_step_equal_fresh(tmp_path: Path) -> None:
    migrations = migrate.discover()
    fresh = tmp_path / "fresh.db"
    async with await open_database(fresh, migrate_now=False) as db:
        await migrate.upgrade(db)
    for stop in range(1, migrations[-1].version + 1):
        stepped = tmp_path / f"stepped{stop}.db"
        async with await open_database(stepped, migrate_now=False) as db:
            await migrate.upgrade(db, target=stop)
            assert await migrate.current_version(db) == stop
        # Reopening through Database applies the rest, as at startup.
        db = await open_database(stepped)
        await db.close()
        assert await schema(stepped) == await schema(fresh)


async def test_a_failing_migration_leaves_no_trace(tmp_path: Path) -> None:
    files = dict(TOY)
    files["0002_pets.sql"] = (
        "CREATE TABLE pets (id INTEGER PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);"
    )
    folder = write_migrations(tmp_path / "migrations", files)
    path = tmp_path / "broken.db"
    async with await open_database(path, migrate_now=False) as db:
        conn = db.conn
        with pytest.raises(MigrationError, match=r"0002_pets\.sql"):
            await migrate.upgrade(db, folder)
        assert not conn.in_transaction
        assert await migrate.current_version(db) == 1
    names = {row[1] for row in await schema(path)}
    assert names == {"people"}


async def test_database_newer_than_code_is_refused(db_path: Path) -> None:
    latest = migrate.discover()[-1].version
    async with await open_database(db_path, migrate_now=False) as db:
        conn = db.conn
        await conn.execute(f"PRAGMA user_version = {latest + 1}")
    for migrate_now in (True, False):
        with pytest.raises(DatabaseTooNewError, match="newer") as info:
            await open_database(db_path, migrate_now=migrate_now)
        assert f"version {latest + 1}" in info.value.message
    assert await version(db_path) == latest + 1
    assert await schema(db_path) == []


@pytest.mark.parametrize(
    "files",
    [
        {"0001_a.sql": "", "0003_c.sql": ""},
        {"0001_a.sql": "", "2_b.sql": ""},
        {"0002_b.sql": ""},
    ],
)
def test_misnumbered_migrations_are_refused(tmp_path: Path, files: dict[str, str]) -> None:
    folder = write_migrations(tmp_path / "m", files)
    with pytest.raises(MigrationError):
        migrate.discover(folder)

"""Fresh databases on a test server, and the PostgreSQL migrations applied to them.

Each test gets its own database (``CREATE DATABASE`` costs a few milliseconds on the
throwaway server), so tests neither see each other's rows nor need cleaning up between
them, and an external server named by DEALERBOT_TEST_POSTGRES_URL is left as it was.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from .server import PostgresServer

MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations" / "postgresql"
_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class PgMigration:
    version: int
    path: Path

    def body(self) -> str:
        return self.path.read_text(encoding="utf-8")


def migrations(folder: Path = MIGRATIONS_DIR) -> list[PgMigration]:
    """The PostgreSQL migration files in version order (1, 2, ... without gaps)."""
    found = []
    for path in sorted(folder.glob("*.sql")):
        match = _NAME.match(path.name)
        assert match is not None, f"{path.name} is not named NNNN_name.sql"
        found.append(PgMigration(int(match.group(1)), path))
    assert [m.version for m in found] == list(range(1, len(found) + 1)), found
    return found


async def create_database(server: PostgresServer, template: str | None = None) -> str:
    """A new database on ``server`` (empty, or a copy of ``template``); returns its URL."""
    name = f"dealerbot_test_{uuid.uuid4().hex[:16]}"
    source = f' TEMPLATE "{template}"' if template else ""
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"{source}')
    finally:
        await admin.close()
    return server.url_for(name)


async def create_migrated_template(server: PostgresServer) -> str:
    """A database with every migration applied, to copy per test; returns its name.

    Copying it (CREATE DATABASE ... TEMPLATE) takes a few tens of milliseconds, less than
    creating an empty database and running the migrations in it.
    """
    url = await create_database(server)
    conn = await asyncpg.connect(url)
    try:
        await apply_all(conn)
    finally:
        await conn.close()  # a template must have no open sessions when it is copied
    return url.rsplit("/", 1)[1]


async def drop_database(server: PostgresServer, url: str) -> None:
    """Drop a database made by :func:`create_database`, closing any session still in it."""
    name = url.rsplit("/", 1)[1]
    assert name.startswith("dealerbot_test_"), name
    admin = await asyncpg.connect(server.url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def apply_migration(conn: asyncpg.Connection, migration: PgMigration) -> None:
    """One file in one transaction: PostgreSQL's DDL is transactional, as SQLite's is."""
    async with conn.transaction():
        await conn.execute(migration.body())


async def apply_all(conn: asyncpg.Connection) -> None:
    for migration in migrations():
        await apply_migration(conn, migration)

"""Numbered SQL migrations, each applied atomically together with ``PRAGMA user_version``.

``executescript`` commits any open transaction before it runs, so a migration cannot be
wrapped by the caller; instead the whole unit is one script:
``BEGIN IMMEDIATE; <file>; PRAGMA user_version = N; COMMIT;``. If any statement fails the
script stops inside the transaction and we roll it back: the file and the version bump
land together or not at all.

The files live in the top-level ``migrations/`` folder, which the wheel ships as the package
``dealerbot.migrations`` (see setup.py); they are read through ``importlib.resources`` so a
regular install finds them as well as a checkout does.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import aiosqlite

from .errors import DatabaseTooNewError, MigrationError

MIGRATIONS_PACKAGE = "dealerbot.migrations"
MIGRATIONS_DIR: Traversable = resources.files(MIGRATIONS_PACKAGE)
_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    path: Traversable

    @property
    def name(self) -> str:
        return self.path.name

    def script(self) -> str:
        body = self.path.read_text(encoding="utf-8")
        return f"BEGIN IMMEDIATE;\n{body}\n;\nPRAGMA user_version = {self.version};\nCOMMIT;\n"


@dataclass(frozen=True, slots=True)
class MigrationStatus:
    current: int
    latest: int
    pending: tuple[Migration, ...]

    @property
    def too_new(self) -> bool:
        return self.current > self.latest


def discover(directory: Traversable | None = None) -> tuple[Migration, ...]:
    """The migration files, checked to be numbered 1, 2, ... without gaps or duplicates."""
    folder = directory or MIGRATIONS_DIR
    if not folder.is_dir():
        raise MigrationError(f"the migrations folder {folder} is missing")
    found: list[Migration] = []
    for path in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if not path.name.endswith(".sql"):
            continue
        match = _NAME.match(path.name)
        if match is None:
            raise MigrationError(f"migration file {path.name!r} is not named NNNN_name.sql")
        found.append(Migration(int(match.group(1)), path))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(
                f"migrations must be numbered 1, 2, 3 ... without gaps: expected "
                f"{expected:04d}, found {migration.name}"
            )
    return tuple(found)


async def current_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


def _too_new(current: int, latest: int) -> DatabaseTooNewError:
    return DatabaseTooNewError(
        f"the database is at schema version {current} but this dealerbot only knows "
        f"versions up to {latest}; it was written by a newer release. Upgrade dealerbot "
        "(or restore a backup) instead of running this version against it."
    )


async def status(
    conn: aiosqlite.Connection,
    directory: Traversable | None = None,
    *,
    refuse_newer: bool = False,
) -> MigrationStatus:
    migrations = discover(directory)
    latest = migrations[-1].version if migrations else 0
    current = await current_version(conn)
    if refuse_newer and current > latest:
        raise _too_new(current, latest)
    pending = tuple(m for m in migrations if m.version > current)
    return MigrationStatus(current, latest, pending)


async def upgrade(
    conn: aiosqlite.Connection,
    directory: Traversable | None = None,
    *,
    target: int | None = None,
) -> list[Migration]:
    """Apply pending migrations in order (up to ``target``); return those applied."""
    state = await status(conn, directory, refuse_newer=True)
    applied: list[Migration] = []
    for migration in state.pending:
        if target is not None and migration.version > target:
            break
        try:
            await conn.executescript(migration.script())
        except sqlite3.Error as exc:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        applied.append(migration)
    return applied

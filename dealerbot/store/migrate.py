"""Numbered SQL migrations, one version number for both backends, each applied atomically.

``migrations/NNNN_name.sql`` are SQLite's and ``migrations/postgresql/NNNN_name.sql`` their
PostgreSQL twins, with the same numbers. A file and its version bump land together or not
at all: SQLite runs ``BEGIN IMMEDIATE; <file>; PRAGMA user_version = N; COMMIT;`` as one
script; PostgreSQL (whose DDL is transactional) runs the file and updates its one-row
``schema_version`` table in one transaction, under an advisory lock so that two processes
starting at once do not both migrate (:meth:`Database.apply_migration`).

The files live in the top-level ``migrations/`` folder, which the wheel ships as the package
``dealerbot.migrations`` (see setup.py); they are read through ``importlib.resources`` so a
regular install finds them as well as a checkout does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

import aiosqlite

from .db import Database
from .dburl import DatabaseTarget
from .errors import DatabaseTooNewError, MigrationError, StoreError
from .sqlite_db import SqliteDatabase

MIGRATIONS_PACKAGE = "dealerbot.migrations"
MIGRATIONS_DIR: Traversable = resources.files(MIGRATIONS_PACKAGE)
POSTGRES_SUBFOLDER = "postgresql"
_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    path: Traversable

    @property
    def name(self) -> str:
        return self.path.name

    def body(self) -> str:
        return self.path.read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class MigrationStatus:
    current: int
    latest: int
    pending: tuple[Migration, ...]

    @property
    def too_new(self) -> bool:
        return self.current > self.latest


def folder_for(backend: str, directory: Traversable | None = None) -> Traversable:
    """The backend's folder: ``directory`` (default migrations/), or its postgresql/."""
    base = directory or MIGRATIONS_DIR
    return base / POSTGRES_SUBFOLDER if backend == "postgresql" else base


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


def _database(db: Database | aiosqlite.Connection) -> Database:
    """A raw aiosqlite connection (older callers and tests) is wrapped as a SQLite database."""
    if isinstance(db, Database):
        return db
    return SqliteDatabase(db, DatabaseTarget("sqlite", path=""), lambda: 0.0)


async def current_version(db: Database | aiosqlite.Connection) -> int:
    return await _database(db).schema_version()


def _too_new(current: int, latest: int) -> DatabaseTooNewError:
    return DatabaseTooNewError(
        f"the database is at schema version {current} but this dealerbot only knows "
        f"versions up to {latest}; it was written by a newer release. Upgrade dealerbot "
        "(or restore a backup) instead of running this version against it."
    )


async def status(
    db: Database | aiosqlite.Connection,
    directory: Traversable | None = None,
    *,
    refuse_newer: bool = False,
) -> MigrationStatus:
    db = _database(db)
    migrations = discover(folder_for(db.backend, directory))
    latest = migrations[-1].version if migrations else 0
    current = await db.schema_version()
    if refuse_newer and current > latest:
        raise _too_new(current, latest)
    pending = tuple(m for m in migrations if m.version > current)
    return MigrationStatus(current, latest, pending)


async def upgrade(
    db: Database | aiosqlite.Connection,
    directory: Traversable | None = None,
    *,
    target: int | None = None,
) -> list[Migration]:
    """Apply pending migrations in order (up to ``target``); return those applied here."""
    db = _database(db)
    state = await status(db, directory, refuse_newer=True)
    applied: list[Migration] = []
    for migration in state.pending:
        if target is not None and migration.version > target:
            break
        try:
            done = await db.apply_migration(migration.version, migration.body())
        except StoreError:
            raise
        except Exception as exc:
            raise MigrationError(f"migration {migration.name} failed: {exc}") from exc
        if done:
            applied.append(migration)
    return applied

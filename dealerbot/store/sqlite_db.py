"""SQLite: one aiosqlite connection per process, serialised by a lock, explicit transactions.

Why one connection and a lock: SQLite allows one writer anyway, and a single connection
serialised by an asyncio lock means a task never reads another task's uncommitted writes.
``isolation_level=None`` turns off the sqlite3 module's implicit transactions, so the only
transactions are the ``BEGIN IMMEDIATE ... COMMIT`` that :meth:`SqliteDatabase.transaction`
issues. A nested ``transaction()`` in the same task becomes a SAVEPOINT of the outer one.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from .db import Connection, Database, Params, Row
from .dburl import DatabaseTarget
from .files import prepare

_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


class SqliteConnection(Connection):
    backend = "sqlite"
    lock_suffix = ""

    def __init__(self, raw: aiosqlite.Connection) -> None:
        self.raw = raw
        self.at_commit: list[tuple[str, list[Params]]] = []  # see executemany_at_commit

    # Each call is one hop to aiosqlite's thread (execute_fetchall runs and fetches in one
    # go): hops, not SQLite, dominate the cost of a small transaction.
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.raw.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self.raw.execute(sql, params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self.raw.executemany(sql, rows)

    async def executemany_at_commit(self, sql: str, rows: Iterable[Params]) -> None:
        """Held until the transaction's COMMIT, which runs them first in its own hop."""
        if not self.raw.in_transaction:
            await self.executemany(sql, rows)
            return
        self.at_commit.append((sql, list(rows)))

    @staticmethod
    def is_unique_violation(error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error)


class SqliteDatabase(Database):
    backend = "sqlite"

    def __init__(
        self, raw: aiosqlite.Connection, target: DatabaseTarget, clock: Callable[[], float]
    ) -> None:
        super().__init__(target, clock)
        self._raw = raw
        self._conn = SqliteConnection(raw)
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    @classmethod
    async def connect(
        cls,
        target: DatabaseTarget,
        clock: Callable[[], float],
        *,
        busy_timeout_ms: int = 5000,
        synchronous: str = "NORMAL",
    ) -> SqliteDatabase:
        """Connect and set the pragmas (WAL, foreign keys on)."""
        if synchronous.upper() not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(_SYNCHRONOUS)}")
        prepare(str(target.path))  # a clear error for a bad path; a new file is made 0600
        raw = await aiosqlite.connect(str(target.path), isolation_level=None)
        try:
            raw.row_factory = sqlite3.Row
            await raw.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await raw.execute("PRAGMA journal_mode = WAL")
            await raw.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await raw.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await raw.close()
            raise
        return cls(raw, target, clock)

    async def close(self) -> None:
        async with self._lock:
            await self._raw.close()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The raw connection, for SQLite-only tests and checks; bypasses the lock."""
        return self._raw

    def _owns(self) -> bool:
        task = asyncio.current_task()
        return task is not None and self._owner is task

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception.

        Nested use in the same task runs as a SAVEPOINT: an exception inside undoes only
        the inner block (and propagates, so normally the outer one rolls back too).
        """
        raw = self._raw
        if self._owns():
            self._depth += 1
            name = f"sp{self._depth}"
            held = len(self._conn.at_commit)
            try:
                await raw.execute(f"SAVEPOINT {name}")
                try:
                    yield self._conn
                except BaseException:
                    del self._conn.at_commit[held:]  # undone with the savepoint
                    await raw.execute(f"ROLLBACK TO {name}")
                    await raw.execute(f"RELEASE {name}")
                    raise
                await raw.execute(f"RELEASE {name}")
            finally:
                self._depth -= 1
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            self._conn.at_commit.clear()
            try:
                await raw.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                except BaseException:
                    await self._rollback()
                    raise
                try:
                    await self._commit()
                except BaseException:
                    await self._rollback()
                    raise
            finally:
                self._conn.at_commit.clear()
                self._owner = None

    async def _commit(self) -> None:
        """COMMIT, after the statements held for it, in one hop to aiosqlite's thread (its
        ``_execute`` runs a function there: aiosqlite has no public batch call). If one
        fails, nothing is committed and the caller rolls back."""
        held, self._conn.at_commit = self._conn.at_commit, []
        if not held:
            await self._raw.execute("COMMIT")
            return
        conn = self._raw._conn  # the sqlite3 connection, used only on aiosqlite's thread

        def run() -> None:
            for sql, rows in held:
                conn.executemany(sql, rows)
            conn.execute("COMMIT")

        await self._raw._execute(run)  # type: ignore[no-untyped-call]

    async def _rollback(self) -> None:
        # The COMMIT may already have run when a cancellation arrived: then there is
        # nothing to roll back, and SQLite says so.
        try:
            await self._raw.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if self._raw.in_transaction:
                raise

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        """Hold the lock without BEGIN: no other task's half-done transaction is seen."""
        if self._owns():
            yield self._conn
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield self._conn
            finally:
                self._owner = None

    def snapshot(self) -> Any:
        # Holding the one connection's lock already excludes every other writer here.
        return self.reading()

    async def schema_version(self) -> int:
        async with self.reading() as conn:
            row = await conn.fetch_one("PRAGMA user_version")
        return int(row[0]) if row is not None else 0

    async def apply_migration(self, version: int, body: str) -> bool:
        # ``executescript`` commits any open transaction first, so the whole unit is one
        # script: the file and the version bump land together or not at all.
        script = f"BEGIN IMMEDIATE;\n{body}\n;\nPRAGMA user_version = {version};\nCOMMIT;\n"
        async with self._lock:
            if await self._version_unlocked() >= version:
                return False
            try:
                await self._raw.executescript(script)
            except BaseException:
                if self._raw.in_transaction:
                    await self._raw.execute("ROLLBACK")
                raise
        return True

    async def _version_unlocked(self) -> int:
        rows = await self._raw.execute_fetchall("PRAGMA user_version")
        return int(next(iter(rows))[0])

"""One aiosqlite connection per process, with explicit transactions.

Why one connection and a lock: SQLite allows one writer anyway, and a single connection
serialised by an asyncio lock means a task never reads another task's uncommitted writes.
``isolation_level=None`` turns off the sqlite3 module's implicit transactions, so the only
transactions are the ``BEGIN IMMEDIATE ... COMMIT`` that :meth:`Database.transaction` issues.
A nested ``transaction()`` in the same task becomes a SAVEPOINT of the outer one, which is
how several store calls combine into one atomic unit.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from . import migrate

Params = tuple[Any, ...] | dict[str, Any]
_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


class Database:
    """The store's handle: a connection, a lock, a clock. Create with :meth:`open`."""

    def __init__(self, conn: aiosqlite.Connection, path: Path, clock: Callable[[], float]) -> None:
        self._conn = conn
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._owner: asyncio.Task[Any] | None = None
        self._depth = 0

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        migrate_now: bool = True,
        clock: Callable[[], float] = time.time,
        busy_timeout_ms: int = 5000,
        synchronous: str = "NORMAL",
        migrations_dir: Path | None = None,
    ) -> Database:
        """Connect, set the pragmas, and (by default) apply pending migrations.

        A database newer than the code raises DatabaseTooNewError even with
        ``migrate_now=False``: the code must never write to a schema it does not know.
        """
        if synchronous.upper() not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {', '.join(_SYNCHRONOUS)}")
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute(f"PRAGMA synchronous = {synchronous.upper()}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if migrate_now:
                await migrate.upgrade(conn, migrations_dir)
            else:
                await migrate.status(conn, migrations_dir, refuse_newer=True)
        except BaseException:
            await conn.close()
            raise
        return cls(conn, Path(path), clock)

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def conn(self) -> aiosqlite.Connection:
        """The raw connection, for tests and the migration runner; bypasses the lock."""
        return self._conn

    def now(self) -> float:
        return self._clock()

    def _owns(self) -> bool:
        task = asyncio.current_task()
        return task is not None and self._owner is task

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception.

        Nested use in the same task runs as a SAVEPOINT: an exception inside undoes only
        the inner block (and propagates, so normally the outer one rolls back too).
        """
        if self._owns():
            self._depth += 1
            name = f"sp{self._depth}"
            try:
                await self._conn.execute(f"SAVEPOINT {name}")
                try:
                    yield self._conn
                except BaseException:
                    await self._conn.execute(f"ROLLBACK TO {name}")
                    await self._conn.execute(f"RELEASE {name}")
                    raise
                await self._conn.execute(f"RELEASE {name}")
            finally:
                self._depth -= 1
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
                try:
                    yield self._conn
                except BaseException:
                    await self._rollback()
                    raise
                try:
                    await self._conn.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
            finally:
                self._owner = None

    async def _rollback(self) -> None:
        # The COMMIT may already have run when a cancellation arrived: then there is
        # nothing to roll back, and SQLite says so.
        try:
            await self._conn.execute("ROLLBACK")
        except sqlite3.OperationalError:
            if self._conn.in_transaction:
                raise

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the lock without BEGIN: no other task's half-done transaction is seen.

        For reads, and for a write that is ONE statement (SQLite makes a statement, with its
        triggers, atomic by itself): it saves the BEGIN/COMMIT or SAVEPOINT round trips.
        Nested in a transaction of the same task, it simply joins that transaction.
        """
        if self._owns():
            yield self._conn
            return
        async with self._lock:
            self._owner = asyncio.current_task()
            try:
                yield self._conn
            finally:
                self._owner = None


async def open_database(path: str | Path, **kwargs: Any) -> Database:
    """Shorthand for :meth:`Database.open`."""
    return await Database.open(path, **kwargs)


# Each helper is one hop to aiosqlite's thread (execute_fetchall runs the statement and
# fetches in one go): hops, not SQLite, dominate the cost of a small transaction.


async def fetch_one(
    conn: aiosqlite.Connection, sql: str, params: Params = ()
) -> sqlite3.Row | None:
    for row in await conn.execute_fetchall(sql, params):
        return row
    return None


async def fetch_all(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> list[sqlite3.Row]:
    return list(await conn.execute_fetchall(sql, params))


async def execute(conn: aiosqlite.Connection, sql: str, params: Params = ()) -> int:
    """Run one statement; return its row count (how the store checks conditional updates)."""
    cursor = await conn.execute(sql, params)
    return cursor.rowcount


async def execute_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Params]) -> None:
    await conn.executemany(sql, rows)

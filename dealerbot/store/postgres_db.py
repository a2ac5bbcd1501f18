"""PostgreSQL: an asyncpg pool; transactions run concurrently, table rows are locked.

The store's SQL is written once, with ``?`` or ``:name`` placeholders; :func:`translate`
turns it into PostgreSQL's ``$1 .. $n`` once per string. Where SQLite serialises every
writer (``BEGIN IMMEDIATE``), PostgreSQL runs transactions side by side at READ COMMITTED:
single conditional statements stay exact (the row is re-checked after a wait), and every
read-then-write transaction first locks the row it depends on (``lock_suffix`` =
``FOR UPDATE``; one table's work then runs one at a time, different tables in parallel).
``numeric`` results (``SUM`` of a BIGINT) come back as int (or float), as SQLite gives them.

Table writes are fenced (:mod:`.leases`): while the task's :data:`~.leases.FENCE` is set, a
transaction checks the table's lease epoch just before it commits (:func:`check_fence`), and
``reading()`` runs its one write in a transaction of its own (begun at that write) that
does the same; reads alone stay outside any transaction.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .db import Connection, Database, Params, Row
from .dburl import DatabaseTarget
from .errors import DatabaseUnavailable, LeaseLost
from .leases import FENCE, Fence, PostgresLeases, TableLeases

CONNECT_TIMEOUT_SECONDS = 5.0
# Advisory lock key held while migrating: two processes never migrate at once.
MIGRATION_LOCK = 0x6465616C6572  # "dealer"
RawConnection: TypeAlias = "asyncpg.Connection[Any] | PoolConnectionProxy[Any]"
_TOKEN = re.compile(r"'(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|::|\?|:([A-Za-z_][A-Za-z0-9_]*)")


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> tuple[str, tuple[str, ...] | None]:
    """``?`` -> ``$1, $2 ...``; ``:name`` -> ``$k`` (one number per name, in order of first use).

    Returns the new SQL and, for named parameters, the names in number order. Quoted text
    and ``::`` casts are left alone.
    """
    names: list[str] = []
    count = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal count
        token = match.group(0)
        if token == "?":
            count += 1
            return f"${count}"
        name = match.group(1)
        if name is None:
            return token
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    out = _TOKEN.sub(replace, sql)
    if names and count:
        raise ValueError("a statement mixes ? and :name placeholders")
    return out, (tuple(names) if names else None)


def _args(names: tuple[str, ...] | None, params: Params) -> Sequence[Any]:
    if isinstance(params, dict):
        if names is None:
            raise ValueError("named parameters given to a statement with ? placeholders")
        return [params[name] for name in names]
    return params


def _rows_changed(status: str) -> int:
    # "UPDATE 3", "DELETE 0", "INSERT 0 1": the last number is the row count.
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _numeric(text: str) -> int | float:
    return float(text) if any(c in text for c in ".eEN") else int(text)


async def _setup(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "numeric", encoder=str, decoder=_numeric, schema="pg_catalog", format="text"
    )


async def _no_reset(conn: asyncpg.Connection) -> None:
    """The pool's release hook: we keep no session state, so skip the RESET round trip."""


class PostgresConnection(Connection):
    backend = "postgresql"
    lock_suffix = " FOR UPDATE"

    def __init__(self, raw: RawConnection) -> None:
        self.raw = raw

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        text, names = translate(sql)
        return list(await self.raw.fetch(text, *_args(names, params)))

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        text, names = translate(sql)
        row: Row | None = await self.raw.fetchrow(text, *_args(names, params))
        return row

    async def execute(self, sql: str, params: Params = ()) -> int:
        text, names = translate(sql)
        return _rows_changed(await self.raw.execute(text, *_args(names, params)))

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        text, names = translate(sql)
        batch = [list(_args(names, r)) for r in rows]
        if batch:
            await self.raw.executemany(text, batch)

    @staticmethod
    def is_unique_violation(error: BaseException) -> bool:
        return isinstance(error, asyncpg.UniqueViolationError)


async def check_fence(conn: PostgresConnection, fence: Fence) -> None:
    """Inside a write transaction, just before COMMIT: the table's lease epoch is still this
    process's, held ``FOR SHARE`` until the commit (a newer holder's take waits for it);
    :class:`LeaseLost` (the transaction rolls back) when another process took the table."""
    held = await conn.raw.fetchval(
        "SELECT 1 FROM table_leases WHERE channel_id = $1 AND epoch = $2 FOR SHARE",
        fence.key,
        fence.epoch,
    )
    if held is None:
        raise LeaseLost(fence.key)


def _reads_only(sql: str) -> bool:
    return sql.lstrip()[:6].upper() == "SELECT"


class FencedReading(PostgresConnection):
    """``reading()`` under a fence: reads run as they are; the block's write (reading()
    allows one) begins a transaction that :meth:`finish` commits after :func:`check_fence`.
    A write that fails rolls back at once (as it would alone), so reads after it still run."""

    def __init__(self, raw: RawConnection, fence: Fence) -> None:
        super().__init__(raw)
        self.fence = fence
        self.began = False

    async def _begin(self) -> None:
        if not self.began:
            await self.raw.execute("BEGIN")
            self.began = True

    async def rollback(self) -> None:
        if self.began:
            self.began = False
            await self.raw.execute("ROLLBACK")

    async def finish(self) -> None:
        if not self.began:
            return
        try:
            await check_fence(self, self.fence)
        except BaseException:
            await self.rollback()
            raise
        self.began = False
        await self.raw.execute("COMMIT")

    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]:
        if _reads_only(sql):
            return await PostgresConnection.fetch_all(self, sql, params)
        await self._begin()
        try:
            return await PostgresConnection.fetch_all(self, sql, params)
        except BaseException:
            await self.rollback()
            raise

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        if _reads_only(sql):
            return await PostgresConnection.fetch_one(self, sql, params)
        await self._begin()
        try:
            return await PostgresConnection.fetch_one(self, sql, params)
        except BaseException:
            await self.rollback()
            raise

    async def execute(self, sql: str, params: Params = ()) -> int:
        await self._begin()
        try:
            return await PostgresConnection.execute(self, sql, params)
        except BaseException:
            await self.rollback()
            raise

    async def executemany(self, sql: str, rows: Iterable[Params]) -> None:
        await self._begin()
        try:
            await PostgresConnection.executemany(self, sql, rows)
        except BaseException:
            await self.rollback()
            raise


async def connect_pool(dsn: str, max_size: int = 10) -> asyncpg.Pool:
    """The pool, or DatabaseUnavailable with one line on what is wrong."""
    try:
        return await asyncpg.create_pool(
            dsn,
            min_size=1,
            max_size=max_size,
            timeout=CONNECT_TIMEOUT_SECONDS,
            init=_setup,
            reset=_no_reset,
        )
    except asyncpg.InvalidPasswordError:
        raise DatabaseUnavailable("the server refused the user name or password") from None
    except asyncpg.InvalidAuthorizationSpecificationError as exc:
        raise DatabaseUnavailable(f"the server refused the login ({exc})") from None
    except asyncpg.InvalidCatalogNameError:
        raise DatabaseUnavailable("the server has no database of that name") from None
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        reason = str(exc) or type(exc).__name__
        raise DatabaseUnavailable(f"cannot connect to the server ({reason})") from None


class PostgresDatabase(Database):
    backend = "postgresql"

    def __init__(
        self, pool: asyncpg.Pool, target: DatabaseTarget, clock: Callable[[], float]
    ) -> None:
        super().__init__(target, clock)
        self.pool = pool
        # The connection each task's outermost transaction holds (nested blocks reuse it).
        self._held: dict[asyncio.Task[Any], PostgresConnection] = {}

    @classmethod
    async def connect(
        cls, target: DatabaseTarget, clock: Callable[[], float], *, pool_size: int = 10
    ) -> PostgresDatabase:
        assert target.dsn is not None
        return cls(await connect_pool(target.dsn, pool_size), target, clock)

    async def close(self) -> None:
        await self.pool.close()

    async def open_leases(self, *, fencing: bool = True) -> TableLeases:
        """Advisory locks on a connection of their own, outside the pool (:mod:`.leases`)."""
        assert self.target.dsn is not None
        try:
            conn = await asyncpg.connect(self.target.dsn, timeout=CONNECT_TIMEOUT_SECONDS)
        except (OSError, TimeoutError, asyncpg.PostgresError) as exc:
            raise DatabaseUnavailable(f"cannot open the table-lease connection ({exc})") from None
        return PostgresLeases(conn, fencing=fencing)

    def _mine(self) -> PostgresConnection | None:
        task = asyncio.current_task()
        return None if task is None else self._held.get(task)

    @asynccontextmanager
    async def _holding(self, **options: Any) -> AsyncIterator[Connection]:
        task = asyncio.current_task()
        assert task is not None
        fence = None if options.get("readonly") else FENCE.get()
        async with self.pool.acquire() as raw:
            conn = PostgresConnection(raw)
            self._held[task] = conn
            try:
                async with raw.transaction(**options):
                    yield conn
                    if fence is not None:  # the last statement before COMMIT
                        await check_fence(conn, fence)
            finally:
                del self._held[task]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        mine = self._mine()
        if mine is not None:
            async with mine.raw.transaction():  # a SAVEPOINT inside the outer one
                yield mine
            return
        async with self._holding() as conn:
            yield conn

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        mine = self._mine()
        if mine is not None:
            yield mine
            return
        fence = FENCE.get()
        async with self.pool.acquire() as raw:
            if fence is None:
                yield PostgresConnection(raw)
                return
            fenced = FencedReading(raw, fence)
            try:
                yield fenced
            except BaseException:
                try:
                    await fenced.rollback()
                except BaseException:
                    raw.terminate()  # never back to the pool inside a transaction
                raise
            await fenced.finish()

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Connection]:
        mine = self._mine()
        if mine is not None:
            yield mine
            return
        async with self._holding(isolation="repeatable_read", readonly=True) as conn:
            yield conn

    async def schema_version(self) -> int:
        async with self.pool.acquire() as raw:
            return await _version(raw)

    async def apply_migration(self, version: int, body: str) -> bool:
        # The lock is taken before the transaction starts, so the transaction (and its
        # version check) sees whatever a process that held the lock before us committed.
        async with self.pool.acquire() as raw:
            await raw.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
            try:
                async with raw.transaction():
                    if await _version(raw) >= version:
                        return False
                    await raw.execute(body)  # no arguments: the simple protocol runs a file
                    await raw.execute(
                        "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
                        "DELETE FROM schema_version;"
                        f"INSERT INTO schema_version (version) VALUES ({int(version)})"
                    )
            finally:
                await raw.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        return True


async def _version(raw: RawConnection) -> int:
    exists = await raw.fetchval(
        "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables"
        " WHERE schemaname = current_schema() AND tablename = 'schema_version')"
    )
    if not exists:
        return 0
    value = await raw.fetchval("SELECT MAX(version) FROM schema_version")
    return int(value or 0)

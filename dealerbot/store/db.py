"""The store's handle on a database, whichever backend holds it: the contract alone.

:class:`Database` is what the table service holds; :func:`.opening.open_database` picks the
backend from a target: a path or ``sqlite:///path`` (SQLite through aiosqlite,
:mod:`.sqlite_db`) or ``postgresql://...`` (PostgreSQL through an asyncpg pool,
:mod:`.postgres_db`); both import this module, never the other way. Store
functions see only :class:`Connection`: SQL in one dialect with ``?`` (or ``:name``)
placeholders, rows addressed by column name or position, and the row count of a write.
Both backends give the same guarantees: a ``transaction()`` is atomic (nested ones are
savepoints), ``reading()`` never sees another task's half-done transaction, and a
table-scoped transaction that locks its table row (:meth:`Connection.lock_suffix`) runs
alone for that table.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Protocol

from .dburl import DatabaseTarget
from .leases import TableLeases

Params = Sequence[Any] | dict[str, Any]


class Row(Protocol):
    """A result row: by column name or position (sqlite3.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: Any, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
    def keys(self) -> Any: ...


class Connection(ABC):
    """What store functions get inside ``transaction()`` / ``reading()``."""

    backend: str
    # Appended to a SELECT that reads a row a transaction then changes: " FOR UPDATE" on
    # PostgreSQL (concurrent transactions), "" on SQLite (BEGIN IMMEDIATE already serialises).
    lock_suffix: str

    @abstractmethod
    async def fetch_all(self, sql: str, params: Params = ()) -> list[Row]: ...

    async def fetch_one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self.fetch_all(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Params]) -> None: ...

    async def executemany_at_commit(self, sql: str, rows: Iterable[Params]) -> None:
        """Rows nothing reads before the transaction ends (the stats rows): a backend may
        hold them and run them just before COMMIT, in the same round trip (SQLite: one hop
        fewer). Same transaction, same atomicity. Default: now."""
        await self.executemany(sql, rows)

    @staticmethod
    @abstractmethod
    def is_unique_violation(error: BaseException) -> bool:
        """Whether ``error`` is this backend's refusal of a duplicate key."""


class Database(ABC):
    """The store's handle: a backend, a clock, transactions (:func:`.opening.open_database`)."""

    backend: str
    target: DatabaseTarget

    def __init__(self, target: DatabaseTarget, clock: Callable[[], float]) -> None:
        self.target = target
        self._clock = clock

    @property
    def path(self) -> Path:
        """The SQLite file (a PostgreSQL database has none: its URL is ``target.display``)."""
        return Path(self.target.path or "")

    def now(self) -> float:
        return self._clock()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Connection]:
        """BEGIN ... COMMIT, or ROLLBACK on any exception; nested use is a SAVEPOINT."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Connection]:
        """A connection outside a transaction: reads, or ONE write statement (atomic alone).

        Never sees another task's half-done transaction; nested in this task's
        transaction, it joins it.
        """

    @abstractmethod
    def snapshot(self) -> AbstractAsyncContextManager[Connection]:
        """Several reads that see one consistent state (the audit)."""

    async def open_leases(self, *, fencing: bool = True) -> TableLeases:
        """The process's table leases (:mod:`.leases`): every one granted on SQLite (and
        nothing fenced); ``fencing`` False takes no epochs (PostgreSQL: ``db copy``)."""
        return TableLeases()

    # The migration runner's two backend-specific steps (see :mod:`.migrate`).
    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def apply_migration(self, version: int, body: str) -> bool:
        """Run one migration file and record ``version``, atomically.

        Returns False (and changes nothing) if the schema is already at ``version`` or past
        it, which happens when another process migrated first.
        """


# Function forms of the Connection methods (the store's modules call these).


async def fetch_one(conn: Connection, sql: str, params: Params = ()) -> Row | None:
    return await conn.fetch_one(sql, params)


async def fetch_all(conn: Connection, sql: str, params: Params = ()) -> list[Row]:
    return await conn.fetch_all(sql, params)


async def execute(conn: Connection, sql: str, params: Params = ()) -> int:
    """Run one statement; return its row count (how the store checks conditional updates)."""
    return await conn.execute(sql, params)


async def execute_many(conn: Connection, sql: str, rows: Iterable[Params]) -> None:
    await conn.executemany(sql, rows)

"""Table leases: which process runs a table, so that no table is run by two processes.

A lease is keyed by the table's channel id (a table is created for a channel, so two
processes racing to open one contend for the same key before either writes anything).
On PostgreSQL a lease is a session advisory lock, ``pg_try_advisory_lock(channel_id)``,
held on one connection of its own outside the pool for as long as the process runs
tables: the server lets it go the moment that connection ends (a process killed, even
with SIGKILL, frees its tables for a restarted or another process at once), and a
stalled process keeps it (no expiry that a pause could outlive, so no second dealer). If
the lease connection drops, every lease is gone: :attr:`PostgresLeases.lost` turns true,
``hold`` refuses from then on and ``on_lost`` callbacks run (the service stops its
tables). SQLite runs in one process per file, so every lease is granted.

Fencing (PostgreSQL): a lease lost while one of its table's writes is in flight must not
let that write land after another process took the table. Each take adds one to the
table's epoch (``table_leases``, 0015) on the lease connection, and while :data:`FENCE` is
set (:func:`fenced`: the table service sets it for each step of a table) every write
transaction checks, just before it commits, that the epoch is still the one this process
took (:func:`dealerbot.store.postgres_db.check_fence`, ``FOR SHARE``: a newer holder's
take waits for this commit, or this commit sees the newer epoch and rolls back with
:class:`~.errors.LeaseLost`). On SQLite nothing is fenced: one process owns the file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Fence:
    """This process's fencing token for one table: the lease's key and the epoch it took."""

    key: int
    epoch: int


FENCE: ContextVar[Fence | None] = ContextVar("dealerbot_table_fence", default=None)
"""The fence the current task's table writes commit under (None: not fenced)."""


@contextlib.contextmanager
def fenced(fence: Fence | None) -> Iterator[None]:
    """Table writes in this block (this task, and tasks it starts) commit under ``fence``."""
    token = FENCE.set(fence)
    try:
        yield
    finally:
        FENCE.reset(token)


# Taking a lease: the table's epoch goes up by one (waits for a write holding the old one).
TAKE_EPOCH = (
    "INSERT INTO table_leases (channel_id, epoch) VALUES ($1, 1) ON CONFLICT (channel_id)"
    " DO UPDATE SET epoch = table_leases.epoch + 1 RETURNING epoch"
)


class TableLeases:
    """Every lease granted: one process owns its SQLite file (and every table in it), so
    nothing is fenced either (:meth:`fence` is None)."""

    shared = False  # whether other processes can hold leases of this database

    def __init__(self) -> None:
        self.held: set[int] = set()
        self.lost = False
        self.on_lost: list[Callable[[], None]] = []

    async def hold(self, key: int) -> bool:
        """Take (or keep) the lease for ``key``; False if another process holds it."""
        self.held.add(key)
        return True

    def fence(self, key: int) -> Fence | None:
        """The token this process's writes to ``key``'s table commit under (None: none)."""
        return None

    async def release(self, key: int) -> None:
        self.held.discard(key)

    async def close(self) -> None:
        """Give every lease back."""
        self.held.clear()


class PostgresLeases(TableLeases):
    """Session advisory locks on a dedicated connection (see the module docstring).

    ``fencing`` False (``db copy``, which holds every lease only to keep bots off and
    writes no table): a take leaves the epochs alone, so the source is only read.
    """

    shared = True

    def __init__(self, conn: Any, *, fencing: bool = True) -> None:
        super().__init__()
        self._conn = conn
        self._fencing = fencing
        self.epochs: dict[int, int] = {}  # key -> the epoch this process took
        self._busy = asyncio.Lock()  # one statement at a time on the one connection
        conn.add_termination_listener(self._terminated)

    def _terminated(self, _conn: Any) -> None:
        if self.lost:
            return
        self.lost = True
        log.error("the table-lease connection to the database ended: every lease is gone")
        for callback in list(self.on_lost):
            callback()

    async def hold(self, key: int) -> bool:
        if self.lost:
            return False
        async with self._busy:
            if key in self.held:
                return True
            if not await self._conn.fetchval("SELECT pg_try_advisory_lock($1::bigint)", key):
                return False
            if self._fencing:
                try:
                    self.epochs[key] = int(await self._conn.fetchval(TAKE_EPOCH, key))
                except BaseException:
                    with contextlib.suppress(Exception):
                        await self._conn.fetchval("SELECT pg_advisory_unlock($1::bigint)", key)
                    raise
            self.held.add(key)
            return True

    def fence(self, key: int) -> Fence | None:
        """The epoch taken for ``key`` (0 if never taken here: every such write fails)."""
        return Fence(key, self.epochs.get(key, 0)) if self._fencing else None

    async def release(self, key: int) -> None:
        async with self._busy:
            if key in self.held and not self.lost:
                await self._conn.fetchval("SELECT pg_advisory_unlock($1::bigint)", key)
            self.held.discard(key)
            self.epochs.pop(key, None)

    async def close(self) -> None:
        self.lost = True  # a closing connection is not a lost one: no callbacks
        self.held.clear()
        self.epochs.clear()
        await self._conn.close()

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
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


class TableLeases:
    """Every lease granted: one process owns its SQLite file (and every table in it)."""

    def __init__(self) -> None:
        self.held: set[int] = set()
        self.lost = False
        self.on_lost: list[Callable[[], None]] = []

    async def hold(self, key: int) -> bool:
        """Take (or keep) the lease for ``key``; False if another process holds it."""
        self.held.add(key)
        return True

    async def release(self, key: int) -> None:
        self.held.discard(key)

    async def close(self) -> None:
        """Give every lease back."""
        self.held.clear()


class PostgresLeases(TableLeases):
    """Session advisory locks on a dedicated connection (see the module docstring)."""

    def __init__(self, conn: Any) -> None:
        super().__init__()
        self._conn = conn
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
            if await self._conn.fetchval("SELECT pg_try_advisory_lock($1::bigint)", key):
                self.held.add(key)
                return True
        return False

    async def release(self, key: int) -> None:
        async with self._busy:
            if key in self.held and not self.lost:
                await self._conn.fetchval("SELECT pg_advisory_unlock($1::bigint)", key)
            self.held.discard(key)

    async def close(self) -> None:
        self.lost = True  # a closing connection is not a lost one: no callbacks
        self.held.clear()
        await self._conn.close()

"""Which tables this process runs: the guilds on its shards, and a lease on each table.

Discord puts guild ``g`` on shard ``(g >> 22) % shard_count``; a process started with
some shards (SHARD_IDS of SHARD_COUNT) loads, resumes and runs only the tables of those
guilds. Each table it touches is leased in the database first (:mod:`dealerbot.store.leases`):
a second process started with overlapping shards by mistake cannot take a lease the
first holds, so it refuses to act on that table and logs why (the front end stays
silent: the other process answers). Every command, timer and resume of a table runs
under its lease, so no table is ever dealt, settled or timed out by two processes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from dealerbot.store.db import Database
from dealerbot.store.leases import TableLeases

from .errors import TableElsewhereError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards a process runs (``ids``) out of ``count``."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.count in self.ids


def shard_of(guild_id: int, count: int) -> int:
    """Discord's rule for which shard a guild's events arrive on."""
    return (guild_id >> 22) % count


class Ownership:
    """The shard filter and the leases; :meth:`claim` before acting on any table."""

    def __init__(self, shards: Shards | None) -> None:
        self.shards = shards
        self.leases = TableLeases()
        # Called (after the tables stop) if the leases are lost: the runner stops the process.
        self.on_lost: list[Callable[[], None]] = []

    def owns_guild(self, guild_id: int) -> bool:
        return self.shards is None or self.shards.owns(guild_id)

    async def start(self, db: Database, on_lost: Callable[[], None]) -> None:
        self.leases = await db.open_leases()
        self.leases.on_lost.append(on_lost)
        self.leases.on_lost.extend(self.on_lost)

    async def claim(self, guild_id: int, channel_id: int) -> None:
        """Return if this process may run the table; TableElsewhereError (logged) if not."""
        if not self.owns_guild(guild_id):
            log.warning("guild %s is not on this process's shards: not acting", guild_id)
            raise TableElsewhereError()
        if not await self.leases.hold(channel_id):
            why = "leases lost" if self.leases.lost else "another process holds its lease"
            log.warning("table in channel %s is run elsewhere (%s): not acting", channel_id, why)
            raise TableElsewhereError()

    async def close(self) -> None:
        await self.leases.close()
        self.leases = TableLeases()

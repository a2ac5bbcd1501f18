"""Which tables this process runs: the guilds on its shards, and a lease on each table.

Discord puts guild ``g`` on shard ``(g >> 22) % shard_count``; a process started with
some shards (SHARD_IDS of SHARD_COUNT) loads, resumes and runs only the tables of those
guilds. Each table it touches is leased in the database first (:mod:`dealerbot.store.leases`):
a second process started with overlapping shards by mistake cannot take a lease the
first holds, so it refuses to act on that table and logs why (the front end stays
silent: the other process answers). Every command, timer and resume of a table runs
under its lease, so no table is ever dealt, settled or timed out by two processes; and
under its fence (:meth:`Ownership.fenced`): on PostgreSQL a write in flight when the lease
was lost rolls back rather than land after another process took the table (SQLite: one
process per file, every lease granted, nothing to fence).

Several processes on one shard (PostgreSQL): each interaction is claimed in the database
before any work that takes no table lock (:meth:`Ownership.claim_interaction`: exactly one
process answers a command or button), and each process looks every
:data:`TAKEOVER_SECONDS` for tables of its shards whose lease nobody holds (their process
died) and takes them over, so their clocks run on within a turn.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Container
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from dataclasses import dataclass
from functools import partial
from typing import Any

from dealerbot.store import claims as claims_db
from dealerbot.store import leases as leases_db
from dealerbot.store import tables as tables_db
from dealerbot.store.db import Database
from dealerbot.store.leases import TableLeases
from dealerbot.store.tables import TableStatus

from .errors import TableElsewhereError, check_ids, store_errors_as_table_errors
from .timers import Clock, TaskTracker, Timer

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (guild id, channel id)
Command = Callable[[int, int], AbstractAsyncContextManager[Any]]  # the service's _command
TAKEOVER_SECONDS = 5.0  # how often a process looks for tables whose holder is gone
CLAIM_PRUNE_SECONDS = 600.0  # how often a process forgets old interaction claims


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
        self._db: Database | None = None
        self._next_prune = float("-inf")
        self._watch: Timer | None = None  # the takeover's timer, once the tables run
        self._resumer: Callable[..., Awaitable[None]] | None = None
        # Called (after the tables stop) if the leases are lost: the runner stops the process.
        self.on_lost: list[Callable[[], None]] = []

    def owns_guild(self, guild_id: int) -> bool:
        return self.shards is None or self.shards.owns(guild_id)

    async def start(self, db: Database, on_lost: Callable[[], None]) -> None:
        self._db = db
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

    async def run_tables(
        self, running: Container[Key], command: Command, clock: Clock, tracker: TaskTracker
    ) -> None:
        """Resume every open table of this process's guilds whose lease it gets (startup);
        then, where other processes hold leases (PostgreSQL), every :data:`TAKEOVER_SECONDS`
        those whose lease is free again (their process died), so their clocks run on."""
        self._watch = Timer(clock, tracker, "takeover")
        self._resumer = partial(self._resume_free, running, command)
        await self._resumer(startup=True)
        self._arm(clock)

    def _arm(self, clock: Clock) -> None:
        if self._watch is not None and self.leases.shared and not self.leases.lost:
            self._watch.arm(clock.now() + TAKEOVER_SECONDS, partial(self._take_over, clock))

    async def _take_over(self, clock: Clock) -> None:
        try:
            if self._resumer is not None:
                await self._resumer(startup=False)
        except Exception:
            log.exception("looking for tables to take over failed; trying again")
        finally:
            self._arm(clock)

    async def _resume_free(
        self, running: Container[Key], command: Command, *, startup: bool
    ) -> None:
        """Load each open table of this process's guilds not ``running`` here (a closing one
        with no hand left closes); after the startup only those whose lease was free."""
        assert self._db is not None, "start() first"
        for record in await tables_db.list_tables(
            self._db, statuses=(TableStatus.OPEN, TableStatus.CLOSING)
        ):
            key = (record.guild_id, record.channel_id)
            if key in running or not self.owns_guild(key[0]):
                continue
            if not startup:  # asked quietly: a lease held elsewhere is no news
                if not await self.leases.hold(key[1]):
                    continue
                log.warning("taking over the table in channel %s: its lease was free", key[1])
            with contextlib.suppress(TableElsewhereError):  # another process runs it
                async with command(*key) as ref:
                    table = ref.table
                    idle = table is not None and table.hand is None  # nothing to finish
                    if idle and table.status is TableStatus.CLOSING:
                        await table.close()

    def stop_watching(self) -> None:
        """No more takeovers (the service stops, or its leases are lost)."""
        if self._watch is not None:
            self._watch.stop()

    def fenced(self, channel_id: int) -> AbstractContextManager[None]:
        """Table writes in this block commit only while the table's lease is still this
        process's (PostgreSQL: its epoch; SQLite: no fence)."""
        return leases_db.fenced(self.leases.fence(channel_id))

    async def claim_interaction(self, db: Database, interaction_id: int, now: float) -> bool:
        """Whether this process is the one to act on a Discord interaction (True once per id
        across every process on the database). SQLite: always True, without a write: the
        bot holds the database's lock file (one process per file, one gateway session per
        shard in it), so no other process receives the interaction. PostgreSQL: one insert
        decides; old claims are pruned every :data:`CLAIM_PRUNE_SECONDS`."""
        check_ids(interaction_id)
        if db.backend == "sqlite":
            return True
        with store_errors_as_table_errors():
            if now >= self._next_prune:
                self._next_prune = now + CLAIM_PRUNE_SECONDS
                await claims_db.prune(db)
            return await claims_db.claim(db, interaction_id)

    async def close(self) -> None:
        await self.leases.close()
        self.leases = TableLeases()

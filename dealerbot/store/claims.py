"""Interaction claims (0015): each Discord interaction is acted on by exactly one process.

Two processes given the same shard both receive every interaction of its guilds. Before
acting on one, a process claims its id: ONE conditional insert (``ON CONFLICT DO NOTHING``)
whose row count says whether this process won (1) or another got there first (0), on both
backends and however many processes race. Claims are kept :data:`KEEP_SECONDS` (Discord
takes an answer for 15 minutes at most, so an older id never comes again) and pruned by
age, through the ``claimed_at`` index.
"""

from __future__ import annotations

from .db import Database, execute
from .validate import check_id

KEEP_SECONDS = 3600.0


async def claim(db: Database, interaction_id: int) -> bool:
    """Claim ``interaction_id`` for this process: True if it is ours to act on, False if
    another process (or an earlier call) claimed it first. Atomic on its own."""
    check_id(interaction_id, "interaction id")
    async with db.reading() as conn:
        won = await execute(
            conn,
            "INSERT INTO claimed_interactions (id, claimed_at) VALUES (?, ?)"
            " ON CONFLICT (id) DO NOTHING",
            (interaction_id, db.now()),
        )
    return won == 1


async def prune(db: Database, *, keep_seconds: float = KEEP_SECONDS) -> int:
    """Forget claims older than ``keep_seconds``; returns how many went."""
    async with db.reading() as conn:
        return await execute(
            conn,
            "DELETE FROM claimed_interactions WHERE claimed_at < ?",
            (db.now() - keep_seconds,),
        )

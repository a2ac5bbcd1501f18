"""Two processes on one shard answer each interaction once (issue 23, bug 2, service side).

Each "process" is a table service with its own database handle on one PostgreSQL database,
as two bot processes started on the same shard would be. Both receive every interaction;
each claims the interaction's id before acting, and exactly one wins each id, however the
two race. On SQLite the claim is always granted without a write (one process per file).
"""

from __future__ import annotations

import asyncio
import random

import pytest

from dealerbot.tables.errors import TableError
from tests.tables.helpers import GUILD, make_harness

FIRST = 1_300_000_000_000_000_000  # interaction ids are snowflakes


@pytest.mark.backends("postgresql")
async def test_two_processes_claiming_the_same_ids_at_once_win_each_exactly_once(
    db_url: str,
) -> None:
    a, b = await make_harness(db_url, seed=1), await make_harness(db_url, seed=2)
    try:
        ids = [FIRST + n for n in range(300)]
        calls = [(a, i) for i in ids] + [(b, i) for i in ids]
        random.Random(5).shuffle(calls)  # interleaved, each process's claims racing the other's
        won = await asyncio.gather(*(h.service.claim_interaction(i) for h, i in calls))
        winners: dict[int, list[str]] = {i: [] for i in ids}
        for (h, i), ours in zip(calls, won, strict=True):
            if ours:
                winners[i].append("a" if h is a else "b")
        assert all(len(names) == 1 for names in winners.values()), winners
        assert {name for names in winners.values() for name in names} == {"a", "b"}
        assert await a.service.claim_interaction(ids[0]) is False  # asked again: still no
        assert await b.service.claim_interaction(ids[0]) is False
    finally:
        await a.close()
        await b.close()


@pytest.mark.backends("postgresql")
async def test_an_admin_grant_seen_by_both_processes_moves_chips_once(db_url: str) -> None:
    """What the bot does with the claim: only the winner acts (`/stud-admin chips` had
    moved 1,000 in two ledger rows when both processes ran it)."""
    a, b = await make_harness(db_url, seed=1), await make_harness(db_url, seed=2)
    try:
        start = (await a.service.balance(GUILD, 7)).chips  # dave's wallet
        ((before,),) = await a.fetch("SELECT COUNT(*) FROM ledger")

        async def process(h, interaction_id: int) -> str:
            if not await h.service.claim_interaction(interaction_id):
                return "silent"
            await h.service.admin_adjust(GUILD, 7, 500, "grant")
            return "answered"

        said = await asyncio.gather(process(a, FIRST), process(b, FIRST))
        assert sorted(said) == ["answered", "silent"]
        ((after,),) = await a.fetch("SELECT COUNT(*) FROM ledger")
        assert after - before == 1  # one grant, one ledger row
        assert (await b.service.balance(GUILD, 7)).chips == start + 500
        await a.audit_ok()
    finally:
        await a.close()
        await b.close()


async def test_a_claim_on_sqlite_is_granted_without_a_write_and_pg_claims_once(
    db_url: str, backend: str
) -> None:
    h = await make_harness(db_url)
    try:
        first = await h.service.claim_interaction(FIRST)
        second = await h.service.claim_interaction(FIRST)
        rows = await h.fetch("SELECT id FROM claimed_interactions")
        if backend == "sqlite":  # the lock file: no other process receives it
            assert (first, second, rows) == (True, True, [])
        else:
            assert (first, second, rows) == (True, False, [(FIRST,)])
        with pytest.raises(TableError, match="not a valid id"):
            await h.service.claim_interaction(0)
    finally:
        await h.close()


@pytest.mark.backends("postgresql")
async def test_old_claims_are_pruned_by_a_later_claim(db_url: str) -> None:
    h = await make_harness(db_url)
    try:
        assert await h.service.claim_interaction(FIRST)
        await h.clock.advance(3601)  # the service's clock: the prune is due, the claim is old
        assert await h.service.claim_interaction(FIRST + 1)
        assert await h.fetch("SELECT id FROM claimed_interactions") == [(FIRST + 1,)]
    finally:
        await h.close()

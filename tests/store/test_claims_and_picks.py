"""Interaction claims and dealer's-choice picks in the store (0015), on both backends.

A claim is one conditional insert whose row count says who won; claims go after an hour.
A table's picks keep their number when answered or reset, so an old button stays old.
"""

from __future__ import annotations

import pytest

from dealerbot.store import claims, rotations, tables
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.errors import InvalidId
from dealerbot.store.rotations import PickRow

from .conftest import ALICE, CHANNEL, GUILD, FakeClock

INTERACTION = 1_300_000_000_000_000_001


async def claimed(db: Database) -> list[int]:
    async with db.reading() as conn:
        rows = await fetch_all(conn, "SELECT id FROM claimed_interactions ORDER BY id")
    return [int(row[0]) for row in rows]


async def test_an_interaction_is_claimed_once(db: Database) -> None:
    assert await claims.claim(db, INTERACTION) is True
    assert await claims.claim(db, INTERACTION) is False  # the loser: someone acted on it
    assert await claims.claim(db, INTERACTION + 1) is True
    assert await claimed(db) == [INTERACTION, INTERACTION + 1]


@pytest.mark.parametrize("bad", [0, -5, True, "12", 2**63])
async def test_a_bad_interaction_id_is_refused_and_writes_nothing(db: Database, bad) -> None:
    with pytest.raises(InvalidId):
        await claims.claim(db, bad)
    assert await claimed(db) == []


async def test_claims_older_than_an_hour_are_pruned(db: Database, clock: FakeClock) -> None:
    await claims.claim(db, INTERACTION)
    clock.advance(claims.KEEP_SECONDS - 1)
    await claims.claim(db, INTERACTION + 1)
    assert await claims.prune(db) == 0
    clock.advance(2)
    assert await claims.prune(db) == 1
    assert await claimed(db) == [INTERACTION + 1]


async def test_a_pick_keeps_its_number_when_answered_or_reset(db: Database) -> None:
    await tables.open_table(db, GUILD, CHANNEL)
    record = await tables.find_table(db, GUILD, CHANNEL)
    assert record is not None
    assert await rotations.get_pick(db, record.id) is None
    waiting = PickRow(1, ALICE, 3, "alice", 1_700_000_020.0)
    await rotations.put_pick(db, record.id, waiting)
    assert await rotations.get_pick(db, record.id) == waiting and waiting.waiting
    await rotations.end_pick(db, record.id)
    assert await rotations.get_pick(db, record.id) == PickRow(1)
    await rotations.put_pick(db, record.id, PickRow(2, ALICE, 0, "alice", 1_700_000_099.0))
    await rotations.reset_rotation(db, record.id)  # a settings change forgets the rotation
    assert (await rotations.get_pick(db, record.id) or PickRow(0)).pick_id == 2

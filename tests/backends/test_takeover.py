"""A dead holder's tables run on (issue 23): the surviving process on the same shards sees
their leases free and takes them over, and their clocks run within the turn.

Each "process" is a table service with its own database handle on one PostgreSQL database.
The holder's death is its lease connection dropped (the server frees its advisory locks at
once, as at a SIGKILL) and its pool closed; nobody clicks anything afterwards.
"""

from __future__ import annotations

import pytest

from dealerbot.tables import events as ev
from dealerbot.tables.ownership import TAKEOVER_SECONDS
from tests.tables.helpers import CHANNEL, GUILD, Harness, make_harness, passive, seat_players

pytestmark = pytest.mark.backends("postgresql")


async def die(h: Harness) -> None:
    """The process is gone: its connections end, its timers with it."""
    h.service.tracker.stopped = True
    h.service._stop_tables()
    h.service.ownership.leases._conn.terminate()
    await h.db.pool.close()


async def test_a_dead_holder_s_turn_times_out_on_the_survivor_within_the_turn(
    db_url: str,
) -> None:
    a = await make_harness(db_url, seed=1)
    b = await make_harness(db_url, seed=2)  # started while a runs: a keeps its table
    try:
        await a.service.config_set(GUILD, CHANNEL, time_bank_seconds=0)
        await seat_players(a.service, [1, 2, 3])
        await a.service.start(GUILD, CHANNEL)
        turn = a.recorder.last_turn()
        assert turn is not None
        turn_seconds = (await a.service.table_view(GUILD, CHANNEL)).stakes.turn_seconds
        await b.advance(TAKEOVER_SECONDS)  # a alive: b looks and leaves the table alone
        assert b.service._tables == {} and b.recorder.events == []
        await die(a)
        waited = 0.0
        while not b.recorder.of(ev.PlayerTimedOut) and waited < turn_seconds:
            await b.advance(1)
            waited += 1
        (timed_out,) = b.recorder.of(ev.PlayerTimedOut)  # nobody clicked: b's clock ran it
        assert (timed_out.hand_id, timed_out.user_id) == (turn.hand_id, turn.user_id)
        assert waited <= turn_seconds
        nxt = b.recorder.last_turn()
        assert nxt is not None and nxt.seq == turn.seq + 1
        await b.service.act(GUILD, CHANNEL, nxt.user_id, nxt.hand_id, nxt.seq, passive(nxt))
        await b.audit_ok()
    finally:
        await b.close()


async def test_a_table_between_hands_deals_its_next_hand_on_the_survivor(db_url: str) -> None:
    a = await make_harness(db_url, seed=1)
    b = await make_harness(db_url, seed=2)
    try:
        await seat_players(a.service, [1, 2])  # the between-hands timer is armed on a
        await die(a)
        await b.advance(TAKEOVER_SECONDS)
        assert (GUILD, CHANNEL) in b.service._tables
        delay = (await b.service.table_view(GUILD, CHANNEL)).stakes.delay_seconds
        await b.advance(delay)
        assert len(b.recorder.of(ev.HandStarted)) == 1
        await b.audit_ok()
    finally:
        await b.close()

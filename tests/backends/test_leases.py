"""Sharded processes on one PostgreSQL: each table is run by exactly one of them.

Each "process" here is a table service with its own database handle (its own pool and
lease connection), as two bot processes would have. A table's lease is an advisory lock
held on that connection: the other process refuses to act on the table (and writes
nothing), takes it over as soon as the holder's connection ends (as at a SIGKILL), and a
process only loads the guilds on its shards.
"""

from __future__ import annotations

import asyncio

import pytest

from dealerbot.tables import events as ev
from dealerbot.tables.errors import TableElsewhereError
from dealerbot.tables.ownership import Shards, shard_of
from tests.tables.helpers import CHANNEL, GUILD, Harness, make_harness, passive, seat_players

pytestmark = pytest.mark.backends("postgresql")

OTHER_GUILD = (1 << 22) + 7  # on shard 1 of 2 (GUILD = 111 is on shard 0)


async def two_processes(url: str) -> tuple[Harness, Harness]:
    return await make_harness(url, seed=1), await make_harness(url, seed=2)


async def rows(h: Harness) -> dict[str, list[tuple]]:
    return {
        "ledger": await h.fetch("SELECT id FROM ledger ORDER BY id"),
        "actions": await h.fetch("SELECT hand_id, seq FROM hand_actions ORDER BY 1, 2"),
        "seats": await h.fetch("SELECT table_id, user_id, stack FROM seats ORDER BY 1, 2"),
    }


async def test_a_table_is_run_by_the_process_that_took_it(db_url: str) -> None:
    a, b = await two_processes(db_url)
    try:
        await seat_players(a.service, [1, 2])  # a opens the table: a holds its lease
        await a.service.start(GUILD, CHANNEL)
        turn = a.recorder.last_turn()
        assert turn is not None
        before = await rows(a)
        for call in (
            b.service.join(GUILD, CHANNEL, 3, "Carol"),
            b.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn)),
            b.service.table_view(GUILD, CHANNEL),
            b.service.close_table(GUILD, CHANNEL),
        ):
            with pytest.raises(TableElsewhereError):
                await call
        assert await rows(a) == before  # b wrote nothing
        assert b.recorder.events == []  # and said nothing
        await a.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
        # A table b opens is b's: a refuses it in turn.
        await seat_players(b.service, [4, 5], channel=CHANNEL + 1)
        with pytest.raises(TableElsewhereError):
            await a.service.join(GUILD, CHANNEL + 1, 6, "Frank")
    finally:
        await a.close()
        await b.close()


async def test_the_same_tables_at_two_startups_are_split_never_shared(new_db_url) -> None:
    url = await new_db_url("room")
    setup = await make_harness(url)
    channels = [CHANNEL + i for i in range(6)]
    for channel in channels:
        await seat_players(setup.service, [1, 2], channel=channel)
    await setup.close()
    # Both start at once on the same shards (the operator's mistake).
    a, b = await two_processes(url)
    try:
        ran_a = {key[1] for key in a.service._tables}
        ran_b = {key[1] for key in b.service._tables}
        assert ran_a | ran_b == set(channels) and not ran_a & ran_b
        for channel in channels:
            owner, other = (a, b) if channel in ran_a else (b, a)
            await owner.service.table_view(GUILD, channel)
            with pytest.raises(TableElsewhereError):
                await other.service.table_view(GUILD, channel)
    finally:
        await a.close()
        await b.close()


async def test_a_killed_process_s_hand_is_resumed_by_its_replacement(db_url: str) -> None:
    a = await make_harness(db_url, seed=1)
    await seat_players(a.service, [1, 2, 3])
    await a.service.start(GUILD, CHANNEL)
    for _ in range(3):
        turn = a.recorder.last_turn()
        assert turn is not None
        await a.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
    waiting = a.recorder.last_turn()
    assert waiting is not None
    b = await make_harness(db_url, seed=2)  # started while a still runs: a keeps the table
    try:
        assert b.service._tables == {}
        # a dies without a word: its connections end (the server frees its lease) ...
        a.service.tracker.stopped = True
        a.service._stop_tables()
        a.service.ownership.leases._conn.terminate()
        await a.db.pool.close()
        # ... and the replacement (here: b, restarted) resumes the hand where it was.
        await b.restart(seed=3)
        resumed = b.recorder.last_turn()
        assert resumed is not None
        assert (resumed.hand_id, resumed.seq, resumed.user_id) == (
            waiting.hand_id,
            waiting.seq,
            waiting.user_id,
        )
        await b.service.act(
            GUILD, CHANNEL, resumed.user_id, resumed.hand_id, resumed.seq, passive(resumed)
        )
        await b.audit_ok()
    finally:
        await b.close()


async def test_a_process_runs_only_the_guilds_on_its_shards(db_url: str) -> None:
    assert (shard_of(GUILD, 2), shard_of(OTHER_GUILD, 2)) == (0, 1)
    setup = await make_harness(db_url)
    await seat_players(setup.service, [1, 2], guild=GUILD)
    await seat_players(setup.service, [1, 2], guild=OTHER_GUILD)
    await setup.close()
    zero = await make_harness(db_url)
    await zero.service.shutdown()
    zero.service.ownership.shards = Shards(2, frozenset({0}))
    zero.service.tracker.stopped = False
    await zero.service.startup()
    try:
        assert set(zero.service._tables) == {(GUILD, CHANNEL)}
        with pytest.raises(TableElsewhereError):
            await zero.service.join(OTHER_GUILD, CHANNEL + 5, 9, "Ivan")
        assert await zero.fetch("SELECT COUNT(*) FROM tables") == [(2,)]
    finally:
        await zero.close()


async def test_a_lost_lease_connection_stops_every_table(db_url: str) -> None:
    a = await make_harness(db_url)
    stopped: list[str] = []  # what the runner does: stop the process
    await a.service.shutdown()
    a.service.ownership.on_lost.append(lambda: stopped.append("process"))
    a.service.tracker.stopped = False
    await a.service.startup()
    try:
        await seat_players(a.service, [1, 2])
        await a.service.start(GUILD, CHANNEL)
        assert a.service._tables
        a.service.ownership.leases._conn.terminate()  # the server or network drops it
        for _ in range(200):  # the driver reports the end from its event loop
            if a.service.ownership.leases.lost:
                break
            await asyncio.sleep(0.01)
        assert a.service._tables == {}
        assert stopped == ["process"]
        with pytest.raises(TableElsewhereError):
            await a.service.table_view(GUILD, CHANNEL)
        assert not a.recorder.of(ev.HandEnded)  # nothing settled behind anyone's back
    finally:
        await a.close()

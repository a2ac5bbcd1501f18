"""Lease fencing (issue 23, left open): a table write in flight when its lease is lost never
lands after another process took the table.

Each take of a table's lease raises its epoch; every table write transaction checks, last
thing before COMMIT, that the epoch is still its process's (``FOR SHARE``). The lease is lost
here at the worst moments, by a hook around that check: before it (the new holder's epoch
makes the old holder's commit fail, nothing of it written) and after it (the new holder's
take waits for the old commit, then sees it). PostgreSQL only: on SQLite one process owns
the file, every lease is granted and nothing is fenced.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from dealerbot.engine import ActionKind
from dealerbot.store import postgres_db
from dealerbot.tables import events as ev
from dealerbot.tables.errors import TableElsewhereError
from tests.tables.helpers import (
    CHANNEL,
    GUILD,
    Harness,
    action_count,
    make_harness,
    passive,
    seat_players,
    snapshot,
)

pytestmark = pytest.mark.backends("postgresql")


async def lose_lease(old: Harness) -> None:
    """The old holder's lease connection drops; wait until the server freed its locks."""
    old.service.ownership.leases._conn.terminate()
    for _ in range(300):
        rows = await old.fetch(
            "SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = ?"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            (CHANNEL,),
        )
        if rows == [(0,)]:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the server kept the dead connection's lease")


def hook_check(
    monkeypatch: pytest.MonkeyPatch,
    around: Callable[[Callable[[], Awaitable[None]]], Awaitable[None]],
) -> list[int]:
    """Run ``around(check)`` instead of the fence check, once; returns the epochs seen."""
    real = postgres_db.check_fence
    seen: list[int] = []

    async def hooked(conn, fence) -> None:
        seen.append(fence.epoch)
        if len(seen) > 1:
            await real(conn, fence)
            return
        await around(lambda: real(conn, fence))

    monkeypatch.setattr(postgres_db, "check_fence", hooked)
    return seen


async def dealt(db_url: str, players: list[int]) -> tuple[Harness, Harness]:
    old = await make_harness(db_url, seed=1)
    new = await make_harness(db_url, seed=2)  # on the same shards: old holds the table
    await seat_players(old.service, players, buy_in=200)
    await old.service.start(GUILD, CHANNEL)
    return old, new


@pytest.mark.parametrize("write", ["action", "settlement"])
async def test_a_lease_lost_before_the_commit_fails_the_old_holder_s_write(
    db_url: str, monkeypatch: pytest.MonkeyPatch, write: str
) -> None:
    old, new = await dealt(db_url, [1, 2])
    try:
        turn = old.recorder.last_turn()
        assert turn is not None
        if write == "settlement":  # the bring-in, then a fold settles the hand in one go
            await old.service.act(
                GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn)
            )
            turn = old.recorder.last_turn()
            assert turn is not None
        kind = ActionKind.FOLD if write == "settlement" else passive(turn)
        before = await snapshot(old)

        async def taken_over_first(check: Callable[[], Awaitable[None]]) -> None:
            await lose_lease(old)
            assert await new.service.ownership.leases.hold(CHANNEL)  # epoch 2
            await check()

        seen = hook_check(monkeypatch, taken_over_first)
        with pytest.raises(TableElsewhereError):
            await old.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
        assert seen[0] == 1  # the old holder wrote under its epoch: refused at the commit
        assert await snapshot(old) == before  # nothing half-written
        # The new holder runs the hand from where it was.
        view = await new.service.table_view(GUILD, CHANNEL)
        assert (view.hand_id, view.seq, view.to_act_user) == (turn.hand_id, turn.seq, turn.user_id)
        await new.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
        await new.audit_ok()
    finally:
        await old.close()
        await new.close()


async def test_a_lease_lost_after_the_check_lets_the_commit_land_before_the_new_holder(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    old, new = await dealt(db_url, [1, 2, 3])
    try:
        turn = old.recorder.last_turn()
        assert turn is not None
        taking: list[asyncio.Task[bool]] = []

        async def taken_over_after(check: Callable[[], Awaitable[None]]) -> None:
            await check()  # the epoch is ours, and held FOR SHARE until the commit
            await lose_lease(old)
            taking.append(asyncio.ensure_future(new.service.ownership.leases.hold(CHANNEL)))
            await asyncio.sleep(0.3)
            assert not taking[0].done()  # the new holder's take waits for this commit

        hook_check(monkeypatch, taken_over_after)
        await old.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
        assert await taking[0] is True
        assert await action_count(new, turn.hand_id) == turn.seq + 1  # the old write landed
        view = await new.service.table_view(GUILD, CHANNEL)  # ... and the new holder sees it
        assert (view.hand_id, view.seq) == (turn.hand_id, turn.seq + 1)
        assert new.recorder.of(ev.TableChanged)[-1].actions[-1].seq == turn.seq
        await new.service.act(GUILD, CHANNEL, view.to_act_user, view.hand_id, view.seq, "fold")
        with pytest.raises(TableElsewhereError):  # the old holder writes no more
            await old.service.table_view(GUILD, CHANNEL)
        await new.audit_ok()
    finally:
        await old.close()
        await new.close()


async def test_each_take_of_a_lease_raises_its_epoch(db_url: str) -> None:
    old, new = await dealt(db_url, [1, 2])
    try:
        assert await old.fetch("SELECT channel_id, epoch FROM table_leases") == [(CHANNEL, 1)]
        await lose_lease(old)
        assert await new.service.ownership.leases.hold(CHANNEL)
        assert await new.fetch("SELECT channel_id, epoch FROM table_leases") == [(CHANNEL, 2)]
        assert new.service.ownership.leases.fence(CHANNEL).epoch == 2
    finally:
        await old.close()
        await new.close()

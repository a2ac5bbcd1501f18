"""Stale, repeated, concurrent and out-of-turn submissions: applied once or not at all."""

from __future__ import annotations

import asyncio

import pytest

from dealerbot.engine.events import ActionKind
from dealerbot.tables import errors
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, action_count, passive, play_hand, seat_players, snapshot


async def _started(harness, users=(1, 2, 3)) -> ev.Turn:
    await seat_players(harness.service, users)
    await harness.service.start(GUILD, CHANNEL)
    turn = harness.recorder.last_turn()
    assert turn is not None
    return turn


async def test_fifty_identical_submissions_apply_exactly_one(harness):
    h = harness
    turn = await _started(h)
    kind = passive(turn)
    before = await action_count(h, turn.hand_id)
    results = await asyncio.gather(
        *(
            h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
            for _ in range(50)
        ),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(applied) == 1 and len(refused) == 49
    assert all(isinstance(r, errors.TableError) for r in refused)
    assert await action_count(h, turn.hand_id) == before + 1
    taken = [a for a in h.recorder.of(ev.ActionTaken) if a.seq == turn.seq]
    assert len(taken) == 1 and taken[0].user_id == turn.user_id
    await play_hand(h, passive)
    await h.audit_ok()


async def test_concurrent_different_submissions_for_one_turn_apply_one(harness):
    h = harness
    turn = await _started(h)
    kinds = [o.kind for o in turn.options]
    results = await asyncio.gather(
        *(
            h.service.act(
                GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kinds[i % len(kinds)]
            )
            for i in range(20)
        ),
        return_exceptions=True,
    )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert len([a for a in h.recorder.of(ev.ActionTaken) if a.seq == turn.seq]) == 1


async def test_a_player_not_to_act_changes_nothing(harness):
    h = harness
    turn = await _started(h)
    other = next(u for u in (1, 2, 3) if u != turn.user_id)
    before = await snapshot(h)
    view_before = await h.service.table_view(GUILD, CHANNEL)
    for kind in ActionKind:
        with pytest.raises(errors.OutOfTurnError, match="not your turn"):
            await h.service.act(GUILD, CHANNEL, other, turn.hand_id, turn.seq, kind)
    assert await snapshot(h) == before
    assert await h.service.table_view(GUILD, CHANNEL) == view_before


async def test_old_hand_and_old_or_future_seq_change_nothing(harness):
    h = harness
    turn = await _started(h)
    await play_hand(h, passive)
    await h.service.start(GUILD, CHANNEL)
    new_turn = h.recorder.last_turn()
    assert new_turn is not None and new_turn.hand_id != turn.hand_id
    before = await snapshot(h)
    with pytest.raises(errors.StaleActionError, match="old hand"):
        await h.service.act(
            GUILD, CHANNEL, new_turn.user_id, turn.hand_id, new_turn.seq, passive(new_turn)
        )
    for seq in (new_turn.seq + 1, new_turn.seq + 100, -1):
        with pytest.raises(errors.StaleActionError):
            await h.service.act(
                GUILD, CHANNEL, new_turn.user_id, new_turn.hand_id, seq, passive(new_turn)
            )
    with pytest.raises(errors.StaleActionError):
        await h.service.act(GUILD, CHANNEL, new_turn.user_id, "x", new_turn.seq, "check")
    assert await snapshot(h) == before


async def test_an_earlier_button_of_the_same_player_is_refused(harness):
    h = harness
    turn = await _started(h, users=(1, 2))
    await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
    # Heads-up: play on until the same player is to act again, then reuse his old button.
    while True:
        current = h.recorder.last_turn()
        assert current is not None
        if current.user_id == turn.user_id:
            break
        await h.service.act(
            GUILD, CHANNEL, current.user_id, current.hand_id, current.seq, passive(current)
        )
    before = await snapshot(h)
    with pytest.raises(errors.StaleActionError, match="out of date"):
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
    assert await snapshot(h) == before


async def test_an_illegal_action_is_refused_with_the_choices(harness):
    h = harness
    turn = await _started(h)
    illegal = next(
        k for k in (ActionKind.CHECK, ActionKind.BET) if k not in {o.kind for o in turn.options}
    )
    before = await snapshot(h)
    with pytest.raises(errors.IllegalMoveError, match="Your choices"):
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, illegal)
    with pytest.raises(errors.IllegalMoveError, match="Unknown action"):
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, "shove")
    assert await snapshot(h) == before


async def test_a_seated_player_not_dealt_in_is_told_so(harness):
    h = harness
    turn = await _started(h)
    await h.service.join(GUILD, CHANNEL, 7, "Late")
    with pytest.raises(errors.NotInHandError):
        await h.service.act(GUILD, CHANNEL, 7, turn.hand_id, turn.seq, ActionKind.FOLD)


async def test_memory_behind_the_log_is_refused_and_resynced(harness):
    """If the log ever moves on without the service (it should not), the log wins."""
    from dealerbot.store import hand_actions as actions_db

    h = harness
    turn = await _started(h)
    kind = passive(turn)
    # Someone else logged this very action (as a second process would).
    await actions_db.append_action(
        h.db, turn.hand_id, turn.seq, turn.seat, kind.value, action_deadline=None
    )
    with pytest.raises(errors.StaleActionError, match="already taken"):
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
    resynced = h.recorder.last_turn()
    assert resynced is not None and resynced.seq == turn.seq + 1
    assert await action_count(h, turn.hand_id) == turn.seq + 1
    await play_hand(h, passive)
    await h.audit_ok()

"""Crash recovery in-process: restart on the same database mid-hand; corrupted logs refund."""

from __future__ import annotations

import random

import pytest

from dealerbot.engine.events import ActionKind
from dealerbot.store import hand_actions as actions_db
from dealerbot.store import hands as hands_db
from dealerbot.store import ledger as ledger_db
from dealerbot.store.hands import HandStatus
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, make_harness, passive, pick, play_hand, seat_players, snapshot

STORY = (ev.ActionTaken, ev.StreetDealt, ev.CardsExposed, ev.Showdown, ev.HandEnded, ev.Turn)


def _story(events: list[ev.TableEvent]) -> list[ev.TableEvent]:
    return [e for e in events if isinstance(e, STORY)]


async def _play(h, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        turn = h.recorder.last_turn()
        assert turn is not None
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, pick(turn, rng))


@pytest.mark.parametrize("cut", [0, 1, 4, 9])
async def test_restart_mid_hand_continues_identically(new_db_url, cut):
    plain = await make_harness(await new_db_url("plain.sqlite3"), seed=5)
    crashed = await make_harness(await new_db_url("crashed.sqlite3"), seed=5)
    try:
        for h in (plain, crashed):
            await seat_players(h.service, [1, 2, 3, 4], buy_in=150)
            await h.service.start(GUILD, CHANNEL)
            await _play(h, random.Random(8), cut)
        turn_before = crashed.recorder.last_turn()
        mark = len(crashed.recorder.events)
        await crashed.restart(seed=1234)  # a different RNG: the hand must not depend on it
        resumed = crashed.recorder.last_turn()
        assert resumed == turn_before  # same hand, same action number, same deadline
        tail_plain = len(plain.recorder.events)
        ended = []
        for h in (plain, crashed):
            ended.append(await play_hand(h, rng=random.Random(9)))
        assert ended[0] == ended[1]
        after_plain = _story(plain.recorder.events[tail_plain:])
        after_crash = _story(crashed.recorder.events[mark:])[1:]  # minus the re-sent Turn
        assert after_plain == after_crash
        assert (await plain.service.table_view(GUILD, CHANNEL)).seats == (
            await crashed.service.table_view(GUILD, CHANNEL)
        ).seats
        await crashed.audit_ok()
    finally:
        await plain.close()
        await crashed.close()


async def test_timers_resume_from_the_stored_deadline(harness):
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, time_bank_seconds=0, turn_seconds=40)
    await seat_players(s, [1, 2])
    await s.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    await h.clock.advance(25)  # 15 s left when the process dies
    await h.restart()
    await h.advance(14.5)
    assert not h.recorder.of(ev.PlayerTimedOut)
    await h.advance(0.5)
    (timed_out,) = h.recorder.of(ev.PlayerTimedOut)
    assert (timed_out.hand_id, timed_out.user_id) == (turn.hand_id, turn.user_id)
    await h.audit_ok()


async def test_a_deadline_that_passed_while_down_fires_at_once(harness):
    h = harness
    await h.service.config_set(GUILD, CHANNEL, time_bank_seconds=0)
    await seat_players(h.service, [1, 2])
    await h.service.start(GUILD, CHANNEL)
    await h.service.shutdown()
    await h.clock.advance(3600)
    await h.restart()
    await h.service.wait_idle()
    assert len(h.recorder.of(ev.PlayerTimedOut)) == 1
    await h.audit_ok()


async def test_a_hand_logged_to_its_end_but_not_settled_is_settled_on_restart(harness):
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    await h.service.shutdown()
    # The crash came after the last action was logged and before the settlement.
    fold = ActionKind.FOLD if ActionKind.FOLD in {o.kind for o in turn.options} else None
    assert fold is None  # heads-up on 3rd street the forced bring-in comes first
    await actions_db.append_action(
        h.db, turn.hand_id, turn.seq, turn.seat, "bring_in", action_deadline=None
    )
    nxt = turn.seq + 1
    other = 1 - turn.seat
    await actions_db.append_action(h.db, turn.hand_id, nxt, other, "fold", action_deadline=None)
    await h.restart()
    (ended,) = h.recorder.of(ev.HandEnded)
    assert ended.hand_id == turn.hand_id and not ended.cancelled
    assert dict(ended.results)[turn.user_id] > 0
    assert (await hands_db.get_hand(h.db, turn.hand_id)).status is HandStatus.FINISHED
    await h.audit_ok()


CORRUPTIONS = {
    "unknown action": "UPDATE hand_actions SET action = 'shove' WHERE hand_id = :h AND seq = 1",
    "illegal action": "UPDATE hand_actions SET action = 'check' WHERE hand_id = :h AND seq = 0",
    "wrong seat": "UPDATE hand_actions SET seat = (seat + 1) % 3 WHERE hand_id = :h AND seq = 2",
    "gap": "DELETE FROM hand_actions WHERE hand_id = :h AND seq = 1",
    "deck swapped": "UPDATE hands SET deck = substr(deck, 3, 2) || substr(deck, 1, 2)"
    " || substr(deck, 5) WHERE id = :h",
    "deck unreadable": "UPDATE hands SET deck = replace(deck, substr(deck, 1, 2), 'Zz')"
    " WHERE id = :h",
}


@pytest.mark.parametrize("corruption", sorted(CORRUPTIONS))
async def test_a_corrupted_log_cancels_the_hand_and_refunds_everyone(harness, corruption):
    h = harness
    await seat_players(h.service, [1, 2, 3], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    for _ in range(4):
        turn = h.recorder.last_turn()
        assert turn is not None
        kinds = {o.kind for o in turn.options}
        kind = ActionKind.CALL if ActionKind.CALL in kinds else passive(turn)
        await h.service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
    hand_id = h.recorder.of(ev.HandStarted)[-1].hand_id
    await h.service.shutdown()
    await h.execute(CORRUPTIONS[corruption], {"h": hand_id})
    before = await snapshot(h)
    await h.restart()

    (ended,) = h.recorder.of(ev.HandEnded)
    assert ended.hand_id == hand_id and ended.cancelled and ended.reason
    assert all(delta == 0 for _, delta in ended.results)
    record = await hands_db.get_hand(h.db, hand_id)
    assert record.status is HandStatus.CANCELLED
    refunds = await ledger_db.entries_for_hand(h.db, hand_id)
    assert sorted(r.user_id for r in refunds) == [1, 2, 3]
    assert all(r.reason is ledger_db.Reason.REFUND and r.delta == 0 for r in refunds)
    assert all("committed" in r.note for r in refunds)
    after = await snapshot(h)
    assert after["seats"] == before["seats"] and after["wallets"] == before["wallets"]
    await h.audit_ok()
    # The table carries on.
    await h.advance(10)
    assert len(h.recorder.of(ev.HandStarted)) == 2
    await play_hand(h, passive)
    await h.audit_ok()


async def test_a_leaver_flagged_before_the_crash_still_leaves(harness):
    h = harness
    await seat_players(h.service, [1, 2, 3], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    leaver = next(u for u in (1, 2, 3) if u != turn.user_id)
    await h.service.leave(GUILD, CHANNEL, leaver)
    await h.restart()
    await play_hand(h, passive)
    (left,) = h.recorder.of(ev.PlayerLeft)
    assert left.user_id == leaver
    assert (await h.service.table_view(GUILD, CHANNEL)).seat_of(leaver) is None
    await h.audit_ok()


async def test_a_table_closing_when_the_process_died_closes_after_the_hand(harness):
    h = harness
    await seat_players(h.service, [1, 2], buy_in=200)
    await h.service.start(GUILD, CHANNEL)
    assert await h.service.close_table(GUILD, CHANNEL) is False
    await h.restart()
    await play_hand(h, passive)
    assert len(h.recorder.of(ev.TableClosed)) == 1
    await h.audit_ok()

"""Turn timers on a fake clock: check or fold on expiry, sit out after two, the time bank."""

from __future__ import annotations

from dealerbot.engine.events import ActionKind
from dealerbot.tables import events as ev

from .helpers import CHANNEL, GUILD, passive, play_hand, seat_players


async def _expire(h, turn: ev.Turn) -> None:
    """Let the clock run to the turn's deadline (and not a moment less)."""
    await h.advance(turn.deadline - h.clock.now() - 0.5)
    assert h.recorder.last_turn() == turn, "acted before the deadline"
    await h.advance(0.5)


async def test_timeout_checks_if_allowed_else_folds(harness):
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, time_bank_seconds=0, turn_seconds=30)
    await seat_players(s, [1, 2, 3])
    await s.start(GUILD, CHANNEL)

    bring_in = h.recorder.last_turn()
    assert bring_in is not None and bring_in.deadline == h.clock.now() + 30
    await _expire(h, bring_in)  # a forced bring-in cannot be refused: it is posted
    facing = h.recorder.last_turn()
    assert facing is not None and facing.seq == bring_in.seq + 1
    await _expire(h, facing)  # facing the bring-in: fold
    third = h.recorder.last_turn()
    assert third is not None
    await s.act(GUILD, CHANNEL, third.user_id, third.hand_id, third.seq, ActionKind.CALL)
    fourth = h.recorder.last_turn()
    assert fourth is not None and fourth.street == 4
    await _expire(h, fourth)  # nothing to call on 4th street: check

    timed_out = h.recorder.of(ev.PlayerTimedOut)
    assert [(t.user_id, t.kind) for t in timed_out] == [
        (bring_in.user_id, ActionKind.BRING_IN),
        (facing.user_id, ActionKind.FOLD),
        (fourth.user_id, ActionKind.CHECK),
    ]
    autos = [a for a in h.recorder.of(ev.ActionTaken) if a.auto == "timeout"]
    assert [a.kind for a in autos] == [ActionKind.BRING_IN, ActionKind.FOLD, ActionKind.CHECK]
    # Only a second timeout in a row sits out: the bring-in player, if he leads 4th street.
    assert [t.sat_out for t in timed_out] == [False, False, fourth.user_id == bring_in.user_id]
    await play_hand(h, passive)
    await h.audit_ok()


async def test_two_timeouts_in_a_row_sit_the_player_out(harness):
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, time_bank_seconds=0)
    await seat_players(s, [1, 2])
    await s.start(GUILD, CHANNEL)
    first = h.recorder.last_turn()
    assert first is not None
    sleeper = first.user_id
    await _expire(h, first)
    # The other player acts; when the sleeper's turn comes again he times out again.
    while True:
        turn = h.recorder.last_turn()
        assert turn is not None
        if turn.user_id == sleeper:
            break
        await s.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
    await _expire(h, turn)
    timed_out = [t for t in h.recorder.of(ev.PlayerTimedOut) if t.user_id == sleeper]
    assert [t.sat_out for t in timed_out] == [False, True]
    (sat_out,) = h.recorder.of(ev.PlayerSatOut)
    assert (sat_out.user_id, sat_out.reason) == (sleeper, "timeouts")
    # For the rest of this hand he is away: the service acts for him without waiting.
    await play_hand(h, passive)
    assert all(
        a.auto in ("timeout", "away") for a in h.recorder.of(ev.ActionTaken) if a.user_id == sleeper
    )
    view = await s.table_view(GUILD, CHANNEL)
    seat = view.seat_of(sleeper)
    assert seat is not None and seat.sitting_out
    await h.advance(60)  # he is not dealt in, so no hand starts heads-up
    assert len(h.recorder.of(ev.HandStarted)) == 1
    await s.sit_in(GUILD, CHANNEL, sleeper)
    await h.advance(60)
    assert len(h.recorder.of(ev.HandStarted)) == 2
    await h.audit_ok()


async def test_acting_in_between_resets_the_timeout_count(harness):
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, time_bank_seconds=0)
    await seat_players(s, [1, 2])
    await s.start(GUILD, CHANNEL)
    sleeper = None
    own_turns = 0
    for _ in range(100):
        turn = h.recorder.last_turn()
        if turn is None:
            break
        sleeper = sleeper or turn.user_id
        if turn.user_id == sleeper:
            own_turns += 1
            if own_turns % 2:  # time out, act, time out, act ...
                await _expire(h, turn)
                continue
        await s.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
    assert len([t for t in h.recorder.of(ev.PlayerTimedOut) if t.user_id == sleeper]) >= 2
    assert not h.recorder.of(ev.PlayerSatOut)


async def test_the_time_bank_runs_after_the_turn_time(harness):
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, turn_seconds=45, time_bank_seconds=30)
    await seat_players(s, [1, 2])
    await s.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None and turn.time_bank == 30
    await _expire(h, turn)
    (bank,) = h.recorder.of(ev.TimeBankStarted)
    assert (bank.user_id, bank.seq, bank.deadline) == (turn.user_id, turn.seq, h.clock.now() + 30)
    assert not h.recorder.of(ev.PlayerTimedOut)
    await h.advance(20)
    await s.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, passive(turn))
    mine = await s.my_cards(GUILD, CHANNEL, turn.user_id)
    assert mine.time_bank == 10  # 20 of his 30 seconds used
    # His next turn: 45 s, then the 10 s left in the bank, then the timeout.
    while True:
        current = h.recorder.last_turn()
        assert current is not None
        if current.user_id == turn.user_id:
            break
        await s.act(GUILD, CHANNEL, current.user_id, current.hand_id, current.seq, passive(current))
    assert current.time_bank == 10
    await _expire(h, current)
    assert h.recorder.of(ev.TimeBankStarted)[-1].deadline == h.clock.now() + 10
    await h.advance(9.5)
    assert not h.recorder.of(ev.PlayerTimedOut)
    await h.advance(0.5)
    (timed_out,) = h.recorder.of(ev.PlayerTimedOut)
    assert timed_out.user_id == turn.user_id
    await h.audit_ok()


async def test_the_between_hands_delay_is_the_configured_one(harness):
    h = harness
    s = h.service
    await s.config_set(GUILD, CHANNEL, between_hands_seconds=12)
    await seat_players(s, [1, 2])
    await h.advance(11.5)
    assert not h.recorder.of(ev.HandStarted)
    await h.advance(0.5)
    assert len(h.recorder.of(ev.HandStarted)) == 1


async def test_a_later_deadline_reuses_the_sleeping_timer_and_fires_the_new_callback():
    """Re-arming to a later deadline (every action) keeps the task: no cancellation garbage."""
    from dealerbot.tables.timers import FakeClock, TaskTracker, Timer

    clock, tracker = FakeClock(), TaskTracker()
    timer = Timer(clock, tracker, "turn")
    fired: list[str] = []

    async def first() -> None:
        fired.append("first")

    async def second() -> None:
        fired.append("second")

    timer.arm(clock.now() + 10, first)
    tasks_before = set(tracker._tasks)
    timer.arm(clock.now() + 30, second)
    assert set(tracker._tasks) == tasks_before  # the same sleeping task, nothing cancelled
    await clock.advance(10)
    await tracker.wait_idle()
    assert fired == []  # woke at the old deadline and slept on
    await clock.advance(20)
    await tracker.wait_idle()
    assert fired == ["second"]

    timer.arm(clock.now() + 30, first)
    timer.arm(clock.now() + 5, second)  # earlier: the old wait is replaced
    await clock.advance(5)
    await tracker.wait_idle()
    assert fired == ["second", "second"]
    await clock.advance(30)
    await tracker.wait_idle()
    assert fired == ["second", "second"]  # the replaced callback never runs
    await tracker.join()

"""One rule for "may this member press this action button now": the service's click_refusal.

The hand loop refuses a player's action with it, and a front end asks it first from the view
it holds: both give the same refusal, in the same words, so a stale click reads the same
whether the bot or the table caught it. A view also says who is ready for the next deal and
how many a hand needs, so a front end counts nothing itself.
"""

from __future__ import annotations

import pytest

from dealerbot.engine import MIN_PLAYERS
from dealerbot.tables import TableService, click_refusal, errors

from .helpers import CHANNEL, GUILD, passive, play_hand, seat_players, snapshot


async def test_a_player_not_to_act_is_told_who_is(harness):
    h = harness
    await seat_players(h.service, (1, 2, 3))
    await h.service.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    other = next(u for u in (1, 2, 3) if u != turn.user_id)
    with pytest.raises(errors.OutOfTurnError) as refused:
        await h.service.act(GUILD, CHANNEL, other, turn.hand_id, turn.seq, passive(turn))
    assert str(refused.value) == f"It is not your turn; {turn.name} is to act."


async def test_the_hand_loop_and_a_front_end_refuse_a_click_in_the_same_words(harness):
    h = harness
    await seat_players(h.service, (1, 2, 3))
    await h.service.start(GUILD, CHANNEL)
    first = h.recorder.last_turn()
    assert first is not None
    await play_hand(h, passive)
    await h.service.start(GUILD, CHANNEL)
    await h.service.join(GUILD, CHANNEL, 7, "Late")  # seated, not dealt in
    turn = h.recorder.last_turn()
    assert turn is not None and turn.hand_id != first.hand_id
    other = next(u for u in (1, 2, 3) if u != turn.user_id)
    clicks = {
        "a stranger": (99, turn.hand_id, turn.seq, errors.NotSeatedError),
        "an old hand": (turn.user_id, first.hand_id, turn.seq, errors.StaleActionError),
        "an old action": (turn.user_id, turn.hand_id, turn.seq - 1, errors.StaleActionError),
        "not dealt in": (7, turn.hand_id, turn.seq, errors.NotInHandError),
        "not his turn": (other, turn.hand_id, turn.seq, errors.OutOfTurnError),
    }
    before = await snapshot(h)
    for what, (user, hand_id, seq, kind) in clicks.items():
        view = await h.service.table_view(GUILD, CHANNEL)
        asked = TableService.click_refusal(view, user, hand_id=hand_id, seq=seq)
        assert isinstance(asked, kind), what
        with pytest.raises(kind) as refused:
            await h.service.act(GUILD, CHANNEL, user, hand_id, seq, passive(turn))
        assert str(refused.value) == str(asked), what
    assert await snapshot(h) == before
    view = await h.service.table_view(GUILD, CHANNEL)
    assert click_refusal(view, turn.user_id, hand_id=turn.hand_id, seq=turn.seq) is None


async def test_a_click_of_another_table_or_of_no_number_is_stale(harness):
    h = harness
    await seat_players(h.service, (1, 2))
    await h.service.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    view = await h.service.table_view(GUILD, CHANNEL)
    user, hand_id, seq = turn.user_id, turn.hand_id, turn.seq
    elsewhere = click_refusal(view, user, hand_id=hand_id, seq=seq, table_id=view.table_id + 1)
    assert isinstance(elsewhere, errors.StaleActionError)
    assert "hand is over" in str(elsewhere) and "old hand" in str(elsewhere)
    for hand, number in (("x", seq), (None, seq), (hand_id, None), (hand_id, True)):
        assert isinstance(
            click_refusal(view, user, hand_id=hand, seq=number), errors.StaleActionError
        ), (hand, number)


async def test_a_front_end_marks_names_and_commands_up_in_the_services_words(harness):
    h = harness
    await seat_players(h.service, (1, 2))
    await h.service.start(GUILD, CHANNEL)
    turn = h.recorder.last_turn()
    assert turn is not None
    view = await h.service.table_view(GUILD, CHANNEL)
    other = 2 if turn.user_id == 1 else 1

    def marked(name: str) -> str:
        return f"<{name}>"

    def linked(path: str) -> str:
        return f"[{path}]"

    not_turn = click_refusal(
        view, other, hand_id=turn.hand_id, seq=turn.seq, name_text=marked, command_text=linked
    )
    assert str(not_turn) == f"It is not your turn; <{turn.name}> is to act."
    stranger = click_refusal(
        view, 99, hand_id=turn.hand_id, seq=turn.seq, name_text=marked, command_text=linked
    )
    assert "press **Join…** (or use [stud join])" in str(stranger)
    plain = click_refusal(view, 99, hand_id=turn.hand_id, seq=turn.seq)
    assert "(or use `/stud join`)" in str(plain)


async def test_the_view_counts_who_is_ready_for_the_next_deal(harness):
    h = harness
    s = h.service
    await seat_players(s, (1, 2, 3))
    view = await s.table_view(GUILD, CHANNEL)
    assert view.players_needed == MIN_PLAYERS == 2
    assert view.ready_players == 3
    await s.sit_out(GUILD, CHANNEL, 3)
    view = await s.table_view(GUILD, CHANNEL)
    assert view.ready_players == 2
    assert [seat.ready for seat in view.seats] == [True, True, False]
    await s.leave(GUILD, CHANNEL, 2)
    assert (await s.table_view(GUILD, CHANNEL)).ready_players == 1

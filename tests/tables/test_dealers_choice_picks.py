"""Dealer's choice across a restart, and old buttons (issue 23, left open).

The pick is stored with the rotation: a restart between the pick and its deal deals the
pick (before, the pick was offered again), one during the wait waits on with the same pick
and deadline. Each offer has a number (``ChoiceView.pick_id``, which a button carries): a
press for an earlier pick is refused in words and changes nothing.
"""

from __future__ import annotations

import pytest

from dealerbot.engine import Variant
from dealerbot.tables import ChoiceError
from dealerbot.tables import events as ev
from dealerbot.tables.views import ChoiceView

from .helpers import CHANNEL, GUILD, Harness, passive, play_hand, seat_players, snapshot


async def offered(h: Harness) -> ChoiceView:
    view = await h.service.table_view(GUILD, CHANNEL)
    assert view.games is not None and view.games.choice is not None, view.games
    return view.games.choice


async def choice_table(h: Harness, **changes: object) -> ChoiceView:
    await h.service.config_set(GUILD, CHANNEL, game="choice", games="stud8 razz", **changes)
    await seat_players(h.service, [1, 2, 3], buy_in=500)
    await h.advance(5)
    return await offered(h)


async def test_a_restart_between_the_pick_and_the_deal_deals_the_pick(harness) -> None:
    h = harness
    choice = await choice_table(h)
    await h.service.choose_game(GUILD, CHANNEL, choice.user_id, "razz", choice.pick_id)
    assert not h.recorder.of(ev.HandStarted)  # picked, not dealt yet: the process dies
    await h.restart()
    view = await h.service.table_view(GUILD, CHANNEL)
    assert view.games is not None and view.games.choice is None  # not offered again
    await h.advance(5)
    (started,) = h.recorder.of(ev.HandStarted)
    assert started.variant is Variant.RAZZ
    await h.audit_ok()


async def test_a_restart_during_the_wait_keeps_the_pick_and_its_deadline(harness) -> None:
    h = harness
    choice = await choice_table(h)
    await h.restart()
    again = await offered(h)
    assert again == choice  # same chooser, options, deadline and number
    await h.advance(5)
    assert not h.recorder.of(ev.HandStarted)
    await h.service.choose_game(GUILD, CHANNEL, choice.user_id, "stud8", choice.pick_id)
    await h.advance(0)
    assert h.recorder.of(ev.HandStarted)[-1].variant is Variant.STUD8


async def test_a_button_of_an_earlier_pick_is_refused_and_changes_nothing(harness) -> None:
    h = harness
    first = await choice_table(h, hands_per_game=1)
    await h.service.choose_game(GUILD, CHANNEL, first.user_id, "razz", first.pick_id)
    await h.advance(0)
    await play_hand(h, passive)
    await h.advance(5)
    second = await offered(h)  # the stint of one hand is over: the next pick
    assert second.pick_id == first.pick_id + 1
    before = await snapshot(h)
    for stale in (first.pick_id, second.pick_id + 1, "2", 1.5):
        with pytest.raises(ChoiceError, match="earlier pick of the game"):
            await h.service.choose_game(GUILD, CHANNEL, second.user_id, "stud8", stale)  # type: ignore[arg-type]
    assert await offered(h) == second and await snapshot(h) == before
    await h.service.choose_game(GUILD, CHANNEL, second.user_id, "stud8", second.pick_id)
    await h.advance(0)
    assert h.recorder.of(ev.HandStarted)[-1].variant is Variant.STUD8


async def test_a_button_from_before_a_restart_is_still_an_old_one(harness) -> None:
    h = harness
    first = await choice_table(h, hands_per_game=1)
    await h.service.choose_game(GUILD, CHANNEL, first.user_id, "razz", first.pick_id)
    await h.advance(0)
    await play_hand(h, passive)
    await h.restart()  # the numbers are stored: a restart does not start them again
    await h.advance(5)
    second = await offered(h)
    assert second.pick_id == first.pick_id + 1
    with pytest.raises(ChoiceError, match="earlier pick"):
        await h.service.choose_game(GUILD, CHANNEL, second.user_id, "stud8", first.pick_id)


async def test_a_pick_without_its_number_answers_the_pick_waiting_now(harness) -> None:
    h = harness
    choice = await choice_table(h)
    await h.service.choose_game(GUILD, CHANNEL, choice.user_id, "stud8")  # the old signature
    await h.advance(0)
    assert h.recorder.of(ev.HandStarted)[-1].variant is Variant.STUD8
    with pytest.raises(ChoiceError, match="earlier pick"):  # its button, pressed again
        await h.service.choose_game(GUILD, CHANNEL, choice.user_id, "razz", choice.pick_id)

"""The table-message planner: post, edit, re-post, results first, who may click, which buttons.

Pure functions from :mod:`dealerbot.bot.table_plan`, fed plain values: no Discord, no loop.
"""

from __future__ import annotations

import dataclasses

import discord

from dealerbot.bot import markup
from dealerbot.bot.buttons import result_buttons
from dealerbot.bot.table_plan import (
    ClickShows,
    MessageStep,
    Pending,
    Slot,
    buttons_wanted,
    click_shows,
    next_step,
    table_payload,
)
from dealerbot.tables import (
    ActionKind,
    ChoiceView,
    GamesView,
    TablePhase,
    TableView,
    Variant,
    click_refusal,
)
from dealerbot.tables import events as ev

from .table_values import playing, seat, turn, waiting

NOW = 1_000_000.0
MAX_AGE = 3000.0


def plan(
    pending: Pending,
    view: TableView | None,
    slot: Slot | None,
    *,
    version: int = 1,
    key: str = "same",
) -> MessageStep:
    return next_step(
        pending, view, slot, version=version, now=NOW, max_age=MAX_AGE, rendered_key=lambda: key
    )


def live(hand_id: int | None = 7, *, version: int = 0, key: str | None = "same") -> Slot:
    return Slot(message_id=555, hand_id=hand_id, posted_at=NOW - 10, key=key, version=version)


# --- what comes next --------------------------------------------------------------------


def test_queued_work_goes_first_notices_then_results_then_closing() -> None:
    view = playing()
    assert plan(Pending(notices=1, finished=1, closed=True), view, live()) is MessageStep.NOTICE
    assert plan(Pending(finished=1, closed=True), view, live()) is MessageStep.RESULT
    assert plan(Pending(closed=True), view, live()) is MessageStep.CLOSED


def test_a_hand_without_a_message_is_posted() -> None:
    assert plan(Pending(), playing(), None) is MessageStep.POST


def test_a_waiting_table_is_posted_only_when_no_hand_is_about_to_be_dealt() -> None:
    seated = waiting(seat(0, "alice"), seat(1, "bob"))
    assert plan(Pending(), seated, None) is MessageStep.POST
    soon = dataclasses.replace(seated, next_hand_at=NOW + 5)
    assert plan(Pending(), soon, None) is MessageStep.NOTHING
    assert plan(Pending(), waiting(), None) is MessageStep.NOTHING  # no one seated


def test_nothing_to_do_without_a_view_or_at_a_closed_table() -> None:
    assert plan(Pending(), None, None) is MessageStep.NOTHING
    assert (
        plan(Pending(), waiting(seat(0, "a"), status=TablePhase.CLOSED), None)
        is MessageStep.NOTHING
    )


def test_a_message_at_the_current_version_is_left_alone_without_rendering() -> None:
    calls: list[int] = []

    def rendered_key() -> str:
        calls.append(1)
        return "x"

    step = next_step(
        Pending(),
        playing(),
        live(version=4),
        version=4,
        now=NOW,
        max_age=MAX_AGE,
        rendered_key=rendered_key,
    )
    assert step is MessageStep.NOTHING and calls == []


def test_a_changed_render_is_an_edit_and_an_identical_one_is_not() -> None:
    assert plan(Pending(), playing(), live(version=0, key="old"), key="new") is MessageStep.EDIT
    unchanged = plan(Pending(), playing(), live(version=0, key="same"), key="same")
    assert unchanged is MessageStep.NOTHING


def test_a_new_hand_is_a_new_message_and_the_old_one_is_left_behind() -> None:
    assert plan(Pending(), playing(hand_id=8), live(hand_id=7)) is MessageStep.REPOST


def test_the_waiting_table_becomes_the_hand_by_an_edit() -> None:
    assert plan(Pending(), playing(hand_id=8), live(hand_id=None)) is MessageStep.EDIT


def test_a_message_too_old_to_edit_is_reposted() -> None:
    old = Slot(message_id=555, hand_id=7, posted_at=NOW - MAX_AGE - 1, key="same", version=1)
    assert plan(Pending(), playing(), old, version=1) is MessageStep.REPOST
    assert old.too_old(NOW, MAX_AGE) and not live().too_old(NOW, MAX_AGE)


# --- clicks -------------------------------------------------------------------------------


def test_a_click_on_the_live_message_shows_the_table() -> None:
    shows = click_shows(live(), 555, [], playing(), now=NOW, max_age=MAX_AGE)
    assert shows is ClickShows.TABLE


def test_a_click_on_another_message_changes_nothing_in_it() -> None:
    assert click_shows(live(), 999, [], playing(), now=NOW, max_age=MAX_AGE) is ClickShows.NOTHING
    assert click_shows(None, 555, [], playing(), now=NOW, max_age=MAX_AGE) is ClickShows.NOTHING


def test_the_last_click_of_a_hand_turns_its_message_into_the_result_oldest_first() -> None:
    done = waiting(seat(0, "alice"))
    assert click_shows(live(7), 555, [7], done, now=NOW, max_age=MAX_AGE) is ClickShows.RESULT
    older_first = click_shows(live(7), 555, [6, 7], done, now=NOW, max_age=MAX_AGE)
    assert older_first is ClickShows.NOTHING


def test_a_click_on_a_message_of_another_hand_is_deferred() -> None:
    shows = click_shows(live(7), 555, [], playing(hand_id=8), now=NOW, max_age=MAX_AGE)
    assert shows is ClickShows.NOTHING


def action_refusal(view: TableView, user: int, table: int, hand: int, seq: int) -> str | None:
    """What the bot answers a click with: the table service's rule and words, marked up."""
    refused = click_refusal(
        view,
        user,
        table_id=table,
        hand_id=hand,
        seq=seq,
        name_text=markup.name_text,
        command_text=markup.command_hint,
    )
    return None if refused is None else str(refused)


def test_action_clicks_are_refused_when_stale_or_not_the_clickers_turn() -> None:
    view = playing(hand_id=7, seq=3, to_act=0)
    alice, bob, stranger = 100, 101, 999
    assert action_refusal(view, alice, 30, 7, 3) is None
    assert "hand is over" in (action_refusal(view, alice, 30, 6, 3) or "")
    assert "hand is over" in (action_refusal(view, alice, 31, 7, 3) or "")
    assert "out of date" in (action_refusal(view, alice, 30, 7, 2) or "")
    assert action_refusal(view, bob, 30, 7, 3) == "It is not your turn; alice is to act."
    assert "not seated at this table: press **Join…**" in (
        action_refusal(view, stranger, 30, 7, 3) or ""
    )
    waiting_seat = dataclasses.replace(view.seats[1], user_id=555, in_hand=False)
    later = dataclasses.replace(view, seats=(*view.seats, waiting_seat))
    assert "dealt in from the next one" in (action_refusal(later, 555, 30, 7, 3) or "")


# --- buttons ------------------------------------------------------------------------------


def test_buttons_are_the_options_of_the_turn_the_view_shows() -> None:
    view = playing()
    current = turn(view, ActionKind.FOLD, ActionKind.CALL, ActionKind.RAISE)
    assert buttons_wanted(view, current) is current
    assert buttons_wanted(view, dataclasses.replace(current, seq=2)) is None
    assert buttons_wanted(view, dataclasses.replace(current, hand_id=6)) is None
    assert buttons_wanted(view, dataclasses.replace(current, user_id=101)) is None
    assert buttons_wanted(waiting(seat(0, "a")), current) is None


def _custom_ids(view: TableView, current: ev.Turn | None) -> list[str]:
    payload = table_payload(view, current, version=1)
    if payload.view is None:
        return []
    return [
        component["custom_id"]
        for row in payload.view.to_components()
        for component in row["components"]
    ]


SEATING = ["stud:away:30", "stud:leave:30", "stud:buyin:30"]  # grey; Join… while a seat is free


def test_the_table_carries_one_button_per_option_then_my_cards_and_the_seat_buttons() -> None:
    view = playing(hand_id=7, seq=3)
    current = turn(view, ActionKind.FOLD, ActionKind.CALL)
    assert _custom_ids(view, current) == [
        "stud:30:7:3:fold",
        "stud:30:7:3:call",
        "stud:cards:30",
        *SEATING,
    ]


def test_a_stale_turn_leaves_no_action_and_a_waiting_table_only_seat_buttons() -> None:
    view = playing(hand_id=7, seq=3)
    stale = turn(view, ActionKind.FOLD, seq=2)
    assert _custom_ids(view, stale) == ["stud:cards:30", *SEATING]
    assert _custom_ids(waiting(seat(0, "a")), None) == SEATING
    assert _custom_ids(waiting(), None) == ["stud:buyin:30"]


def test_a_full_table_offers_no_seat_and_a_busted_player_a_rebuy() -> None:
    full = waiting(*(seat(n, f"p{n}", stack=0 if n == 3 else 200) for n in range(8)))
    assert _custom_ids(full, None) == ["stud:away:30", "stud:leave:30", "stud:rebuy:30"]
    closed = dataclasses.replace(full, status=TablePhase.CLOSED)
    assert _custom_ids(closed, None) == []


def _rebuy_label(view: TableView) -> str | None:
    buttons = table_payload(view, None, 1).view
    assert buttons is not None
    [label] = [b.label for b in buttons.children if getattr(b, "custom_id", "") == "stud:rebuy:30"]
    return label


def test_the_rebuy_button_reads_queued_once_every_busted_players_rebuy_is_queued() -> None:
    alone = waiting(seat(0, "a"), seat(1, "b", stack=0))
    assert _rebuy_label(alone) == "Rebuy"
    queued = waiting(seat(0, "a"), seat(1, "b", stack=0, queued=100))
    assert _rebuy_label(queued) == "Rebuy queued"
    other = waiting(seat(0, "a", stack=0), seat(1, "b", stack=0, queued=100))
    assert _rebuy_label(other) == "Rebuy"  # a still needs the button


def test_a_render_key_tells_different_tables_apart() -> None:
    view = playing()
    same = table_payload(view, None, 1).key == table_payload(view, None, 2).key
    other = table_payload(dataclasses.replace(view, pot=99), None, 1).key
    assert same and other != table_payload(view, None, 1).key


def _labels(layout: object) -> list[tuple[str, int]]:
    """(label, style) of each button, in order."""
    assert layout is not None
    return [(b.label, b.style.value) for b in layout.children]  # type: ignore[attr-defined]


def test_buttons_fit_the_moment_one_join_and_grey_seat_buttons() -> None:
    """During a hand: the actions, then grey My cards, Sit out / in, Leave; one Join… while
    a seat is free (no Sit down and Buy in… side by side); none on a full table."""
    view = playing(hand_id=7, seq=3)
    current = turn(view, ActionKind.FOLD, ActionKind.CALL)
    labels = _labels(table_payload(view, current, 1).view)
    grey = discord.ButtonStyle.secondary.value
    assert [label for label, _ in labels][2:] == ["My cards", "Sit out / in", "Leave", "Join…"]
    assert all(style == grey for _, style in labels[2:5])
    assert not {"Sit down", "Buy in…"} & {label for label, _ in labels}
    full = waiting(*(seat(n, f"p{n}") for n in range(8)))
    assert "Join…" not in [label for label, _ in _labels(table_payload(full, None, 1).view)]


def test_a_dealers_choice_pick_puts_the_game_buttons_first() -> None:
    view = waiting(seat(0, "alice"), seat(1, "bob", stack=0))
    choice = ChoiceView(100, "alice", 0, (Variant.STUD, Variant.RAZZ), 1000.0)
    games = GamesView("choice", choice.options, Variant.STUD, 0, 8, None, choice, None)
    ids = _custom_ids(dataclasses.replace(view, games=games), None)
    assert ids[:2] == ["stud:game:30:stud", "stud:game:30:razz"]
    assert ids[2:] == [*SEATING, "stud:rebuy:30"]


def test_a_result_carries_sit_out_rebuy_and_the_hands_file_and_proof() -> None:
    view = waiting(seat(0, "alice"), seat(1, "bob", stack=0))
    layout = result_buttons(view, 7)
    assert layout is not None
    ids = [b.custom_id for b in layout.children]  # type: ignore[attr-defined]
    assert ids == ["stud:away:30", "stud:rebuy:30", "stud:file:7", "stud:proof:7"]
    rich = waiting(seat(0, "alice"), seat(1, "bob"))
    called_off = result_buttons(rich, 7, finished=False)
    assert called_off is not None
    assert [b.custom_id for b in called_off.children] == ["stud:away:30"]  # type: ignore[attr-defined]
    closed = dataclasses.replace(rich, status=TablePhase.CLOSED)
    assert [b.custom_id for b in result_buttons(closed, 7).children] == [  # type: ignore[union-attr,attr-defined]
        "stud:file:7",
        "stud:proof:7",
    ]


def test_a_click_answer_then_an_identical_render_is_no_edit() -> None:
    """After a click answered in place, an event that changes nothing shown (the version
    moves on, the render is the same) must not cost an edit."""
    view = playing()
    answer = table_payload(view, None, 4)
    slot = Slot(1, view.hand_id, 0.0)
    slot.answer_shown(answer)
    same = table_payload(view, None, 5)
    step = next_step(
        Pending(), view, slot, version=5, now=1.0, max_age=3000, rendered_key=lambda: same.key
    )
    assert step is MessageStep.NOTHING

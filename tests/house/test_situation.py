"""The house's input: built only from the engine's sight line of the seat that is to act.

A public view, another seat's view, a view of a seat that is not to act, a view that shows
another seat's face-down card, a HandState and a Situation built by hand are all refused with
a message, and nothing is built.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from dealerbot.engine import CardView, HandView, player_view, public_view
from dealerbot.engine.events import ActionTaken, CardDealt
from dealerbot.house import HouseStyle, Situation, SituationError, decide
from tests.engine.helpers import Hand, deal


def spot() -> Hand:
    """S1 brought in, S2 completed; S0 is to act."""
    return deal({0: "9c 9d 9h", 1: "Kc Qd 2c", 2: "Jc Td Ah"}).play("S1 bring_in, S2 complete")


def test_built_from_the_seats_own_view() -> None:
    hand = spot()
    situation = Situation.from_view(player_view(hand.state, 0), 0, hand.events)
    assert situation.seat == 0
    assert [str(c) for c in situation.my_cards] == ["9c", "9d", "9h"]
    assert [s.seat for s in situation.opponents] == [1, 2]
    assert [(a.seat, a.kind.value) for a in situation.actions] == [
        (1, "bring_in"),
        (2, "complete"),
    ]


def test_only_the_public_actions_are_kept() -> None:
    hand = spot()
    assert any(isinstance(e, CardDealt) and e.private_to == 1 for e in hand.events)
    situation = Situation.from_view(player_view(hand.state, 0), 0, hand.events)
    assert all(isinstance(a, ActionTaken) for a in situation.actions)
    assert len(situation.actions) == 2


def test_a_public_view_is_refused() -> None:
    hand = spot()
    with pytest.raises(SituationError, match="public view"):
        Situation.from_view(public_view(hand.state), 0, hand.events)


def test_another_seats_view_is_refused() -> None:
    hand = spot()
    with pytest.raises(SituationError, match="made for seat 1, not seat 0"):
        Situation.from_view(player_view(hand.state, 1), 0, hand.events)


def test_the_view_of_a_seat_not_to_act_is_refused() -> None:
    hand = spot()
    with pytest.raises(SituationError, match="seat 0 is to act, not seat 1"):
        Situation.from_view(player_view(hand.state, 1), 1, hand.events)


def test_a_finished_hand_is_refused() -> None:
    hand = spot().play("S0 fold, S1 fold")
    with pytest.raises(SituationError, match="hand is over"):
        Situation.from_view(player_view(hand.state, 2), 2, hand.events)


def test_a_view_showing_another_seats_down_card_is_refused() -> None:
    hand = spot()
    view = player_view(hand.state, 0)
    seats = list(view.seats)
    cards = zip(hand.state.cards_of(1), seats[1].cards, strict=True)
    leaked = tuple(CardView(card, v.face_up) for card, v in cards)
    seats[1] = dataclasses.replace(seats[1], cards=leaked)
    crafted = dataclasses.replace(view, seats=tuple(seats))
    with pytest.raises(SituationError, match="seat 1's face-down card"):
        Situation.from_view(crafted, 0, hand.events)


def test_a_public_view_relabelled_as_a_seats_is_refused() -> None:
    hand = spot()
    relabelled = dataclasses.replace(public_view(hand.state), viewer=0)
    with pytest.raises(SituationError, match="hides seat 0's own cards"):
        Situation.from_view(relabelled, 0, hand.events)


def test_a_hand_state_is_refused() -> None:
    hand = spot()
    with pytest.raises(SituationError, match="not HandState"):
        Situation.from_view(hand.state, 0, hand.events)  # type: ignore[arg-type]
    with pytest.raises(SituationError, match="not HandState"):
        decide(hand.state, random.Random(0))  # type: ignore[arg-type]


def test_a_situation_is_not_built_by_hand() -> None:
    hand = spot()
    view = player_view(hand.state, 0)
    with pytest.raises(SituationError, match="from_view"):
        Situation(view, ())
    situation = Situation.from_view(view, 0, hand.events)
    with pytest.raises(SituationError, match="public view"):
        dataclasses.replace(situation, view=public_view(hand.state))
    other = player_view(hand.state, 1)
    with pytest.raises(SituationError, match="seat 0 is to act, not seat 1"):
        dataclasses.replace(situation, view=other)


def test_bad_events_are_refused() -> None:
    hand = spot()
    view = player_view(hand.state, 0)
    with pytest.raises(SituationError, match="hand events"):
        Situation.from_view(view, 0, ["S1 bring_in"])  # type: ignore[list-item]
    stranger = ActionTaken(7, hand.of_type(ActionTaken)[0].kind, 1, 1, False, 3)
    with pytest.raises(SituationError, match="seat 7"):
        Situation.from_view(view, 0, [stranger])
    ahead = ActionTaken(1, hand.of_type(ActionTaken)[0].kind, 1, 1, False, 5)
    with pytest.raises(SituationError, match="street 5"):
        Situation.from_view(view, 0, [ahead])


def test_the_view_holds_no_hidden_card_of_another_seat() -> None:
    """What the house holds: its own cards, and of the others only their up cards."""
    hand = spot()
    situation = Situation.from_view(player_view(hand.state, 0), 0, hand.events)
    assert isinstance(situation.view, HandView)
    for sight in situation.view.seats:
        for card_view, card in zip(sight.cards, hand.state.cards_of(sight.seat), strict=True):
            visible = sight.seat == 0 or card_view.face_up
            assert card_view.card == (card if visible else None)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"bluff_rate": 1.5}, "bluff rate"),
        ({"bluff_rate": True}, "bluff rate"),
        ({"delay_range": (4.0, 1.5)}, "delay range"),
        ({"delay_range": (-1.0, 2.0)}, "delay range"),
        ({"samples": 0}, "samples must be 1 to"),
        ({"samples": 10**6}, "samples must be 1 to"),
        ({"samples": 2.5}, "whole number"),
    ],
)
def test_bad_styles_are_refused(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        HouseStyle(**settings)  # type: ignore[arg-type]


def test_the_default_style() -> None:
    style = HouseStyle()
    assert style.delay_range == (1.5, 4.0)
    assert 0 < style.bluff_rate < 1

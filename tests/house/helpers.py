"""Helpers for the house tests: a seat's situation from the engine's own sight line, and the
house's decision in it."""

from __future__ import annotations

import random

from dealerbot.engine import player_view
from dealerbot.house import Decision, HouseStyle, Situation, decide
from tests.engine.helpers import Hand


def situation_of(hand: Hand) -> Situation:
    """The situation of the seat to act, built from its player_view and the hand's events."""
    seat = hand.to_act
    assert seat is not None, "nobody is to act"
    return Situation.from_view(player_view(hand.state, seat), seat, hand.events)


def house_decides(hand: Hand, seed: int = 0, style: HouseStyle | None = None) -> Decision:
    return decide(situation_of(hand), random.Random(seed), style)

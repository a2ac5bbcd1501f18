"""The Monte Carlo equity and the reading it deals from: only the cards the seat cannot see,
the engine's evaluators, the community card where the deck runs short (R12.1), the seed."""

from __future__ import annotations

import random

import pytest

from dealerbot.engine import ALL_CARDS, ActionKind, Variant
from dealerbot.house.equity import equity
from dealerbot.house.reading import future_cards, read
from tests.engine.helpers import deal
from tests.house.helpers import situation_of


def test_the_unseen_cards_are_exactly_those_the_seat_cannot_see() -> None:
    hand = deal({0: "9c 9d 9h", 1: "Kc Qd 2c", 2: "Jc Td Ah"}).play("S1 bring_in, S2 fold")
    reading = read(situation_of(hand))
    visible = {"9c", "9d", "9h", "2c", "Ah"}  # S0's cards and the two other door cards
    assert {str(c) for c in reading.unseen} == {str(c) for c in ALL_CARDS} - visible
    assert {str(c) for c in reading.dead} == {"2c", "Ah"}  # a folded board stays dead
    assert reading.deck_left == 52 - 9
    assert [o.seat for o in reading.opponents] == [1]


def test_a_royal_flush_on_seventh_street_has_all_the_pot() -> None:
    hand = deal({0: "As Ks Qs Js Ts 2c 3d", 1: "4c 5d 2h 8c 8d 9h 7h"}, players=2)
    hand.check_down(until_street=7)
    while hand.to_act != 0:
        hand.act(ActionKind.CHECK)
    assert equity(read(situation_of(hand)), random.Random(1), 200) == 1.0


def test_rolled_up_aces_are_far_ahead_of_a_random_hand() -> None:
    hand = deal({0: "Ac Ad Ah", 1: "Kc Qd 2c"}, players=2).play("S1 bring_in")
    reading = read(situation_of(hand))
    assert equity(reading, random.Random(3), 400) > 0.75


@pytest.mark.parametrize("variant", list(Variant))
def test_the_same_seed_gives_the_same_estimate(variant: Variant) -> None:
    hand = deal({0: "Ac 4d 6h", 1: "Kc Qd 2c", 2: "Jc Td 9h"}, variant=variant)
    while hand.to_act != 0:
        hand.act(
            ActionKind.BRING_IN if ActionKind.BRING_IN in hand.legal.kinds else ActionKind.CALL
        )
    reading = read(situation_of(hand))
    estimates = [equity(reading, random.Random(seed), 100) for seed in (5, 5, 6, 7)]
    assert estimates[0] == estimates[1]
    assert len(set(estimates)) > 1  # the seed is what varies it
    assert all(0 <= e <= 1 for e in estimates)


def test_eight_players_to_seventh_street_share_a_community_card() -> None:
    hand = deal({}, players=8, community="As").check_down(until_street=6)
    asked = 0
    while hand.to_act is not None and hand.state.street == 6:
        reading = read(situation_of(hand))
        assert reading.deck_left == 4
        assert reading.to_come == (0, True)
        assert 0 <= equity(reading, random.Random(0), 50) <= 1
        hand.act(ActionKind.CHECK)
        asked += 1
    assert asked == 8
    assert hand.state.community is not None  # the engine dealt one too


def test_future_cards() -> None:
    assert future_cards(3, 4, 52 - 12) == (4, False)
    assert future_cards(3, 8, 52 - 24) == (3, True)  # 28 - 3 x 8 leaves 4 for 8 players
    assert future_cards(7, 5, 17) == (0, False)


def test_a_sample_count_below_one_is_refused() -> None:
    hand = deal({0: "Ac Ad Ah", 1: "Kc Qd 2c"}, players=2).play("S1 bring_in")
    with pytest.raises(ValueError, match="at least one sample"):
        equity(read(situation_of(hand)), random.Random(0), 0)

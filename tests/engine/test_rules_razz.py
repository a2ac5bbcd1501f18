"""docs/rules.md §14: Razz (R14.1-R14.5), with the examples of docs/rules.md, through whole hands.

The evaluator's exactness against pokerkit is in test_lowball.py; here every rule is
checked where players meet it: who brings in, who acts first, what is offered, who wins.
"""

from __future__ import annotations

import pytest

from dealerbot.engine.cards import parse_cards
from dealerbot.engine.events import HandShown
from dealerbot.engine.lowball import best_razz, razz_rank
from dealerbot.engine.opener import low_board_rank
from dealerbot.engine.variants import Variant

from .helpers import deal, replay, run

RAZZ = Variant.RAZZ


def better_low(first: str, second: str) -> bool:
    return razz_rank(parse_cards(first)) > razz_rank(parse_cards(second))


# --- R14.1 the whole pot to the best ace-to-five low ------------------------------------------


def test_r14_1_example_six_low_beats_king_low() -> None:
    """Ex: 6♣5♠4♥3♦2♣ beats K♣4♠3♥2♦A♣ (the king is higher than the six)."""
    assert better_low("6c 5s 4h 3d 2c", "Kc 4s 3h 2d Ac")
    hand = run({0: "Qs Qd 6c 5s 4h 3d 2c", 1: "Kh Kd Kc 4s 3h 2d Ac"}, variant=RAZZ).check_down()
    (pot,) = hand.result.pots
    assert pot.low_winners == (0,) and pot.high_winners == ()
    assert hand.shares() == [{0: pot.amount}]


def test_r14_1_example_no_pair_beats_a_pair() -> None:
    """Ex: 8-7-6-5-4 beats A-A-2-3-4 (no pair beats a pair)."""
    assert better_low("8c 7d 6h 5s 4c", "Ad Ah 2c 3c 4d")
    hand = run({0: "Kd Kh 8c 7d 6h 5s 4c", 1: "Ad Ah 2d 3d 4d 4h 4s"}, variant=RAZZ).check_down()
    assert hand.result.pots[0].low_winners == (0,)


def test_r14_1_one_pair_beats_two_pair_beats_trips_beats_full_house_beats_quads() -> None:
    hands = [
        "Kc Kd Qh Js Tc",
        "2c 2d 3h 3s 4c",
        "Ac Ad Ah 2s 3c",
        "Ac Ad Ah 2s 2c",
        "Ac Ad Ah As 2c",
    ]
    ranks = [razz_rank(parse_cards(h)) for h in hands]
    assert ranks == sorted(ranks, reverse=True)
    assert len(set(ranks)) == len(ranks)


def test_r14_1_paired_hands_compare_the_pair_first_then_the_others_from_the_top() -> None:
    assert better_low("2c 2d Kh Qs Jc", "3c 3d 4h 5s 6c")  # the lower pair wins
    assert better_low("5c 5d 7h 3s Ac", "5h 5s 8c 2d Ad")  # same pair: 7-3-A beats 8-2-A
    assert better_low("2c 2d 3h 3s Kc", "2h 2s 4c 4d Ac")  # two pair: the higher pair first


def test_r14_1_straights_and_flushes_do_not_count_and_the_ace_is_low() -> None:
    steel_wheel = razz_rank(parse_cards("5h 4h 3h 2h Ah"))
    assert steel_wheel == razz_rank(parse_cards("5c 4d 3h 2s Ac"))  # the best low of all
    assert steel_wheel > max(
        razz_rank(parse_cards(h)) for h in ("6c 4d 3h 2s Ac", "5c 4d 3h 2s 2c")
    )
    assert better_low("6c 5d 4h 3s Ac", "7h 6h 5h 4h 3h")
    assert better_low("Kc 4s 3h 2d Ac", "Kh Qc Jd Ts 9c")  # the ace is low, not high


def test_r14_1_best_five_of_seven_chosen_freely() -> None:
    assert razz_rank(parse_cards("9c 9d 7h 4s 2c Ac Ad")) == razz_rank(
        parse_cards("9h 7h 4s 2c Ac")
    )
    assert best_razz(parse_cards("Kc Kd Ks Qc Qd Qs Jc")).name == "Two pair, kings and queens"


def test_r14_1_no_qualifier_every_hand_has_a_low_and_equal_lows_split() -> None:
    hand = run(
        {0: "Kc Qd Js Ks Qh Jd Tc", 1: "Kd Qc Jh Kh Qs Jc Ts", 2: "Ac Ad 2c 2d 3c 3d 4c"},
        variant=RAZZ,
    ).check_down()
    (pot,) = hand.result.pots
    assert pot.low_winners == (2,)  # a pair of aces against two pairs of jacks: a paired low wins
    tie = run({0: "Kc Qd 7c 5s 4h 3d 2c", 1: "Kd Qh 7d 5c 4s 3c 2d"}, variant=RAZZ).check_down()
    (pot,) = tie.result.pots
    assert pot.low_winners == (0, 1) and pot.amount % 2 == 0
    assert tie.shares() == [{0: pot.amount // 2, 1: pot.amount // 2}]


def test_r14_1_a_pot_won_by_folds_lists_its_winner_as_high_winner() -> None:
    """docs/replay.md: razz showdown pots report low_winners; a fold-out reports high_winners."""
    folded = replay({0: "? ? Kc", 1: "? ? 2d"}, "S0 bring-in, S1 complete, S0 fold", variant=RAZZ)
    assert folded["pots"][0]["high_winners"] == [1]
    assert folded["pots"][0]["low_winners"] == []
    shown = replay(
        {0: "Qs Qd 6c 5s 4h 3d 2c", 1: "Kh Kd Kc 4s 3h 2d Ac"},
        "S1 bring-in, S0 call" + ", check" * 8,
        variant=RAZZ,
    )
    assert shown["pots"][0]["low_winners"] == [0]
    assert shown["pots"][0]["high_winners"] == []


def test_r14_1_showdown_names_razz_lows_as_players_say_them() -> None:
    assert str(best_razz(parse_cards("7d 5c 4h 2s Ac Kd Kh"))) == "7-5-4-2-A (Seven low)"
    assert best_razz(parse_cards("Kc Qd Jh Ts 8c")).name == "King low"
    assert best_razz(parse_cards("Kc Qd Jh Ts 8c")).text == "K-Q-J-T-8"
    paired = best_razz(parse_cards("Ac Ad 2c 3c 4c 4d 4h"))
    assert (paired.text, paired.name) == ("4-3-2-A-A", "Pair of aces")
    fives = best_razz(parse_cards("Kc Kd 9h 9s 5c 5d 2h"))
    assert (fives.text, fives.name) == ("K-9-5-5-2", "Pair of fives")
    hand = run({0: "Qs Qd 6c 5s 4h 3d 2c", 1: "Kh Kd Kc 4s 3h 2d Ac"}, variant=RAZZ).check_down()
    shown = {event.seat: event for event in hand.of_type(HandShown)}
    assert shown[0].high == "6-5-4-3-2 (Six low)"
    assert shown[1].high == "K-4-3-2-A (King low)"
    assert shown[0].low is None  # no eight-or-better half in razz


# --- R14.2 the highest door card brings in ----------------------------------------------------


def test_r14_2_example_kings_the_spade_brings_in() -> None:
    """Ex: doors K♣, K♠, 2♦ -> K♠."""
    hand = deal({0: "? ? Kc", 1: "? ? Ks", 2: "? ? 2d"}, variant=RAZZ)
    assert hand.state.bring_in_seat == 1 and hand.to_act == 1
    assert hand.offered() == {"bring_in": 2, "complete": 5}  # forced: no fold (R3.2)


def test_r14_2_example_ace_is_lowest_hearts_above_clubs() -> None:
    """Ex: doors A♠, 2♣, 2♥ -> 2♥."""
    hand = deal({0: "? ? As", 1: "? ? 2c", 2: "? ? 2h"}, variant=RAZZ)
    assert hand.state.bring_in_seat == 2


@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_r14_2_suit_order_spades_hearts_diamonds_clubs(shift: int) -> None:
    doors = ["9c", "9d", "9h", "9s"]
    doors = doors[shift:] + doors[:shift]
    hand = deal({seat: f"? ? {door}" for seat, door in enumerate(doors)}, variant=RAZZ)
    assert hand.state.bring_in_seat == doors.index("9s")
    stud = deal({seat: f"? ? {door}" for seat, door in enumerate(doors)})
    assert stud.state.bring_in_seat == doors.index("9c")  # R3.1 is the other way round


# --- R14.3 the lowest board acts first ---------------------------------------------------------


@pytest.mark.parametrize(("better", "worse"), [("7d 2c", "8s Ah"), ("Kd Qc", "3c 3h")])
def test_r14_3_examples_on_fourth_street(better: str, worse: str) -> None:
    """Ex (4th street): 7♦2♣ acts before 8♠A♥; 3♣3♥ acts after K♦Q♣."""
    assert low_board_rank(parse_cards(better)) > low_board_rank(parse_cards(worse))
    for seat_of_better in (0, 1):
        boards = {seat_of_better: better, 1 - seat_of_better: worse}
        hand = deal({seat: f"? ? {board}" for seat, board in boards.items()}, variant=RAZZ)
        hand.check_down(until_street=4)
        assert hand.state.first_actors[4] == seat_of_better


def test_r14_3_equal_best_boards_first_clockwise_from_the_button() -> None:
    for button, first in ((0, 1), (1, 2), (2, 0)):
        hand = deal({0: "? ? 7d 2c", 1: "? ? 7s 2h", 2: "? ? 7h 2d"}, button=button, variant=RAZZ)
        hand.check_down(until_street=4)
        assert hand.state.first_actors[4] == first


def test_r14_3_later_streets_and_seventh_as_on_sixth() -> None:
    hand = deal(
        {0: "? ? 9c 8c 7c 6c ?", 1: "? ? 2d 3d 4d Kd ?", 2: "? ? Ts 9s 8s 8h ?"}, variant=RAZZ
    )
    hand.check_down()
    assert hand.state.first_actors == {3: 2, 4: 1, 5: 1, 6: 0, 7: 0}


def test_r14_3_the_community_card_joins_every_board_on_seventh() -> None:
    """R12.2 in razz: the community card pairs the 6th-street leader's board (4-3-2-A)."""
    cards = {0: "? ? Ac 2c 3c 4c", 1: "? ? Ad 2d 3d 5d"}
    high = [
        "8c 9c Tc Jc",
        "8d 9d Td Jd",
        "8h 9h Th Jh",
        "8s 9s Ts Js",
        "Qc Qd Kc Kd",
        "Qh Qs Kh Ks",
    ]
    cards.update({seat: f"? ? {board}" for seat, board in enumerate(high, start=2)})
    hand = deal(cards, players=8, community="4h", variant=RAZZ).check_down()
    assert hand.state.first_actors[6] == 0
    assert hand.state.first_actors[7] == 1


# --- R14.4 no big bet --------------------------------------------------------------------------


def test_r14_4_an_open_pair_on_fourth_street_changes_nothing() -> None:
    cards = {0: "? ? 5c 5d", 1: "? ? Kc Qd"}
    razz = deal(cards, variant=RAZZ).check_down(until_street=4)
    assert razz.to_act == 1  # the unpaired board is the better low (R14.3)
    assert razz.offered() == {"check": 0, "bet": 5}
    razz.play("S1 check")
    assert razz.offered() == {"check": 0, "bet": 5}
    stud = deal(cards).check_down(until_street=4)
    assert stud.to_act == 0 and "bet_big" in stud.offered()  # R4.4 is stud high only


# --- R14.5 the odd chip to the lowest card ------------------------------------------------------


@pytest.mark.parametrize("low_clubs_seat", [0, 1])
def test_r14_5_odd_chip_to_the_lowest_card_by_suit_ace_lowest(low_clubs_seat: int) -> None:
    clubs, diamonds = "Ac Kc 7c 5c 4c 3c 2c", "Ad Kd 7d 5d 4d 3d 2d"
    cards = {low_clubs_seat: clubs, 1 - low_clubs_seat: diamonds, 2: "Qs Js Ks"}
    hand = run(cards, "S2 bring-in, S0 call, S1 complete, S2 fold, S0 call", variant=RAZZ)
    hand.check_down()
    (pot,) = hand.result.pots
    assert pot.amount == 15 and pot.low_winners == (0, 1)
    assert hand.shares() == [{low_clubs_seat: 8, 1 - low_clubs_seat: 7}]  # A♣ is the lowest

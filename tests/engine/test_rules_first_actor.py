"""docs/rules.md §6: who acts first on each street (R6.1-R6.5)."""

from __future__ import annotations

import pytest

from dealerbot.engine.events import CardDealt, CardsExposed, RoundSkipped
from dealerbot.engine.variants import Variant

from .helpers import Hand, deal, replay

VARIANTS = [Variant.STUD, Variant.STUD8]


# --- R6.1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_1_bring_in_acts_first_on_3rd_street(variant: Variant) -> None:
    hand = deal({0: "? ? Ks", 1: "? ? 3d", 2: "? ? 7c"}, variant=variant)
    assert hand.state.first_actors[3] == hand.state.bring_in_seat == hand.to_act == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_1_pair_on_board_beats_suited_connected_high_cards(variant: Variant) -> None:
    """Ex (5th street): 4♥K♣4♣ beats A♦K♦Q♦."""
    hand = deal(
        {0: "? ? Ad Kd Qd", 1: "? ? 4h Kc 4c", 2: "? ? 2c 7s 9h"}, variant=variant
    ).check_down(until_street=6)
    assert hand.state.first_actors[4] == 0  # A-K beats K-4 and 7-2
    assert hand.state.first_actors[5] == 1


BOARD_CASES = [
    # (stronger board, weaker board): 4 up cards each (door, 4th, 5th, 6th)
    ("2c 2d 3h 4s", "As Ks Qs Js"),  # pair > high card, even a four-flush/straight draw
    ("3c 3d 4c 4d", "Ac Ad Kc Qd"),  # two pair > pair
    ("5c 5d 5h 2c", "Ah As Kh Ks"),  # trips > two pair
    ("6c 6d 6h 6s", "Ac Ad Ah Kc"),  # quads > trips
    ("9c 9d 2c 3d", "8c 8d Ac Kd"),  # higher pair
    ("9c 9d Ac 2d", "9h 9s Kc Qd"),  # same pair: kicker
    ("9c 9d Ac 3d", "9h 9s Ad 2c"),  # same pair and kicker: next kicker
    ("Tc Td 3c 3d", "9c 9d 8c 8h"),  # two pair: top pair first
    ("Tc Td 4c 4d", "Th Ts 3c 3d"),  # two pair: then second pair
    ("Jc Jd Jh 2c", "Tc Td Th As"),  # trips: rank of the set, not the kicker
    ("9c 2d 3s 4c", "5h 6h 7h 8h"),  # straights and flushes never count
    ("Ac 5d 4s 3c", "Kh Qh Jh Th"),  # ace high beats a king-high straight flush board
]


def board_hand(first: str, second: str, variant: Variant, button: int | None = None) -> Hand:
    """Heads-up: S0 shows ``first`` and S1 ``second``; both check to 7th street."""
    return deal(
        {0: f"? ? {first} ?", 1: f"? ? {second} ?"}, variant=variant, button=button
    ).check_down(until_street=7)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("stronger", "weaker"), BOARD_CASES)
def test_r6_1_best_board_acts_first_on_6th_street(
    variant: Variant, stronger: str, weaker: str
) -> None:
    assert set(stronger.split()).isdisjoint(weaker.split())
    hand = board_hand(stronger, weaker, variant)
    assert hand.state.first_actors[6] == 0
    hand = board_hand(weaker, stronger, variant)
    assert hand.state.first_actors[6] == 1


# --- R6.2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("button", "first"), [(2, 0), (0, 1), (1, 0)])
def test_r6_2_equal_boards_first_clockwise_from_the_button(
    variant: Variant, button: int, first: int
) -> None:
    """Ex: B=S2, S0 K♠9♥, S1 K♦9♦ -> S0; with B=S0 -> S1."""
    hand = deal(
        {0: "? ? Ks 9h", 1: "? ? Kd 9d", 2: "? ? 2c 3d"}, variant=variant, button=button
    ).check_down(until_street=5)
    assert hand.state.bring_in_seat == 2
    assert hand.state.first_actors[4] == first


def test_r6_2_suits_never_break_ties_between_boards() -> None:
    # Same ranks, different suits, on 6th street: the button decides, not A♠ over A♣.
    for button, first in ((1, 0), (0, 1)):
        hand = board_hand("As Kc 7d 4h", "Ac Ks 7h 4d", Variant.STUD, button=button)
        assert hand.state.first_actors[6] == first


# --- R6.3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_3_seventh_street_uses_the_same_four_up_cards(variant: Variant) -> None:
    # S1's down 7th card would make his up cards look stronger if it counted.
    hand = deal({0: "? ? Ad Kd 9c 7h 2s", 1: "? ? Qc Jc 8d 6s Qh"}, variant=variant).check_down()
    assert hand.state.first_actors[6] == 0
    assert hand.state.first_actors[7] == 0


# --- R6.4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_4_best_board_all_in_next_player_starts(variant: Variant) -> None:
    """Ex: S1 shows Q♦Q♥ all-in -> S2 starts."""
    hand = deal(
        {0: "? ? 2c 5d", 1: "? ? Qd Qh", 2: "? ? Kh 9d", 3: "? ? Ts 8c"},
        stacks={1: 6},
        variant=variant,
    )
    hand.play("S0 bring_in, S1 complete, S2 call, S3 call, S0 call")  # S1: 1 + 5, all-in
    assert hand.state.stack_of(1) == 0
    assert hand.state.street == 4
    assert hand.state.first_actors[4] == 2
    assert hand.to_act == 2


def test_r6_4_next_player_skips_folded_seats() -> None:
    hand = deal({0: "? ? 2c 5d", 1: "? ? Qd Qh", 2: "? ? Kh", 3: "? ? Ts 8c"}, stacks={1: 6})
    hand.play("S0 bring_in, S1 complete, S2 fold, S3 call, S0 call")
    assert hand.state.first_actors[4] == 3


# --- R6.5 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_5_heads_up_all_in_for_the_ante_no_bring_in_cards_to_showdown(
    variant: Variant,
) -> None:
    """Ex: heads-up, S1 all-in for the ante -> no bring-in, cards to 7th, showdown."""
    hand = deal(
        {0: "Kc Kd 2c 5d 8h 9s Js", 1: "Ac Ad 3h 4c 6h Ts Qs"}, stacks={1: 1}, variant=variant
    )
    assert hand.state.is_over
    assert hand.state.bring_in_seat is None
    assert hand.state.first_actors == {}
    assert [e.street for e in hand.of_type(RoundSkipped)] == [3, 4, 5, 6, 7]
    assert len(hand.state.cards_of(0)) == len(hand.state.cards_of(1)) == 7
    assert hand.result.pots[0].amount == 2
    assert hand.result.payouts == {1: 2}  # aces beat kings
    exposed = hand.of_type(CardsExposed)  # R8.2: both hands up before 4th street
    assert sorted(e.seat for e in exposed) == [0, 1]
    fourth = [e for e in hand.of_type(CardDealt) if e.street == 4]
    assert hand.events.index(exposed[-1]) < hand.events.index(fourth[0])


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_5_two_of_three_all_in_for_the_ante_no_betting_at_all(variant: Variant) -> None:
    cards = {0: "Kc Kd 2c 5d 8h 9s Js", 1: "Ac Ad 3h 4c 6h Ts Qs", 2: "Qc Qd 7h 7c 2d 3c 4d"}
    hand = deal(cards, stacks={0: 1, 2: 1}, variant=variant)
    assert hand.state.is_over
    assert hand.state.bring_in_seat is None and hand.state.first_actors == {}
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(3, (0, 1, 2))]


@pytest.mark.parametrize("variant", VARIANTS)
def test_r6_5_rounds_skipped_once_only_one_player_can_act(variant: Variant) -> None:
    cards = {0: "? ? 2c 5d", 1: "? ? 9h 4c", 2: "? ? Kd 8s"}
    hand = deal(cards, stacks={1: 3, 2: 8}, variant=variant)
    hand.play("S0 bring_in, S1 call, S2 call")  # S1 all-in (1 + 2)
    hand.play("S2 bet, S0 call")  # S2 all-in (1 + 2 + 5): only S0 has chips
    assert hand.state.is_over
    assert [e.street for e in hand.of_type(RoundSkipped)] == [5, 6, 7]
    assert set(hand.state.first_actors) == {3, 4}
    assert all(len(hand.state.cards_of(seat)) == 7 for seat in (0, 1, 2))
    exposed = hand.of_type(CardsExposed)
    assert sorted(e.seat for e in exposed) == [0, 1, 2]  # R8.2
    later = [e for e in hand.of_type(CardDealt) if e.street >= 5]
    assert hand.events.index(exposed[-1]) < hand.events.index(later[0])


def test_r6_5_replay_reports_no_bring_in_and_no_first_actors() -> None:
    result = replay({0: "Kc Kd 2c 5d 8h 9s Js", 1: "Ac Ad 3h 4c 6h Ts Qs"}, "", stacks={1: 1})
    assert result["ok"], result
    assert result["bring_in_seat"] is None
    assert result["first_actor"] == {}
    assert result["final_stacks"] == {"0": 99, "1": 2}

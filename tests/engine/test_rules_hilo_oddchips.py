"""docs/rules.md §10 (stud/8 hi/lo split) and §11 (odd chips)."""

from __future__ import annotations

import pytest

from dealerbot.engine.events import ActionKind, HandShown
from dealerbot.engine.variants import Variant

from .helpers import Hand, deal, replay

VARIANTS = [Variant.STUD, Variant.STUD8]


def shown(hand: Hand) -> dict[int, HandShown]:
    return {e.seat: e for e in hand.of_type(HandShown)}


# --- R10.1 ------------------------------------------------------------------------------------


def test_r10_1_no_declaration_cards_speak() -> None:
    assert not any("declare" in kind.value for kind in ActionKind)
    hand = deal(
        {0: "Ac 2d 3h 5s 8c Kd Kh", 1: "Qs Qd Qc Js 9h Th 4s"}, variant=Variant.STUD8
    ).check_down(until_street=7)
    hand.play("check, check")
    assert hand.state.is_over  # no step after 7th-street betting
    pot = hand.result.pots[0]
    assert (pot.high_winners, pot.low_winners) == ((1,), (0,))


# --- R10.2 ------------------------------------------------------------------------------------

OPPONENT = "Kh Ks Qh Qs Jc Jd Tc"  # two pair, no low


@pytest.mark.parametrize(
    ("cards", "low"),
    [
        ("8h 7h 6h 5h 4h Kc Kd", "8-7-6-5-4"),  # a straight flush is still a low
        ("Ac 2d 3h 4s 8c Td Jh", "8-4-3-2-A"),  # ace low
        ("Ac 2d 3h 4s 9c Td Jh", None),  # a nine does not qualify
        ("Ac Ad 2c 3d 4h 9s 9c", None),  # four different low ranks only
        ("2c 2d 3c 3d 4h 4s 9c", None),  # pairs do not make five ranks
        ("7c 7d 6c 6d 5h 5s 4c", None),  # four ranks, however low
    ],
)
def test_r10_2_low_is_five_different_ranks_eight_or_lower(cards: str, low: str | None) -> None:
    hand = deal({0: cards, 1: OPPONENT}, variant=Variant.STUD8).check_down()
    assert shown(hand)[0].low == (low if low is not None else "no low")
    assert hand.result.pots[0].low_winners == ((0,) if low is not None else ())


# --- R10.3 ------------------------------------------------------------------------------------


def test_r10_3_low_and_high_chosen_apart() -> None:
    """Ex: A♣2♦3♥5♠8♣K♦K♥ -> low 8-5-3-2-A, high pair of kings."""
    hand = deal(
        {0: "Ac 2d 3h 5s 8c Kd Kh", 1: "9c 9d Tc Jd 4s 6h Qs"}, variant=Variant.STUD8
    ).check_down()
    assert (shown(hand)[0].high, shown(hand)[0].low) == ("Pair of kings", "8-5-3-2-A")
    pot = hand.result.pots[0]
    assert (pot.high_winners, pot.low_winners) == ((0,), (0,))


def test_r10_3_same_cards_may_serve_high_and_low() -> None:
    hand = deal(
        {0: "Ah 2h 3h 5h 8h Kc Kd", 1: "9c 9d Tc Jd 4s 6c Qs"}, variant=Variant.STUD8
    ).check_down()
    assert (shown(hand)[0].high, shown(hand)[0].low) == ("Flush, ace high", "8-5-3-2-A")


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("7c 5d 4h 3s 2c Kd Qh", "7d 6c 3h 2s Ac Ks Qd"),  # 7-5-4-3-2 beats 7-6-3-2-A
        ("Ac 2d 3h 4s 5c Kd Qh", "Ad 2c 3d 4h 6s Ks Qs"),  # A-2-3-4-5 is best
        ("8c 6d 4h 3s 2c Kd Qh", "8d 6c 5h 2s Ac Ks Qd"),  # 8-6-4-3-2 beats 8-6-5-2-A
    ],
)
def test_r10_3_lows_compare_from_the_highest_card_down(better: str, worse: str) -> None:
    for seats in ((better, worse), (worse, better)):
        hand = deal(dict(enumerate(seats)), variant=Variant.STUD8).check_down()
        winner = seats.index(better)
        assert hand.result.pots[0].low_winners == (winner,)


# --- R10.4 ------------------------------------------------------------------------------------

# Pot 41: S0 and S1 put in 16 each, S2 3 (folds to the completion), S3 6 (folds on 5th).
R10_4_CARDS = {
    0: "Qs Qd Qc Ks Jh 9d 4c",  # trips, no low
    1: "Ac 2d 3h 5s 8c Kd Kh",  # 8-5-3-2-A, pair of kings
    2: "? ? 9h",
    3: "? ? Th 4h 6d",
}
R10_4_ACTIONS = (
    "S1 bring_in, S2 call, S3 complete, S0 call, S1 call, S2 fold,"
    "S0 check, S1 check, S3 check,"
    "S0 bet, S1 call, S3 fold,"
    "S0 check, S1 check, S0 check, S1 check"
)


def test_r10_4_pot_splits_half_high_half_low() -> None:
    """Ex: pot 41: Q♠Q♦Q♣ trips gets 21, the 8-5-3-2-A low 20."""
    hand = deal(R10_4_CARDS, variant=Variant.STUD8).play(R10_4_ACTIONS)
    pot = hand.result.pots[0]
    assert (pot.amount, pot.high_winners, pot.low_winners) == (41, (0,), (1,))
    assert hand.shares() == [{0: 21, 1: 20}]


def test_r10_4_same_example_through_the_replay_tool() -> None:
    result = replay(R10_4_CARDS, R10_4_ACTIONS, variant=Variant.STUD8)
    assert result["ok"], result
    assert result["pots"] == [
        {"amount": 41, "eligible": [0, 1], "high_winners": [0], "low_winners": [1]}
    ]
    assert result["payouts"] == {"0": 21, "1": 20}


def test_r10_4_no_qualifying_low_high_takes_all() -> None:
    hand = deal(
        {0: "Qs Qd Qc Ks Jh 9d 4c", 1: "Ac 2d 3h 9s Tc Kd Kh"}, variant=Variant.STUD8
    ).check_down()
    pot = hand.result.pots[0]
    assert (pot.high_winners, pot.low_winners) == ((0,), ())
    assert hand.shares() == [{0: 6}]


def test_r10_4_stud_high_only_never_splits_for_low() -> None:
    hand = deal(R10_4_CARDS).play(R10_4_ACTIONS)
    assert hand.shares() == [{0: 41}]
    assert hand.result.pots[0].low_winners == ()


# --- R10.5 ------------------------------------------------------------------------------------


def test_r10_5_one_hand_scoops_both_halves() -> None:
    """Ex: 5♣4♦3♥2♠A♣ makes a straight and the best low."""
    hand = deal(
        {0: "5c 4d 3h 2s Ac Kd Qh", 1: "8c 7d 6h 4c 2d 9s 9h"}, variant=Variant.STUD8
    ).check_down()
    pot = hand.result.pots[0]
    assert (pot.high_winners, pot.low_winners) == ((0,), (0,))
    assert hand.shares() == [{0: 6}]
    assert (shown(hand)[0].high, shown(hand)[0].low) == ("Straight, five high", "5-4-3-2-A")


# --- R10.6 ------------------------------------------------------------------------------------


def test_r10_6_tied_lows_split_their_half() -> None:
    """Ex: pot 80, S0 high 40; S1, S2 tie 8-6-4-3-2 -> 20 each."""
    cards = {
        0: "As Ah Ad Jc Jd 9s 9h",  # aces full, no low
        1: "2c 3d 4h 6s 8c Kd Kh",  # 8-6-4-3-2, kings
        2: "2d 3h 4s 6c 8d Qs Qd",  # 8-6-4-3-2, queens
        3: "? ? 9c",
        4: "? ? Tc",
    }
    hand = deal(cards, variant=Variant.STUD8)
    hand.play("S1 bring_in, S2 complete, S3 fold, S4 fold, S0 call, S1 call")
    hand.play("S0 check, S1 check, S2 check")
    hand.play("S0 bet, S1 call, S2 call, S0 bet, S1 call, S2 call")
    hand.play("S0 check, S1 check, S2 check")
    pot = hand.result.pots[0]
    assert (pot.amount, pot.high_winners, set(pot.low_winners)) == (80, (0,), {1, 2})
    assert hand.shares() == [{0: 40, 1: 20, 2: 20}]


# --- R11.1 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r11_1_each_odd_chip_to_a_different_player(variant: Variant) -> None:
    """Pot 11 among three tied straights: 4/4/3, never 5/3/3."""
    cards = {
        0: "Kc Qd 5c 6d 7h 8s 9c",
        1: "Kd Qh 5d 6h 7s 8c 9d",
        2: "Kh Qs 5h 6s 7c 8d 9h",
        3: "? ? Tc",
        4: "? ? Jc",
    }
    hand = deal(cards, variant=variant).play("S0 bring_in, S1 call, S2 call, S3 fold, S4 fold")
    hand.check_down()
    pot = hand.result.pots[0]
    assert (pot.amount, set(pot.high_winners)) == (11, {0, 1, 2})
    assert hand.shares() == [{2: 4, 1: 4, 0: 3}]  # K♥ and K♦ beat K♣


# --- R11.2 ------------------------------------------------------------------------------------


def test_r11_2_odd_chip_of_a_hi_lo_split_goes_high() -> None:
    cards = {0: "Qs Qd Qc Ks Jh 9d 4c", 1: "Ac 2d 3h 5s 8c Kd Kh", 2: "? ? Th"}
    hand = deal(cards, variant=Variant.STUD8).play("S1 bring_in, S2 fold, S0 call")
    hand.check_down()
    assert hand.result.pots[0].amount == 7
    assert hand.shares() == [{0: 4, 1: 3}]


# --- R11.3 ------------------------------------------------------------------------------------

BROADWAY_HEARTS = "Ah Kh Qh Jd Td 3c 2d"
BROADWAY_SPADES = "As Ks Qs Js Tc 3d 2c"


@pytest.mark.parametrize(
    ("spade_seat", "third_street"),
    [
        (1, "S0 bring_in, S1 call, S2 fold, S3 fold, S4 fold"),  # Q♥ door brings in
        (0, "S1 bring_in, S2 fold, S3 fold, S4 fold, S0 call"),
    ],
)
def test_r11_3_tied_high_odd_chip_to_the_highest_card_by_suit(
    spade_seat: int, third_street: str
) -> None:
    """Ex: pot 9, tie above: A♠ beats A♥ -> 5 / 4."""
    heart_seat = 1 - spade_seat
    cards = {
        spade_seat: BROADWAY_SPADES,
        heart_seat: BROADWAY_HEARTS,
        2: "? ? Kc",
        3: "? ? Kd",
        4: "? ? Ac",
    }
    hand = deal(cards).play(third_street).check_down()
    assert hand.result.pots[0].amount == 9
    assert hand.shares() == [{spade_seat: 5, heart_seat: 4}]


@pytest.mark.parametrize("swap", [False, True])
def test_r11_3_tied_low_odd_chip_to_the_lowest_card_ace_lowest(swap: bool) -> None:
    """Pot 11: high 6; the tied 7-5-4-3-A lows share 5: A♣ beats A♦ -> 3 / 2."""
    club_low, diamond_low = "Ac 3c 7h 4d 5s Kc Kd", "Ad 3d 7s 4h 5c Qc Qd"
    club_seat, diamond_seat = (2, 1) if swap else (1, 2)
    cards = {
        0: "Jc Jd Jh 9s 9c Th Ts",
        club_seat: club_low,
        diamond_seat: diamond_low,
        3: "? ? Kh",
        4: "? ? Ks",
    }
    hand = deal(cards, variant=Variant.STUD8)
    hand.act(ActionKind.BRING_IN)  # 7♥ door
    while hand.state.street == 3:
        seat = hand.to_act
        hand.act(ActionKind.FOLD if seat in (3, 4) else ActionKind.CALL)
    hand.check_down()
    pot = hand.result.pots[0]
    assert (pot.amount, pot.high_winners, set(pot.low_winners)) == (11, (0,), {1, 2})
    assert hand.shares() == [{0: 6, club_seat: 3, diamond_seat: 2}]


# --- R11.4 ------------------------------------------------------------------------------------

WHEELISH_SPADE = "2c 3d 4h 5s 6s Ks 9d"
WHEELISH_HEART = "2d 3c 4s 5h 6h Kh 9c"
R11_4_BETTING = "S0 check, S1 check, S0 bet, S1 call, S0 bet, S1 call, S0 bet, S1 call"


def test_r11_4_same_players_tie_both_halves_split_the_whole_pot() -> None:
    """Ex: pot 66 -> 33 each, not 34/32 half by half."""
    hand = deal({0: WHEELISH_SPADE, 1: WHEELISH_HEART}, variant=Variant.STUD8)
    hand.play("S0 bring_in, S1 call").play(R11_4_BETTING)
    pot = hand.result.pots[0]
    assert (pot.amount, set(pot.high_winners), set(pot.low_winners)) == (66, {0, 1}, {0, 1})
    assert hand.shares() == [{0: 33, 1: 33}]


def test_r11_4_odd_pot_odd_chip_to_the_high_card_holder() -> None:
    """Ex: pot 67 -> 34 to S0 (K♠)."""
    hand = deal({0: WHEELISH_SPADE, 1: WHEELISH_HEART, 2: "? ? Ad"}, variant=Variant.STUD8)
    hand.play("S0 bring_in, S1 call, S2 fold").play(R11_4_BETTING)
    assert hand.result.pots[0].amount == 67
    assert hand.shares() == [{0: 34, 1: 33}]


# --- R11.5 ------------------------------------------------------------------------------------


def test_r11_5_each_pot_is_split_on_its_own() -> None:
    """Main pot 5 and side pot 25, both tied: each odd chip to the A♠ holder -> 16/14
    (one 30-chip pot would split 15/15)."""
    cards = {
        0: BROADWAY_HEARTS,
        1: BROADWAY_SPADES,
        2: "2h 3h 7c 8h 9s 4c 5d",  # all-in for the ante; nine high
        3: "? ? 4s 5h",
        4: "? ? 8s",
    }
    hand = deal(cards, stacks={2: 1})
    hand.play("S3 bring_in, S4 fold, S0 complete, S1 call, S3 call")
    hand.play("S0 bet, S1 call, S3 fold")
    hand.check_down()
    pots = [(p.amount, p.eligible, set(p.high_winners)) for p in hand.result.pots]
    assert pots == [(5, (0, 1, 2), {0, 1}), (25, (0, 1), {0, 1})]
    assert hand.shares() == [{1: 3, 0: 2}, {1: 13, 0: 12}]
    assert hand.result.payouts == {0: 14, 1: 16}


def test_r11_1_no_player_gets_two_odd_chips_from_one_hilo_pot():
    """Pot 42 -> 21 high (S0, S1 tie) and 21 low (S0, S2 tie): S0 takes the high odd chip,
    so the low odd chip goes to S2 even though S0's low card would rank first."""
    from dealerbot.engine.pots import Pot, award_pot

    award = award_pot(
        Pot(42, (0, 1, 2)),
        high={0: 5, 1: 5, 2: 1}.__getitem__,
        low={0: 9, 1: None, 2: 9}.__getitem__,
        high_odd_chip={0: 3, 1: 2, 2: 1}.__getitem__,
        low_odd_chip={0: 3, 1: 2, 2: 1}.__getitem__,
    )
    assert award.shares == {0: 21, 1: 10, 2: 11}
    assert sum(award.shares.values()) == 42

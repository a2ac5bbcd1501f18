"""docs/rules.md §8 (showdown: order, early exposure, cards speak, uncontested) and §9 (R9.1)."""

from __future__ import annotations

import pytest

from dealerbot.engine.events import CardDealt, CardsExposed, HandShown
from dealerbot.engine.showdown import show_order
from dealerbot.engine.variants import Variant

from .helpers import deal, replay

VARIANTS = [Variant.STUD, Variant.STUD8]

# S0 brings in (2♣); S1 has the best board on every street, S2 the second best.
SHOWDOWN = {
    0: "9c 9d 2c 3d 4s 6h Jd",  # pair of nines, no low
    1: "Ah 5c Kh Qd Jc 9s 8d",  # ace high
    2: "Tc Ts Th 8h 6c 5s 2d",  # trips
}


# --- R8.1 -------------------------------------------------------------------------------------


def test_r8_1_last_raiser_shows_first_then_clockwise() -> None:
    """Ex: S1 bets, S2 raises, S1 calls -> S2, then S1."""
    actions = (
        "S0 bring_in, S1 call, S2 call, S1 bet, S2 call, S0 fold,"
        "S1 check, S2 check, S1 check, S2 check, S1 bet, S2 raise, S1 call"
    )
    result = replay(SHOWDOWN, actions)
    assert result["ok"], result
    assert result["first_actor"] == {"3": 0, "4": 1, "5": 1, "6": 1, "7": 1}
    assert result["showdown_order"] == [2, 1]
    assert result["pots"][0]["high_winners"] == [2]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(
    ("seventh", "order"),
    [
        ("S1 check, S2 check, S0 check", (1, 2, 0)),  # nobody bet: first to act on 7th
        ("S1 bet, S2 call, S0 call", (1, 2, 0)),
        ("S1 check, S2 bet, S0 call, S1 call", (2, 0, 1)),
        ("S1 bet, S2 call, S0 raise, S1 call, S2 call", (0, 1, 2)),
    ],
)
def test_r8_1_showdown_order(variant: Variant, seventh: str, order: tuple[int, ...]) -> None:
    hand = deal(SHOWDOWN, variant=variant).check_down(until_street=7)
    assert hand.state.first_actors[7] == 1
    hand.play(seventh)
    assert hand.result.showdown_order == order
    assert tuple(e.seat for e in hand.of_type(HandShown)) == order


def test_r8_1_bettor_on_7th_shows_first_even_if_an_earlier_street_had_a_raiser() -> None:
    hand = deal(SHOWDOWN).check_down(until_street=6)
    hand.play("S1 check, S2 bet, S0 raise, S1 call, S2 call")  # 6th: S0 raised
    hand.play("S1 check, S2 check, S0 check")
    assert hand.result.showdown_order == (1, 2, 0)


# --- R8.2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_2_betting_over_early_all_hands_up_then_the_rest_dealt(variant: Variant) -> None:
    hand = deal(SHOWDOWN, stacks={2: 8}, variant=variant)
    hand.play("S0 bring_in, S1 call, S2 call, S1 bet, S2 call, S0 fold")  # S2 all-in (8)
    assert hand.state.is_over
    exposed = hand.of_type(CardsExposed)
    assert sorted(e.seat for e in exposed) == [1, 2]
    assert {e.seat: e.cards for e in exposed} == {
        1: hand.state.cards_of(1)[:4],
        2: hand.state.cards_of(2)[:4],
    }
    first_exposed = hand.events.index(exposed[0])
    later = [e for e in hand.of_type(CardDealt) if e.street >= 5]
    assert len(later) == 6
    assert all(hand.events.index(e) > first_exposed for e in later)
    assert all(all(flags) for flags in (hand.state.face_up[1], hand.state.face_up[2]))
    assert hand.result.pots[0].high_winners == (2,)


# --- R8.3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_3_every_live_hand_is_shown_and_cards_speak(variant: Variant) -> None:
    hand = deal(SHOWDOWN, variant=variant).check_down()
    shown = {e.seat: e for e in hand.of_type(HandShown)}
    assert set(shown) == {0, 1, 2}  # losers too: nobody mucks
    assert shown[2].high == "Three of a kind, tens"
    assert shown[0].high == "Pair of nines"
    assert shown[1].high == "High card, ace"
    assert all(shown[seat].cards == hand.state.cards_of(seat) for seat in (0, 1, 2))
    if variant is Variant.STUD8:
        assert [shown[seat].low for seat in (0, 1, 2)] == ["no low", "no low", "no low"]
    else:
        assert all(event.low is None for event in shown.values())
    assert hand.result.pots[0].high_winners == (2,)


def test_r8_3_folded_hands_are_not_shown() -> None:
    hand = deal(SHOWDOWN).play("S0 bring_in, S1 call, S2 call, S1 bet, S2 call, S0 fold")
    hand.check_down()
    assert sorted(e.seat for e in hand.of_type(HandShown)) == [1, 2]


# --- R8.4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r8_4_all_fold_last_player_wins_unshown_no_more_cards(variant: Variant) -> None:
    """Ex: S0 bets 10 on 5th, both fold -> 10 back, S0 wins."""
    cards = {0: "? ? Ah Kd Qc", 1: "? ? 2c 3d 6h", 2: "? ? 9d 4c 7s"}
    hand = deal(cards, variant=variant)
    hand.play("S1 bring_in, S2 call, S0 call, S0 check, S1 check, S2 check")
    hand.play("S0 bet, S1 fold, S2 fold")
    assert hand.state.is_over
    assert hand.result.returned == {0: 10}
    assert [(p.amount, p.high_winners, p.low_winners) for p in hand.result.pots] == [(9, (0,), ())]
    assert hand.result.final_stacks == {0: 106, 1: 97, 2: 97}
    assert hand.result.showdown_order == ()
    assert not hand.of_type(HandShown)
    assert all(len(hand.state.cards_of(seat)) == 5 for seat in (0, 1, 2))
    assert not [e for e in hand.of_type(CardDealt) if e.street > 5]


def test_r8_4_fold_leaving_an_all_in_player_is_not_a_win_unshown() -> None:
    """S2 folds to S1's raise but the all-in S0 is still in: S1's uncalled 5 comes back,
    S1 alone takes the side pot he is eligible for, the main pot goes to showdown."""
    cards = {0: "Ac Ad 2c 5d 8h 9s Js", 1: "Kc Kd 9h 4c 6h Ts Qs", 2: "? ? Th 3d"}
    hand = deal(cards, stacks={0: 3})
    hand.play("S0 bring_in, S1 complete, S2 call")  # S0 all-in for 3
    hand.play("S2 bet, S1 raise, S2 fold")
    assert hand.state.is_over
    assert hand.result.returned == {1: 5}
    pots = [(p.amount, p.eligible, p.high_winners) for p in hand.result.pots]
    assert pots == [(9, (0, 1), (0,)), (16, (1,), (1,))]
    assert sorted(e.seat for e in hand.of_type(HandShown)) == [0, 1]
    assert len(hand.state.cards_of(0)) == len(hand.state.cards_of(1)) == 7
    assert hand.result.final_stacks == {0: 9, 1: 105, 2: 89}


def test_r8_4_replay_reports_the_uncontested_pot() -> None:
    cards = {0: "? ? Ah Kd Qc", 1: "? ? 2c 3d 6h", 2: "? ? 9d 4c 7s"}
    actions = (
        "S1 bring_in, S2 call, S0 call, S0 check, S1 check, S2 check, S0 bet, S1 fold, S2 fold"
    )
    result = replay(cards, actions, variant=Variant.STUD8)
    assert result["ok"], result
    assert result["returned"] == {"0": 10}
    assert result["pots"] == [
        {"amount": 9, "eligible": [0], "high_winners": [0], "low_winners": []}
    ]
    assert result["showdown_order"] == []


# --- R9.1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r9_1_equal_hands_split_suits_never_break_ties(variant: Variant) -> None:
    """Ex: A♥K♥Q♥J♦T♦3♣2♦ vs A♠K♠Q♠J♠T♣3♦2♣: both broadway, split."""
    hand = deal({0: "Ah Kh Qh Jd Td 3c 2d", 1: "As Ks Qs Js Tc 3d 2c"}, variant=variant)
    hand.check_down()
    pot = hand.result.pots[0]
    assert (pot.amount, set(pot.high_winners)) == (6, {0, 1})
    assert hand.shares() == [{0: 3, 1: 3}]
    shown = {e.seat: e.high for e in hand.of_type(HandShown)}
    assert shown == {0: "Straight, ace high", 1: "Straight, ace high"}


@pytest.mark.parametrize(
    ("first", "second", "winners"),
    [
        ("Ac 2d 3h 4s 5c Kd Qh", "2c 3d 4h 5s 6c Jd 9h", {1}),  # the wheel is the lowest straight
        ("Ac 2d 3h 4s 5c Kd Qh", "9c 9d 9h Js Tc 7d 6h", {0}),  # ... but still a straight
        ("Kc Kd 7h 7s 3c 3d Ah", "Ks Kh 7c 7d 4c 4d Qh", {0}),  # best five: K K 7 7 A
        ("Ac Ad Kc Kd Qh 2c 3d", "As Ah Ks Kh Qc 4c 5d", {0, 1}),  # 6th/7th cards do not count
        ("2h 5h 9h Jh 3h Kc Kd", "Ts Js Qs Kh As 2c 3c", {0}),  # flush beats straight
        ("9c 9d 9h 4c 4d 2s 3s", "Ah Kh Qh Jh 2h 8c 7c", {0}),  # full house beats flush
        ("8c 8d 8h 8s 2c 3d 4h", "Tc Td Th 9c 9d 2h 3s", {0}),  # quads beat a full house
        ("5d 6d 7d 8d 9d 2c 3c", "Ac As Ad Ah Kc Kd Ks", {0}),  # straight flush beats quads
    ],
)
def test_r9_1_best_five_of_seven_standard_ranks(first: str, second: str, winners: set[int]) -> None:
    hand = deal({0: first, 1: second}).check_down()
    pot = hand.result.pots[0]
    assert set(pot.high_winners) == winners
    if len(winners) == 2:
        assert hand.shares() == [{0: 3, 1: 3}]
    else:
        assert hand.result.payouts == {winners.pop(): 6}


def test_r8_1_show_order_from_the_round_values() -> None:
    """show_order alone: the last 7th-street aggressor, else its first actor, then clockwise;
    without 7th-street betting, left of the button. Folded seats are never in it."""
    folded = [False, True, False, False]
    assert show_order(1, folded, seventh_first=2, last_aggressor=3) == (3, 0, 2)
    assert show_order(1, folded, seventh_first=2, last_aggressor=None) == (2, 3, 0)
    assert show_order(3, folded, seventh_first=None, last_aggressor=None) == (0, 2, 3)

"""The house's named cases: each deals the hand the case names and asks the house, through its
seat's own view, what it does.

Seats are S0..S2 clockwise, the button on the last seat; cards are given in the order each
seat receives them (down, down, door, 4th, ...), as in the engine's rule tests. The house is
always S0 here; the other seats' actions are scripted.
"""

from __future__ import annotations

import random

from dealerbot.engine import ActionKind, Variant
from dealerbot.house import HouseStyle, decide
from tests.engine.helpers import Hand, deal
from tests.house.helpers import house_decides, situation_of

NO_BLUFF = HouseStyle(bluff_rate=0.0)


def decided(hand: Hand, style: HouseStyle = NO_BLUFF, seed: int = 0) -> tuple[ActionKind, str]:
    assert hand.to_act == 0, f"the case should give S0 the turn, not S{hand.to_act}"
    decision = house_decides(hand, seed, style)
    return decision.option.kind, decision.reason


# --- 3rd street: stud ----------------------------------------------------------------------


def test_rolled_up_trips_raise_a_completion() -> None:
    hand = deal({0: "9c 9d 9h", 1: "Kc Qd 2c", 2: "Jc Td Ah"}).play("S1 bring_in, S2 complete")
    assert decided(hand) == (ActionKind.RAISE, "rolled-up nines: raise")


def test_rolled_up_trips_complete_an_unopened_pot() -> None:
    hand = deal({0: "9c 9d 9h", 1: "Kc Qd 2c", 2: "Jc Td Ah"}).play("S1 bring_in, S2 fold")
    assert decided(hand) == (ActionKind.COMPLETE, "rolled-up nines: complete")


def test_a_pair_dominated_by_the_raisers_door_card_folds() -> None:
    hand = deal({0: "5c 5d 9h", 1: "Kc Qd 2c", 2: "Jc Td Kh"}).play("S1 bring_in, S2 complete")
    kind, reason = decided(hand)
    assert kind is ActionKind.FOLD
    assert reason == "pair of fives facing a raise from a king: dominated: fold"


def test_the_same_pair_facing_a_lower_door_card_plays_on() -> None:
    """The counterpart of the dominated case: only the raiser's door card changed."""
    hand = deal({0: "5c 5d 9h", 1: "Kc Qd 2c", 2: "Jc Td 3h"}).play("S1 bring_in, S2 complete")
    kind, reason = decided(hand)
    assert kind is ActionKind.RAISE
    assert reason.startswith("pair of fives, opponents show nothing higher")


def test_a_big_pair_with_nothing_higher_showing_completes() -> None:
    hand = deal({0: "Kd Ks 7h", 1: "4c 5d 2c", 2: "Jc Td 9h"}).play("S1 bring_in, S2 call")
    assert decided(hand) == (
        ActionKind.COMPLETE,
        "pair of kings, opponents show nothing higher: complete",
    )


def test_no_pair_no_draw_folds_to_a_completion() -> None:
    hand = deal({0: "3d 8s Jh", 1: "Kc Qd 2c", 2: "Ac Kd Qh"}).play("S1 bring_in, S2 complete")
    assert decided(hand)[0] is ActionKind.FOLD


def test_a_forced_bring_in_with_nothing_brings_in() -> None:
    hand = deal({0: "7d Js 2c", 1: "Kc Qd 5c", 2: "Jc Td 9h"})
    assert decided(hand) == (ActionKind.BRING_IN, "no pair and no draw (7♦ J♠ 2♣): bring in")


def test_a_live_three_flush_calls_a_completion_and_a_dead_one_folds() -> None:
    live = deal({0: "4h 9h Jh", 1: "Kc Qd 2c", 2: "Jc Td Qs"}).play("S1 bring_in, S2 complete")
    kind, reason = decided(live)
    assert (kind, reason) == (ActionKind.CALL, "three to a flush, 0 of the suit out: call")
    dead = deal(
        {0: "4h 9h Jh", 1: "Kc Qd 2h", 2: "Jc Td Qh", 3: "8c 8d Ah", 4: "2s 3s Kh", 5: "5d 6d 7h"}
    ).play("S1 bring_in, S2 complete, S3 call, S4 call, S5 call")
    kind, reason = decided(dead)
    assert reason.startswith("three to a flush, 5 of the suit out")
    assert kind is ActionKind.FOLD


def test_a_marginal_hand_facing_a_completion_asks_the_monte_carlo() -> None:
    hand = deal({0: "Ac Kd 5h", 1: "Kc Qd 2c", 2: "Jc Td 9h"}).play("S1 bring_in, S2 complete")
    decision = house_decides(hand, style=NO_BLUFF)
    assert decision.equity is not None and 0 < decision.equity < 1
    assert "equity" in decision.reason


# --- 3rd street: razz and stud/8 --------------------------------------------------------------


def test_razz_three_low_cards_complete() -> None:
    hand = deal({0: "Ac 2d 3h", 1: "5c 6d Kc", 2: "9c Td 8s"}, variant=Variant.RAZZ)
    hand.play("S1 bring_in, S2 call")
    assert decided(hand) == (ActionKind.COMPLETE, "three low cards to a three (3-2-A): complete")


def test_razz_a_rough_hand_folds_to_a_completion() -> None:
    hand = deal({0: "Jc Qd 4h", 1: "5c 6d Kc", 2: "2c 3d As"}, variant=Variant.RAZZ)
    hand.play("S1 bring_in, S2 complete")
    assert decided(hand) == (ActionKind.FOLD, "a rough queen (Q-J-4): fold")


def test_razz_an_eight_facing_a_raise_from_an_ace_is_dominated() -> None:
    hand = deal({0: "8c 7d 3h", 1: "5c 6d Kc", 2: "2c 3d As"}, variant=Variant.RAZZ)
    hand.play("S1 bring_in, S2 complete")
    kind, reason = decided(hand)
    assert kind is ActionKind.FOLD
    assert reason.endswith("facing a raise from an ace: dominated: fold")


def test_stud8_three_low_cards_with_an_ace_complete() -> None:
    hand = deal({0: "Ac 3d 5h", 1: "Kc Qd 2c", 2: "Jc Td 9h"}, variant=Variant.STUD8)
    hand.play("S1 bring_in, S2 call")
    assert decided(hand) == (ActionKind.COMPLETE, "three low cards with an ace (5-3-A): complete")


def test_stud8_aces_with_a_low_card_raise() -> None:
    hand = deal({0: "Ad As 4h", 1: "Kc Qd 2c", 2: "Jc Td Kh"}, variant=Variant.STUD8)
    hand.play("S1 bring_in, S2 complete")
    assert decided(hand) == (ActionKind.RAISE, "pair of aces with a low card: raise")


def test_stud8_high_cards_without_a_low_fold() -> None:
    hand = deal({0: "Kd Qs 9h", 1: "Kc Qd 2c", 2: "Jc Td 5h"}, variant=Variant.STUD8)
    hand.play("S1 bring_in, S2 complete")
    assert decided(hand)[0] is ActionKind.FOLD


# --- later streets ---------------------------------------------------------------------------


def test_a_full_house_bets() -> None:
    hand = deal({0: "9c 9d 9h Ks Kd", 1: "4c 5d 2c 6h 7h", 2: "Jc Td 8h 3s 3c"})
    hand.check_down(until_street=5)
    kind, reason = decided(hand)
    assert kind is ActionKind.BET
    assert reason.startswith("full house, nines full of kings")


def test_a_hand_the_board_beats_folds_on_seventh_street() -> None:
    hand = deal({0: "2d 3c 7h 9s Jd 4c 3d", 1: "Kc Qd 2c 8c 8d 2h Ah"}, players=2)
    hand.check_down(until_street=7).act(ActionKind.BET, 1)
    assert decided(hand) == (
        ActionKind.FOLD,
        "pair of threes; seat 1 shows 2♣ 8♣ 8♦ 2♥, two pair, which beats it: fold",
    )


def test_razz_a_made_six_low_bets() -> None:
    hand = deal({0: "Ac 2d 3h 4s 6d", 1: "Kc Qd Jc Ts 9d"}, variant=Variant.RAZZ)
    hand.check_down(until_street=5)
    kind, reason = decided(hand)
    assert kind is ActionKind.BET
    assert reason.startswith("a made six low (6-4-3-2-A)")


def test_razz_no_eight_possible_against_a_smooth_board_folds() -> None:
    hand = deal({0: "Kc Qd 9c Js Td 8h", 1: "Jh Qh 2c 3d 4h 5s"}, variant=Variant.RAZZ, players=2)
    hand.check_down(until_street=6).act(ActionKind.BET, 1)
    kind, reason = decided(hand)
    assert kind is ActionKind.FOLD
    assert "no eight low possible" in reason


def test_a_later_street_close_decision_uses_the_monte_carlo() -> None:
    hand = deal({0: "Ah 7d 7c Qs", 1: "Kc Qd 2c Ks", 2: "Jc Td 9h 3c"})
    hand.check_down(until_street=4).act(ActionKind.BET, 1).act(ActionKind.CALL, 2)
    decision = house_decides(hand, style=NO_BLUFF)
    assert decision.equity is not None
    assert decision.reason.startswith("pair of sevens; opponents show no pair or draw; equity ")


def test_never_folds_when_checking_is_free() -> None:
    hand = deal({0: "2d 4h 7s 9s", 1: "Kc Kd 2c Ks", 2: "Jc Td 9h 3c"})
    hand.check_down(until_street=4)
    while hand.to_act != 0:
        hand.act(ActionKind.CHECK)
    assert decided(hand)[0] in {ActionKind.CHECK, ActionKind.BET}


# --- bluffs ----------------------------------------------------------------------------------


def steal_spot() -> Hand:
    """S0 holds nothing behind an ace door; S1 brought in with a three, S2 folded."""
    return deal({0: "7d 2s Ah", 1: "Kc Qd 3c", 2: "Jc Td 5h"}).play("S1 bring_in, S2 fold")


def test_a_steal_at_bluff_rate_one_and_a_fold_at_zero() -> None:
    assert decided(steal_spot(), HouseStyle(bluff_rate=1.0)) == (
        ActionKind.COMPLETE,
        "steal: my board A♥ looks the strongest: complete",
    )
    assert decided(steal_spot(), HouseStyle(bluff_rate=0.0))[0] is ActionKind.FOLD


def test_the_bluff_rate_is_the_share_of_steals() -> None:
    style = HouseStyle(bluff_rate=0.25)
    situation = situation_of(steal_spot())
    trials = 400
    steals = sum(
        decide(situation, random.Random(seed), style).option.kind is ActionKind.COMPLETE
        for seed in range(trials)
    )
    assert 0.18 < steals / trials < 0.32  # 0.25 +- 3.2 standard errors


def test_no_bluff_when_a_board_shows_more() -> None:
    """The same spot with S1's door a king: the ace no longer looks the strongest."""
    hand = deal({0: "7d 2s Qh", 1: "Kc Qd 3c", 2: "Jc Td Ah"}).play("S1 bring_in, S2 call")
    assert decided(hand, HouseStyle(bluff_rate=1.0))[0] is ActionKind.FOLD

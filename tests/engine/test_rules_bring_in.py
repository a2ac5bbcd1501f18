"""docs/rules.md §3: the bring-in on 3rd street (R3.1-R3.7), both variants."""

from __future__ import annotations

import pytest

from dealerbot.engine.errors import IllegalActionError
from dealerbot.engine.events import Action, ActionKind, ActionTaken
from dealerbot.engine.state import apply, legal_actions
from dealerbot.engine.variants import Variant

from .helpers import deal

VARIANTS = [Variant.STUD, Variant.STUD8]


# --- R3.1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_1_lowest_door_card_brings_in_suit_breaks_ties(variant: Variant) -> None:
    """Ex: doors 2♠, 2♣, A♥ -> 2♣."""
    hand = deal({0: "? ? 2s", 1: "? ? 2c", 2: "? ? Ah"}, variant=variant)
    assert hand.state.bring_in_seat == 1
    assert hand.to_act == 1
    assert hand.state.first_actors == {3: 1}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_1_ace_is_high_for_the_bring_in_in_both_games(variant: Variant) -> None:
    """Ex: stud/8 doors A♦, 3♣, 3♥ -> 3♣."""
    hand = deal({0: "? ? Ad", 1: "? ? 3c", 2: "? ? 3h"}, variant=variant)
    assert hand.state.bring_in_seat == 1


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_r3_1_suit_order_clubs_diamonds_hearts_spades(variant: Variant, shift: int) -> None:
    doors = ["5s", "5h", "5d", "5c"]
    doors = doors[shift:] + doors[:shift]
    hand = deal({seat: f"? ? {door}" for seat, door in enumerate(doors)}, variant=variant)
    assert hand.state.bring_in_seat == doors.index("5c")
    hand = deal({seat: f"? ? {door}" for seat, door in enumerate(["5s", "5h", "5d", "6c"])})
    assert hand.state.bring_in_seat == 2  # rank first: 5♦ below 6♣


def test_r3_1_bring_in_does_not_depend_on_the_button() -> None:
    for button in (0, 1, 2):
        hand = deal({0: "? ? 9c", 1: "? ? 7s", 2: "? ? 8d"}, button=button)
        assert hand.state.bring_in_seat == 1


# --- R3.2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_2_bring_in_must_bring_in_or_complete(variant: Variant) -> None:
    hand = deal({0: "? ? 9c", 1: "? ? 2d", 2: "? ? Kh"}, variant=variant)
    assert hand.to_act == 1
    assert hand.offered() == {"bring_in": 2, "complete": 5}
    assert hand.amounts() == {"bring_in": 2, "complete": 5}
    before = legal_actions(hand.state)
    for kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL, ActionKind.BET):
        with pytest.raises(IllegalActionError):
            apply(hand.state, Action(1, kind))
    assert legal_actions(hand.state) == before


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_2_bring_in_player_may_complete_to_five(variant: Variant) -> None:
    hand = deal({0: "? ? 9c", 1: "? ? 2d", 2: "? ? Kh"}, variant=variant).play("S1 complete")
    assert hand.state.stack_of(1) == 100 - 1 - 5
    assert hand.to_act == 2
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}


# --- R3.3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_3_facing_the_bring_in_fold_call_or_complete_never_check(variant: Variant) -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, variant=variant).play("S0 bring_in")
    assert hand.to_act == 1
    assert hand.offered() == {"fold": 0, "call": 2, "complete": 5}
    assert hand.legal.to_call == 2
    with pytest.raises(IllegalActionError):
        apply(hand.state, Action(1, ActionKind.CHECK))
    hand.play("S1 call")
    assert hand.offered() == {"fold": 0, "call": 2, "complete": 5}
    hand.play("S2 complete")
    assert hand.to_act == 0
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}
    assert hand.amounts()["call"] == 3


# --- R3.4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_4_completion_is_the_first_bet_then_raises_to_10_15_20(variant: Variant) -> None:
    """Ex: 2 -> 5 -> raises to 10, 15, 20."""
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, variant=variant)
    hand.play("S0 bring_in, S1 complete")
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}
    hand.play("S2 raise")
    assert hand.offered() == {"fold": 0, "call": 10, "raise": 15}
    hand.play("S0 raise")
    assert hand.offered() == {"fold": 0, "call": 15, "raise": 20}
    hand.play("S1 raise")
    assert hand.to_act == 2
    assert hand.offered() == {"fold": 0, "call": 20}  # capped (R4.2)
    hand.play("S2 call, S0 call")
    assert hand.state.street == 4
    assert [hand.state.committed[i] for i in range(3)] == [21, 21, 21]


# --- R3.5 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_5_bring_in_gets_no_option_when_all_call(variant: Variant) -> None:
    """Ex: S0 brings in 2, S1 and S2 call -> 4th street."""
    hand = deal({0: "? ? 2c 3d", 1: "? ? 9d Jh", 2: "? ? Kh Ad"}, variant=variant)
    hand.play("S0 bring_in, S1 call, S2 call")
    assert hand.state.street == 4
    assert hand.state.first_actors[4] == 2  # A-K board
    third = [e for e in hand.events if isinstance(e, ActionTaken) and e.street == 3]
    assert [(e.seat, e.kind) for e in third] == [
        (0, ActionKind.BRING_IN),
        (1, ActionKind.CALL),
        (2, ActionKind.CALL),
    ]
    assert hand.state.pot == 9


def test_r3_5_bring_in_acts_again_after_a_completion() -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}).play("S0 bring_in, S1 complete, S2 call")
    assert hand.state.street == 3 and hand.to_act == 0


def test_r3_5_round_ends_when_the_others_call_or_fold() -> None:
    hand = deal({0: "? ? 2c 3d", 1: "? ? 9d Jh", 2: "? ? Kh"}).play("S0 bring_in, S1 call, S2 fold")
    assert hand.state.street == 4
    assert hand.to_act == 1
    assert hand.offered() == {"check": 0, "bet": 5}


# --- R3.6 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_6_low_card_all_in_for_the_ante_nobody_is_forced(variant: Variant) -> None:
    hand = deal(
        {0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh", 3: "? ? Jd"}, stacks={0: 1}, variant=variant
    )
    assert hand.state.stack_of(0) == 0
    assert hand.to_act == 1
    assert hand.state.bring_in_seat == 1
    assert hand.state.first_actors[3] == 1
    assert hand.offered() == {"fold": 0, "bring_in": 2, "complete": 5}
    hand.play("S1 fold")
    assert hand.to_act == 2
    assert hand.offered() == {"fold": 0, "bring_in": 2, "complete": 5}  # same choice
    hand.play("S2 bring_in")
    assert hand.offered() == {"fold": 0, "call": 2, "complete": 5}
    hand.play("S3 call")
    assert hand.state.street == 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_6_first_player_may_complete_and_order_wraps_around(variant: Variant) -> None:
    hand = deal({0: "? ? Kc", 1: "? ? 9d", 2: "? ? 2c"}, stacks={2: 1}, variant=variant)
    assert hand.to_act == 0  # clockwise after S2 is S0
    hand.play("S0 complete")
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}
    hand.play("S1 call")
    assert hand.state.street == 4


def test_r3_6_with_r3_7_next_player_short_brings_in_all_in() -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, stacks={0: 1, 1: 2})
    assert hand.to_act == 1
    options = [(o.kind, o.amount, o.all_in) for o in hand.legal.options]
    assert options == [(ActionKind.FOLD, 0, False), (ActionKind.BRING_IN, 1, True)]
    hand.play("S1 bring_in")
    assert hand.offered() == {"fold": 0, "call": 2, "complete": 5}


def test_r3_6_everyone_may_fold_to_the_all_in_player() -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, stacks={0: 1})
    hand.play("S1 fold")
    assert hand.offered() == {"fold": 0, "bring_in": 2, "complete": 5}
    hand.play("S2 fold")
    assert hand.state.is_over
    assert hand.result.final_stacks == {0: 3, 1: 99, 2: 99}


# --- R3.7 -------------------------------------------------------------------------------------

R3_7_CARDS = {
    0: "As Ad 2c 3h 7d 9s Jc",  # pair of aces: wins the main pot
    1: "Kc Kd 9h 4c 6h 8d Qs",  # pair of kings: wins the side pot
    2: "Qc Qd Th 5c 3s 8c Js",
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r3_7_short_bring_in_goes_all_in_others_call_the_full_two(variant: Variant) -> None:
    """Ex: S0 posts his last 1; S1, S2 call 2 -> main pot 6, side pot 2 (S1,S2)."""
    hand = deal(R3_7_CARDS, stacks={0: 2}, variant=variant)
    assert hand.to_act == 0
    options = hand.legal.options
    assert [(o.kind, o.amount, o.all_in) for o in options] == [(ActionKind.BRING_IN, 1, True)]
    hand.play("S0 bring_in")
    assert hand.offered() == {"fold": 0, "call": 2, "complete": 5}
    assert hand.amounts()["call"] == 2
    hand.play("S1 call, S2 call")
    assert hand.state.street == 4
    hand.check_down()
    pots = [(p.amount, p.eligible, p.high_winners) for p in hand.result.pots]
    assert pots == [(6, (0, 1, 2), (0,)), (2, (1, 2), (1,))]
    assert hand.result.final_stacks == {0: 6, 1: 99, 2: 97}

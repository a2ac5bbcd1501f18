"""docs/rules.md §7: all-ins (R7.1-R7.3) and pots (R7.4-R7.6)."""

from __future__ import annotations

import pytest

from dealerbot.engine.events import ActionKind, PotAwarded, UncalledReturned
from dealerbot.engine.variants import Variant

from .helpers import Hand, deal, replay

VARIANTS = [Variant.STUD, Variant.STUD8]

# Four players, no pairs on board; S0 brings in (2♣); S3 has the best board on 4th-6th.
FOUR = {
    0: "? ? 2c 3d 6c 5h",
    1: "? ? 9d 4c 7h 8c",
    2: "? ? Th 5s 8s 6d",
    3: "? ? Kh Qd Jc 9h",
}


def to_fifth(stacks: dict[int, int], variant: Variant = Variant.STUD) -> Hand:
    """Everybody calls the bring-in and checks 4th street; 5th street, S3 to act."""
    hand = deal(FOUR, stacks=stacks, variant=variant)
    hand.play("S0 bring_in, S1 call, S2 call, S3 call")
    hand.play("S3 check, S0 check, S1 check, S2 check")
    assert hand.state.street == 5 and hand.to_act == 3
    return hand


# --- R7.1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_1_player_short_of_a_call_may_call_all_in(variant: Variant) -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, stacks={2: 4}, variant=variant)
    hand.play("S0 bring_in, S1 complete")
    options = [(o.kind, o.amount, o.to, o.all_in) for o in hand.legal.options]
    assert options == [(ActionKind.FOLD, 0, 0, False), (ActionKind.CALL, 3, 3, True)]
    assert hand.legal.to_call == 3
    hand.play("S2 call")
    assert hand.state.stack_of(2) == 0
    assert hand.to_act == 0 and hand.legal.to_call == 3  # S0 still owes the completion


# --- R7.2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_2_all_in_of_half_a_bet_or_more_reopens(variant: Variant) -> None:
    """Ex (5th): S3 bets 10, S0 calls, S1 all-in 15 -> S2 may raise to 25;
    S3 and S0 may re-raise."""
    hand = to_fifth({1: 18}, variant).play("S3 bet, S0 call")
    raise_option = hand.legal.find(ActionKind.RAISE)
    assert raise_option is not None and (raise_option.to, raise_option.all_in) == (15, True)
    hand.play("S1 raise")
    assert hand.state.stack_of(1) == 0
    assert hand.offered() == {"fold": 0, "call": 15, "raise": 25}
    hand.play("S2 call")
    assert hand.to_act == 3
    assert hand.offered() == {"fold": 0, "call": 15, "raise": 25}
    hand.play("S3 call")
    assert hand.offered() == {"fold": 0, "call": 15, "raise": 25}
    hand.play("S0 call")
    assert hand.state.street == 6


def test_r7_2_full_all_in_raise_counts_toward_the_cap() -> None:
    hand = to_fifth({1: 18}).play("S3 bet, S0 call, S1 raise, S2 raise, S3 raise")
    assert hand.state.street_bets == [10, 15, 25, 35]  # bet, 15, 25, 35: four wagers
    assert hand.to_act == 0
    assert hand.offered() == {"fold": 0, "call": 35}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("stack", "to"), [(4, 3), (5, 4)])
def test_r7_2_all_in_to_3_or_4_over_the_bring_in_is_a_completion(
    variant: Variant, stack: int, to: int
) -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, stacks={1: stack}, variant=variant)
    hand.play("S0 bring_in")
    complete = hand.legal.find(ActionKind.COMPLETE)
    assert complete is not None and (complete.to, complete.all_in) == (to, True)
    hand.play("S1 complete")
    assert hand.offered() == {"fold": 0, "call": to, "raise": to + 5}
    hand.play("S2 call")
    assert hand.to_act == 0  # the bring-in acts again and may raise: betting reopened
    assert hand.offered() == {"fold": 0, "call": to, "raise": to + 5}


def test_r7_2_all_in_completion_counts_toward_the_cap() -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, stacks={1: 4})
    hand.play("S0 bring_in, S1 complete, S2 raise, S0 raise, S2 raise")  # 3, 8, 13, 18
    assert hand.state.street_bets == [13, 3, 18]
    assert hand.offered() == {"fold": 0, "call": 18}


# --- R7.3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_3_short_all_in_raise_does_not_reopen(variant: Variant) -> None:
    """Ex: S3 bets 10, S1 all-in 14 -> S2 may call 14 or raise to 20, not 24;
    if S2 calls, S3 may only call 4 or fold."""
    hand = to_fifth({1: 17}, variant).play("S3 bet, S0 fold, S1 raise")
    assert hand.state.street_bets[1] == 14 and hand.state.stack_of(1) == 0
    assert hand.offered() == {"fold": 0, "call": 14, "raise": 20}
    hand.play("S2 call")
    assert hand.to_act == 3
    assert hand.offered() == {"fold": 0, "call": 14}
    assert hand.amounts()["call"] == 4
    hand.play("S3 call")
    assert hand.state.street == 6


def test_r7_3_every_player_who_already_acted_may_only_call_or_fold() -> None:
    hand = to_fifth({1: 17}).play("S3 bet, S0 call, S1 raise, S2 call")
    assert (hand.to_act, hand.offered()) == (3, {"fold": 0, "call": 14})
    hand.play("S3 call")
    assert (hand.to_act, hand.offered()) == (0, {"fold": 0, "call": 14})
    assert hand.amounts()["call"] == 4


def test_r7_3_full_raise_after_a_short_all_in_reopens() -> None:
    hand = to_fifth({1: 17}).play("S3 bet, S0 fold, S1 raise, S2 raise")
    assert hand.state.street_bets[2] == 20
    assert hand.offered() == {"fold": 0, "call": 20, "raise": 30}


def test_r7_3_short_all_in_does_not_count_toward_the_cap() -> None:
    # S0 has the best board on 5th; S2 has 24 left there: 10, 20, all-in 24, 30, 40.
    cards = {
        0: "? ? Kh Qd Jc",
        1: "? ? 9d 4c 7h",
        2: "? ? Th 5s 8s",
        3: "? ? 2c 3d 6c",
    }
    hand = deal(cards, stacks={2: 27})
    hand.play("S3 bring_in, S0 call, S1 call, S2 call")
    hand.play("S0 check, S1 check, S2 check, S3 check")
    hand.play("S0 bet, S1 raise, S2 raise")
    assert hand.state.street_bets[2] == 24 and hand.state.stack_of(2) == 0
    assert hand.offered() == {"fold": 0, "call": 24, "raise": 30}
    hand.play("S3 raise")
    assert hand.offered() == {"fold": 0, "call": 30, "raise": 40}  # 40 is the third raise
    hand.play("S0 raise")
    assert hand.offered() == {"fold": 0, "call": 40}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_3_fourth_street_all_in_bet_of_2_next_may_call_2_or_bet_5(variant: Variant) -> None:
    """Ex: 4th street all-in bet of 2 -> next may call 2 or bet 5."""
    cards = {0: "? ? 2c 3s", 1: "? ? Kh Qd", 2: "? ? 9d 4c"}
    hand = deal(cards, stacks={1: 5}, variant=variant)
    hand.play("S0 bring_in, S1 call, S2 call")
    assert hand.to_act == 1
    bet = hand.legal.find(ActionKind.BET)
    assert bet is not None and (bet.amount, bet.all_in) == (2, True)
    hand.play("S1 bet")
    assert hand.offered() == {"fold": 0, "call": 2, "bet": 5}
    hand.play("S2 call")
    assert hand.offered() == {"fold": 0, "call": 2, "bet": 5}
    hand.play("S0 bet")
    assert hand.to_act == 2  # S0's 5 is a full bet: S2 may now raise
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}
    assert hand.amounts()["call"] == 3


# --- R7.4 - R7.6 ------------------------------------------------------------------------------

# S0 all-in 11, S3 folds after 21, S1 all-in 31, S2 bets 41.
R7_4_CARDS = {
    0: "Qc Qd Qh 3c 4d 7s 9c",  # trips: best hand, main pot only
    1: "As Ks Ah Kd Jc 9s 2h",  # aces up: best board every street, wins the side pot
    2: "2d 3d Kh 8d 6c 5s 9d",  # king high
    3: "4c 5c 2c Td 3h 8h",  # brings in, folds on 6th street
}
R7_4_ACTIONS = (
    "S3 bring_in, S0 complete, S1 call, S2 call, S3 call,"  # 6 each; S0 has 5 left
    "S1 bet, S2 call, S3 call, S0 call,"  # 4th: S0 all-in for 11
    "S1 bet, S2 call, S3 call,"  # 5th: 21 each
    "S1 bet, S2 raise, S3 fold"  # 6th: S1 all-in for 31, S2 to 41, S3 folds after 21
)
R7_4_STACKS = {0: 11, 1: 31, 2: 100, 3: 100}


def test_r7_4_pots_by_contribution_levels() -> None:
    """Ex: main pot 44 (S0,S1,S2), side pot 50 (S1,S2), S2's uncalled 10 returned."""
    hand = deal(R7_4_CARDS, stacks=R7_4_STACKS).play(R7_4_ACTIONS)
    assert hand.state.is_over
    result = hand.result
    assert [(p.amount, p.eligible) for p in result.pots] == [(44, (0, 1, 2)), (50, (1, 2))]
    assert result.returned == {2: 10}
    assert result.final_stacks == {0: 44, 1: 50, 2: 69, 3: 79}


def test_r7_4_same_example_through_the_replay_tool() -> None:
    result = replay(R7_4_CARDS, R7_4_ACTIONS, stacks=R7_4_STACKS)
    assert result["ok"], result
    assert result["pots"] == [
        {"amount": 44, "eligible": [0, 1, 2], "high_winners": [0], "low_winners": []},
        {"amount": 50, "eligible": [1, 2], "high_winners": [1], "low_winners": []},
    ]
    assert result["returned"] == {"2": 10}
    assert result["payouts"] == {"0": 44, "1": 50}
    assert result["final_stacks"] == {"0": 44, "1": 50, "2": 69, "3": 79}


def test_r7_4_adjacent_levels_with_the_same_players_are_one_pot() -> None:
    # S0 is all-in for the ante only; what S1 and S2 add street after street (2, 5, 10)
    # has the same two players eligible and forms one side pot, not one per street.
    cards = {0: "Ac Ad 9c 8d 3s Jh Qs", 1: "Kc Kd 7h 2c 4c 6s 9h", 2: "Qc Qd Th 5d 3d 2s 7s"}
    hand = deal(cards, stacks={0: 1})
    hand.play("S1 bring_in, S2 call")  # S0 (9♣ door) cannot act; S1 (7♥) is low
    hand.play("S2 bet, S1 call")  # 4th: T-5 board first
    hand.play("S2 bet, S1 call")
    hand.check_down()
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(3, (0, 1, 2)), (34, (1, 2))]
    assert hand.shares() == [{0: 3}, {1: 34}]


@pytest.mark.parametrize("variant", VARIANTS)
def test_r7_5_uncalled_part_goes_back_before_the_award(variant: Variant) -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9d", 2: "? ? Kh"}, variant=variant)
    hand.play("S0 bring_in, S1 complete, S2 fold, S0 fold")
    returned = hand.of_type(UncalledReturned)
    assert [(e.seat, e.amount) for e in returned] == [(1, 3)]
    awarded = hand.of_type(PotAwarded)
    assert hand.events.index(returned[0]) < hand.events.index(awarded[0])
    assert [(p.amount, p.high_winners) for p in hand.result.pots] == [(7, (1,))]
    assert hand.result.returned == {1: 3}
    assert hand.result.final_stacks == {0: 97, 1: 104, 2: 99}


def test_r7_5_bet_called_by_a_short_all_in_returns_the_rest() -> None:
    cards = {0: "Ac Ad 2c 5d 8h 9s Js", 1: "Kc Kd 3h 4c 6h Ts Qs"}
    hand = deal(cards, stacks={1: 7})
    hand.play("S0 bring_in, S1 call, S0 check, S1 check")  # S1 has 4 left on 5th street
    assert hand.state.street == 5
    hand.play("S0 bet, S1 call")
    assert hand.state.is_over
    assert hand.result.returned == {0: 6}
    assert [(p.amount, p.eligible) for p in hand.result.pots] == [(14, (0, 1))]
    assert hand.result.final_stacks == {0: 107, 1: 0}


@pytest.mark.parametrize(
    ("variant", "shares"),
    [
        (Variant.STUD, [{0: 44}, {1: 50}]),
        # stud/8: S2's 8-6-5-3-2 takes the low half of both pots.
        (Variant.STUD8, [{0: 22, 2: 22}, {1: 25, 2: 25}]),
    ],
)
def test_r7_6_each_pot_is_awarded_separately(
    variant: Variant, shares: list[dict[int, int]]
) -> None:
    hand = deal(R7_4_CARDS, stacks=R7_4_STACKS, variant=variant).play(R7_4_ACTIONS)
    awards = hand.of_type(PotAwarded)
    assert [(e.index, e.amount, e.high_winners) for e in awards] == [
        (0, 44, (0,)),
        (1, 50, (1,)),
    ]
    assert hand.shares() == shares


def test_r7_6_hi_lo_split_is_decided_pot_by_pot() -> None:
    """Stud/8: the all-in S0 has the best low but only for the main pot; the side pot's
    low goes to S2's worse low."""
    cards = {
        0: "Ac 3d 4h 5s 7c Kd Qs",  # K high, low 7-5-4-3-A
        1: "Kh Ks Kc 9d 9s Jh Jd",  # full house, no low
        2: "Td 3h 2c 6d 8h 4s Tc",  # pair of tens, low 8-6-4-3-2
    }
    hand = deal(cards, stacks={0: 3}, variant=Variant.STUD8)
    hand.play("S2 bring_in, S0 call, S1 call")  # S0 all-in for 3
    hand.play("S1 bet, S2 call")
    hand.check_down()
    pots = [(p.amount, p.eligible, p.high_winners, p.low_winners) for p in hand.result.pots]
    assert pots == [(9, (0, 1, 2), (1,), (0,)), (10, (1, 2), (1,), (2,))]
    assert hand.shares() == [{1: 5, 0: 4}, {1: 5, 2: 5}]
    assert hand.result.payouts == {0: 4, 1: 10, 2: 5}

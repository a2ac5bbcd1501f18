"""docs/rules.md §4 (bet sizes, caps, open pair, check/fold) and §5 (streets, round end),
plus actions the engine must refuse without changing the state."""

from __future__ import annotations

import pytest

from dealerbot.engine.errors import (
    ActionError,
    HandOverError,
    IllegalActionError,
    NotYourTurnError,
)
from dealerbot.engine.events import (
    Action,
    ActionKind,
    AntePosted,
    CardDealt,
    HandEnded,
    HandShown,
    PotAwarded,
    StreetStarted,
)
from dealerbot.engine.state import apply, legal_actions
from dealerbot.engine.variants import Variant

from .helpers import Hand, deal

VARIANTS = [Variant.STUD, Variant.STUD8]

# Three players, no pair on any board, S0 brings in (2♣) and S2 has the best board throughout.
NO_PAIRS = {
    0: "? ? 2c 5d 8h 3s ?",
    1: "? ? 9d 4c 6h 7c ?",
    2: "? ? Kh Qd Jc 9s ?",
}


def three_way(variant: Variant = Variant.STUD, **kwargs: object) -> Hand:
    return deal(NO_PAIRS, variant=variant, **kwargs)  # type: ignore[arg-type]


# --- R4.1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_1_bets_are_5_on_3rd_and_4th_street_and_10_from_5th(variant: Variant) -> None:
    hand = three_way(variant)
    assert hand.offered()["complete"] == 5
    hand.play("S0 bring_in, S1 call, S2 call")
    for street, size in ((4, 5), (5, 10), (6, 10), (7, 10)):
        assert hand.state.street == street
        assert hand.to_act == 2
        assert hand.offered() == {"check": 0, "bet": size}
        hand.play("S2 bet")
        assert hand.offered() == {"fold": 0, "call": size, "raise": 2 * size}
        hand.play("S0 call, S1 call")
    assert hand.state.is_over
    assert sum(hand.result.payouts.values()) == 3 * (1 + 2 + 5 + 10 + 10 + 10)


# --- R4.2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_2_one_bet_and_three_raises_on_3rd_street(variant: Variant) -> None:
    """Ex: 3rd street 2 -> 5 -> 10 -> 15 -> 20 (capped)."""
    hand = three_way(variant).play("S0 bring_in, S1 complete, S2 raise, S0 raise, S1 raise")
    assert hand.state.street_bets == [15, 20, 10]
    assert hand.to_act == 2
    assert hand.offered() == {"fold": 0, "call": 20}
    with pytest.raises(IllegalActionError):
        apply(hand.state, Action(2, ActionKind.RAISE))
    hand.play("S2 call")
    assert hand.offered() == {"fold": 0, "call": 20}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_2_one_bet_and_three_raises_on_5th_street(variant: Variant) -> None:
    """Ex: 5th street 10 -> 20 -> 30 -> 40."""
    hand = three_way(variant).play("S0 bring_in, S1 call, S2 call, S2 check, S0 check, S1 check")
    assert hand.state.street == 5
    hand.play("S2 bet")
    assert hand.offered() == {"fold": 0, "call": 10, "raise": 20}
    hand.play("S0 raise")
    assert hand.offered() == {"fold": 0, "call": 20, "raise": 30}
    hand.play("S1 raise")
    assert hand.offered() == {"fold": 0, "call": 30, "raise": 40}
    hand.play("S2 raise")
    assert hand.offered() == {"fold": 0, "call": 40}
    hand.play("S0 call")
    assert hand.offered() == {"fold": 0, "call": 40}
    hand.play("S1 call")
    assert hand.state.street == 6


# --- R4.3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_3_cap_applies_heads_up_on_3rd_street(variant: Variant) -> None:
    hand = deal({0: "? ? 2c 5d 8h", 1: "? ? 9d 4c 6h"}, variant=variant)
    hand.play("S0 bring_in, S1 complete, S0 raise, S1 raise, S0 raise")
    assert hand.state.street_bets == [20, 15]
    assert hand.offered() == {"fold": 0, "call": 20}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_3_cap_applies_heads_up_on_5th_street(variant: Variant) -> None:
    """10 -> 20 -> 30 -> 40 heads-up too."""
    hand = deal({0: "? ? 2c 5d 8h", 1: "? ? 9d 4c 6h"}, variant=variant)
    hand.play("S0 bring_in, S1 call, S1 check, S0 check")  # S1 (9-4) leads on 4th
    assert hand.state.street == 5 and hand.to_act == 1  # 9-6-4 beats 8-5-2
    hand.play("S1 bet, S0 raise, S1 raise")
    assert hand.offered() == {"fold": 0, "call": 30, "raise": 40}
    hand.play("S0 raise")
    assert hand.offered() == {"fold": 0, "call": 40}
    hand.play("S1 call")
    assert hand.state.street == 6


# --- R4.4 ---------------------------------------------------------------------------------------

# S1 shows Q♦Q♥ on 4th street.
OPEN_PAIR = {0: "? ? 2c 5d 8h", 1: "? ? Qd Qh 7c", 2: "? ? Kh 9d 6s"}


def open_pair_hand(variant: Variant = Variant.STUD, **kwargs: object) -> Hand:
    hand = deal(OPEN_PAIR, variant=variant, **kwargs)  # type: ignore[arg-type]
    hand.play("S0 bring_in, S1 call, S2 call")
    assert hand.state.street == 4
    return hand


def test_r4_4_open_pair_allows_5_or_10_then_raises_of_10() -> None:
    """Ex: S1 shows Q♦Q♥ and bets 5; S2 may call, raise to 10 or raise to 15;
    after 15 the next raise is to 25."""
    hand = open_pair_hand()
    assert hand.to_act == 1
    assert hand.offered() == {"check": 0, "bet": 5, "bet_big": 10}
    hand.play("S1 bet")
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10, "raise_big": 15}
    hand.play("S2 raise_big")
    assert hand.state.street_bets[2] == 15
    assert hand.offered() == {"fold": 0, "call": 15, "raise": 25}
    hand.play("S0 raise")
    assert hand.offered() == {"fold": 0, "call": 25, "raise": 35}
    hand.play("S1 raise")  # bet, 15, 25, 35: capped
    assert hand.offered() == {"fold": 0, "call": 35}


def test_r4_4_open_pair_bet_10_then_raises_20_30_40() -> None:
    """Ex: Bet 10 -> raises to 20, 30, 40 (cap)."""
    hand = open_pair_hand().play("S1 bet_big")
    assert hand.state.street_bets[1] == 10
    assert hand.offered() == {"fold": 0, "call": 10, "raise": 20}
    hand.play("S2 raise")
    assert hand.offered() == {"fold": 0, "call": 20, "raise": 30}
    hand.play("S0 raise")
    assert hand.offered() == {"fold": 0, "call": 30, "raise": 40}
    hand.play("S1 raise")
    assert hand.offered() == {"fold": 0, "call": 40}
    hand.play("S2 call, S0 call")
    assert hand.state.street == 5


def test_r4_4_small_raises_keep_the_big_option_until_a_10() -> None:
    hand = open_pair_hand().play("S1 bet, S2 raise")
    assert hand.offered() == {"fold": 0, "call": 10, "raise": 15, "raise_big": 20}
    hand.play("S0 raise_big")
    assert hand.offered() == {"fold": 0, "call": 20, "raise": 30}
    hand.play("S1 raise_big")  # docs/replay.md: once a 10 was made, raise_big is the raise
    assert hand.state.street_bets[1] == 30


def test_r4_4_any_live_players_pair_counts_not_only_the_bettors() -> None:
    hand = open_pair_hand().play("S1 check")
    assert hand.to_act == 2
    assert hand.offered() == {"check": 0, "bet": 5, "bet_big": 10}


def test_r4_4_big_bet_only_on_4th_street() -> None:
    hand = open_pair_hand().play("S1 check, S2 check, S0 check")
    assert hand.state.street == 5
    assert hand.offered() == {"check": 0, "bet": 10}


def test_r4_4_no_open_pair_no_big_bet_in_stud() -> None:
    hand = three_way().play("S0 bring_in, S1 call, S2 call")
    assert hand.offered() == {"check": 0, "bet": 5}


# --- R4.5 ---------------------------------------------------------------------------------------


def test_r4_5_stud8_open_pair_changes_nothing() -> None:
    hand = open_pair_hand(Variant.STUD8)
    assert hand.to_act == 1  # still first to act (R6.1)
    assert hand.offered() == {"check": 0, "bet": 5}
    hand.play("S1 bet")
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}
    hand.play("S2 raise")
    assert hand.offered() == {"fold": 0, "call": 10, "raise": 15}


def test_r4_5_stud8_big_bet_request_is_the_one_size_allowed() -> None:
    """docs/replay.md: where no big option exists, bet_big/raise_big are the normal 5."""
    hand = open_pair_hand(Variant.STUD8).play("S1 bet_big")
    assert hand.state.street_bets[1] == 5
    hand.play("S2 raise_big")
    assert hand.state.street_bets[2] == 10


# --- R4.6 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_6_no_check_on_3rd_street(variant: Variant) -> None:
    hand = three_way(variant)
    seen: list[frozenset[ActionKind]] = []
    for step in ("S0 bring_in", "S1 call", "S2 complete", "S0 call"):
        seen.append(hand.legal.kinds)
        hand.play(step)
    seen.append(hand.legal.kinds)
    assert all(ActionKind.CHECK not in kinds for kinds in seen)
    hand.play("S1 call")
    assert hand.state.street == 4


@pytest.mark.parametrize("variant", VARIANTS)
def test_r4_6_fold_only_facing_a_wager_check_only_without_one(variant: Variant) -> None:
    hand = three_way(variant).play("S0 bring_in, S1 call, S2 call")
    assert hand.offered() == {"check": 0, "bet": 5}
    before = legal_actions(hand.state)
    with pytest.raises(IllegalActionError, match="cannot fold now"):
        apply(hand.state, Action(2, ActionKind.FOLD))
    assert legal_actions(hand.state) == before
    hand.play("S2 check")
    assert hand.offered() == {"check": 0, "bet": 5}
    hand.play("S0 bet")
    assert hand.offered() == {"fold": 0, "call": 5, "raise": 10}
    with pytest.raises(IllegalActionError):
        apply(hand.state, Action(1, ActionKind.CHECK))


# --- R5.1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r5_1_streets_run_antes_3rd_to_7th_then_showdown(variant: Variant) -> None:
    hand = three_way(variant).check_down()
    assert hand.state.is_over
    sequence: list[str] = []
    for event in hand.events:
        if isinstance(event, AntePosted):
            name = "ante"
        elif isinstance(event, StreetStarted):
            name = f"street {event.street}"
        elif isinstance(event, HandShown):
            name = "showdown"
        elif isinstance(event, PotAwarded):
            name = "award"
        elif isinstance(event, HandEnded):
            name = "end"
        else:
            continue
        if not sequence or sequence[-1] != name:
            sequence.append(name)
    assert sequence == [
        "ante",
        "street 3",
        "street 4",
        "street 5",
        "street 6",
        "street 7",
        "showdown",
        "award",
        "end",
    ]
    streets = [e.street for e in hand.events if isinstance(e, CardDealt)]
    assert streets == sorted(streets)


@pytest.mark.parametrize("variant", VARIANTS)
def test_r5_1_round_ends_only_when_all_acted_since_the_last_raise(variant: Variant) -> None:
    hand = three_way(variant).play("S0 bring_in, S1 call, S2 call")
    hand.play("S2 bet, S0 call, S1 raise")
    assert hand.state.street == 4 and hand.to_act == 2  # S2 and S0 owe an answer
    hand.play("S2 call")
    assert hand.to_act == 0
    assert hand.legal.to_call == 5
    hand.play("S0 call")
    assert hand.state.street == 5


@pytest.mark.parametrize("variant", VARIANTS)
def test_r5_1_all_in_players_are_not_asked_to_act(variant: Variant) -> None:
    hand = three_way(variant, stacks={1: 8}).play("S0 bring_in, S1 call, S2 call")
    hand.play("S2 bet, S0 call, S1 call")  # S1: 1 + 2 + 5 = 8, all-in
    assert hand.state.stack_of(1) == 0
    assert hand.state.street == 5
    hand.play("S2 bet, S0 call")
    assert hand.state.street == 6  # S1 skipped


# --- bad actions: precise errors, state unchanged ---------------------------------------------


def test_action_by_the_wrong_seat_is_refused_and_changes_nothing() -> None:
    hand = three_way().play("S0 bring_in")
    state = hand.state
    before = (legal_actions(state), state.stacks[:], state.committed[:], state.seat_to_act)
    with pytest.raises(NotYourTurnError, match="seat 1's turn, not seat 2's"):
        apply(state, Action(2, ActionKind.CALL))
    with pytest.raises(NotYourTurnError, match="seat 9 is not in this hand"):
        apply(state, Action(9, ActionKind.CALL))
    after = (legal_actions(state), state.stacks[:], state.committed[:], state.seat_to_act)
    assert after == before


def test_illegal_action_is_refused_with_the_choices_and_changes_nothing() -> None:
    hand = three_way().play("S0 bring_in, S1 complete, S2 raise, S0 raise, S1 raise")
    state = hand.state
    before = legal_actions(state)
    with pytest.raises(IllegalActionError, match="Fold, Call 10") as info:
        apply(state, Action(2, ActionKind.RAISE))
    assert isinstance(info.value, ActionError)
    for kind in (ActionKind.CHECK, ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET):
        with pytest.raises(IllegalActionError):
            apply(state, Action(2, kind))
    assert legal_actions(state) == before
    assert state.stacks == [100 - 16, 100 - 21, 100 - 11]


def test_action_after_the_hand_ended_is_refused() -> None:
    hand = three_way().play("S0 bring_in, S1 fold, S2 fold")
    assert hand.state.is_over
    final = dict(hand.result.final_stacks)
    for seat in (0, 1, 2):
        with pytest.raises(HandOverError):
            apply(hand.state, Action(seat, ActionKind.CHECK))
    assert legal_actions(hand.state).seat is None
    assert hand.result.final_stacks == final


def test_apply_returns_a_new_state_and_leaves_the_old_one_usable() -> None:
    hand = three_way().play("S0 bring_in")
    old = hand.state
    before = legal_actions(old)
    new, _ = apply(old, Action(1, ActionKind.COMPLETE))
    assert legal_actions(old) == before
    assert old.stack_of(1) == 99 and new.stack_of(1) == 94
    again, _ = apply(old, Action(1, ActionKind.CALL))  # the old state still plays
    assert again.stack_of(1) == 97

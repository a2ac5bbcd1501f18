"""betting.py on its own: the option builder and wager accounting over a frozen Round.

The rule tests play whole hands; these pin the round value those hands are built on, so
a change to the option builder shows here with the Round that caused it.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealerbot.engine.betting import (
    Round,
    after_wager,
    kinds_named,
    next_to_act,
    option,
    options,
    pick,
)
from dealerbot.engine.events import ActionKind, LegalAction

from .helpers import STAKES

K = ActionKind


def kinds_and_tos(choices: tuple[LegalAction, ...]) -> list[tuple[ActionKind, int]]:
    return [(choice.kind, choice.to) for choice in choices]


def test_r3_2_forced_bring_in_may_not_fold() -> None:
    rnd = Round(3, STAKES, bring_in_due=True, bring_in_forced=True)
    assert kinds_and_tos(options(rnd, 50, 0, False)) == [(K.BRING_IN, 2), (K.COMPLETE, 5)]


def test_r3_6_unforced_bring_in_may_fold() -> None:
    rnd = Round(3, STAKES, bring_in_due=True, bring_in_forced=False)
    assert kinds_and_tos(options(rnd, 50, 0, False)) == [
        (K.FOLD, 0),
        (K.BRING_IN, 2),
        (K.COMPLETE, 5),
    ]


def test_r3_7_short_bring_in_leaves_the_full_bring_in_to_call() -> None:
    rnd = Round(3, STAKES, bring_in_due=True, bring_in_forced=True)
    bring = options(rnd, 1, 0, False)[0]
    assert (bring.kind, bring.to, bring.all_in) == (K.BRING_IN, 1, True)
    after, reopened = after_wager(rnd, bring, 0)
    assert (after.current_bet, after.bring_in_due, reopened) == (2, False, False)


def test_r4_4_big_bet_then_every_raise_is_big() -> None:
    rnd = Round(4, STAKES, open_pair=True)
    assert kinds_and_tos(options(rnd, 100, 0, False)) == [(K.CHECK, 0), (K.BET, 5), (K.BET_BIG, 10)]
    big = pick(options(rnd, 100, 0, False), K.BET_BIG)
    assert big is not None
    after, reopened = after_wager(rnd, big, 2)
    assert reopened
    assert (after.current_bet, after.full_level, after.bets_made, after.big_mode) == (
        10,
        10,
        1,
        True,
    )
    assert after.last_aggressor == 2
    assert kinds_and_tos(options(after, 100, 0, False)) == [
        (K.FOLD, 0),
        (K.CALL, 10),
        (K.RAISE, 20),
    ]


def test_r4_2_cap_leaves_only_fold_and_call() -> None:
    rnd = Round(5, STAKES, current_bet=40, full_level=40, bets_made=4)
    assert kinds_and_tos(options(rnd, 100, 10, False)) == [(K.FOLD, 10), (K.CALL, 40)]


def test_r7_3_short_all_in_raise_neither_reopens_nor_counts() -> None:
    rnd = Round(5, STAKES, current_bet=10, full_level=10, bets_made=1, last_aggressor=3)
    raise_ = options(rnd, 14, 0, False)[2]
    assert (raise_.kind, raise_.to, raise_.all_in) == (K.RAISE, 14, True)
    after, reopened = after_wager(rnd, raise_, 1)
    assert not reopened
    assert (after.current_bet, after.full_level, after.bets_made) == (14, 10, 1)
    # R7.3: the next raise is a full bet over the last full level, to 20.
    assert kinds_and_tos(options(after, 100, 0, False))[-1] == (K.RAISE, 20)


def test_calls_checks_and_folds_keep_the_round_value() -> None:
    rnd = Round(6, STAKES, current_bet=10, full_level=10, bets_made=1)
    for choice in options(rnd, 100, 0, False)[:2]:  # fold, call
        assert after_wager(rnd, choice, 0) == (rnd, False)
    with pytest.raises(AttributeError):
        rnd.current_bet = 0  # type: ignore[misc]


def test_raise_big_means_raise_where_no_big_choice_exists() -> None:
    choices = options(Round(5, STAKES, current_bet=10, full_level=10, bets_made=1), 100, 0, False)
    assert pick(choices, K.RAISE_BIG) == pick(choices, K.RAISE)
    assert pick(choices, K.CHECK) is None


def test_r3_5_after_a_called_bring_in_nobody_owes_an_action() -> None:
    folded, stacks = [False] * 3, [50, 50, 50]
    street_bets = [2, 2, 2]
    assert next_to_act(2, 2, folded, stacks, [True, True, True], street_bets) is None
    # A seat short of the bet, or not yet asked, still owes one; all-in and folded seats never.
    assert next_to_act(2, 5, folded, stacks, [True, True, True], [2, 5, 5]) == 0
    assert (
        next_to_act(0, 2, [False, True, False], [50, 50, 0], [True, False, False], street_bets)
        is None
    )


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Round, int, int, bool]:
    """Any round value a hand can reach, and the seat to act's stack, street bet and flag."""
    street = draw(st.integers(3, 7))
    bring_in_due = street == 3 and draw(st.booleans())
    bets_made = 0 if bring_in_due else draw(st.integers(0, 4))
    full_level = draw(st.integers(0, 60)) if bets_made else 0
    current = full_level + draw(st.integers(0, 9))
    rnd = Round(
        street,
        STAKES,
        current_bet=current,
        full_level=full_level,
        bets_made=bets_made,
        big_mode=street == 4 and draw(st.booleans()),
        open_pair=street == 4 and draw(st.booleans()),
        bring_in_due=bring_in_due,
        bring_in_forced=bring_in_due and draw(st.booleans()),
    )
    street_bet = draw(st.integers(0, current))
    return rnd, draw(st.integers(1, 120)), street_bet, draw(st.booleans())


@given(rounds())
def test_option_offers_no_kind_the_round_does_not_name(case: tuple[Round, int, int, bool]) -> None:
    """apply asks option() for one kind, legal_actions lists option() for the kinds_named
    ones: a kind option() offered outside that list would be accepted but never shown."""
    rnd, stack, street_bet, acted = case
    named = kinds_named(rnd)
    for kind in ActionKind:
        found = option(rnd, stack, street_bet, acted, kind)
        if kind not in named:
            assert found is None, (kind, rnd)
        elif found is not None:
            assert found.kind is kind
    listed = [choice.kind for choice in options(rnd, stack, street_bet, acted)]
    assert listed == [kind for kind in named if kind in listed]
    assert listed, "some option is always offered"

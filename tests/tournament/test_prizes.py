"""The prize pool (issue 18): the payout table by field size, floored shares with the
remainder to 1st, the cancel split by chips in play, and the pool audit in words."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS
from dealerbot.tournament import (
    PAYOUTS,
    Finish,
    Stack,
    StandingsError,
    audit,
    cancel_split,
    payout_percents,
    payouts,
    prize_table,
)


@pytest.mark.parametrize(
    ("entrants", "percents"),
    [
        (2, (100,)),
        (3, (100,)),
        (4, (100,)),
        (5, (65, 35)),
        (6, (65, 35)),
        (7, (50, 30, 20)),
        (8, (50, 30, 20)),
    ],
)
def test_each_field_size_pays_the_issues_places(entrants: int, percents: tuple[int, ...]) -> None:
    assert payout_percents(entrants) == percents
    assert prize_table(entrants * 100, entrants) == tuple(p * entrants for p in percents)


def test_the_table_covers_every_field_a_table_seats_once() -> None:
    sizes = [n for field, _ in PAYOUTS for n in range(field.low, field.high + 1)]
    assert sizes == list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
    assert all(sum(percents) == 100 for _, percents in PAYOUTS)
    for wrong in (1, 9):
        with pytest.raises(StandingsError, match="prizes are set for 2-4, 5-6, 7-8 entrants"):
            payout_percents(wrong)


@pytest.mark.parametrize(
    ("pool", "entrants", "prizes"),
    [
        (2, 2, (2,)),  # 2 x 1
        (5, 5, (4, 1)),  # 3.25 -> 3, 1.75 -> 1, the chip left over to 1st
        (6, 6, (4, 2)),
        (7, 7, (4, 2, 1)),  # 3.5 / 2.1 / 1.4
        (8, 8, (5, 2, 1)),  # 4 / 2.4 / 1.6 -> 4 / 2 / 1, and the 1 left over to 1st
        (555, 5, (361, 194)),  # 360.75 / 194.25
        (0, 6, (0, 0)),
    ],
)
def test_each_share_is_floored_and_the_rest_goes_to_first(
    pool: int, entrants: int, prizes: tuple[int, ...]
) -> None:
    assert prize_table(pool, entrants) == prizes


@given(st.integers(2, 8), st.integers(0, 10**13))
@example(2, 2)
@example(8, 8)
@example(7, 7 * 10**12)
def test_the_prizes_add_up_to_the_pool(entrants: int, pool: int) -> None:
    prizes = prize_table(pool, entrants)
    assert sum(prizes) == pool
    assert list(prizes) == sorted(prizes, reverse=True)
    for prize, percent in zip(prizes[1:], payout_percents(entrants)[1:], strict=True):
        assert prize == pool * percent // 100  # only 1st takes the remainder


@pytest.mark.parametrize("pool", [-1, True, 2.0])
def test_a_wrong_pool_is_refused(pool: object) -> None:
    with pytest.raises(StandingsError, match="the pool must be a whole number of chips"):
        prize_table(pool, 4)  # type: ignore[arg-type]


def test_payouts_wait_for_every_place() -> None:
    with pytest.raises(StandingsError, match="1 of 2 players have finished"):
        payouts([Finish(1, 2, (2,))], 10, 2)
    with pytest.raises(StandingsError, match="the places are not 1 to 2"):
        payouts([Finish(1, 2, (2,)), Finish(2, 2, (2,))], 10, 2)
    assert payouts([Finish(1, 2, (2,)), Finish(2, 1, (1,))], 10, 2) == {2: 10, 1: 0}


def test_a_cancel_splits_the_pool_by_chips_in_play() -> None:
    stacks = [Stack(1, 0, 5_000), Stack(2, 3, 3_000), Stack(3, 5, 2_000)]
    assert cancel_split(1_000, stacks, button=0) == {1: 500, 2: 300, 3: 200}


def test_a_cancels_odd_chips_go_to_the_biggest_stacks() -> None:
    """11 over 500/300/200: 5.5, 3.3, 2.2 -> 5, 3, 2 and one left: the biggest stack's."""
    stacks = [Stack(1, 0, 200), Stack(2, 3, 500), Stack(3, 5, 300)]
    assert cancel_split(11, stacks, button=0) == {1: 2, 2: 6, 3: 3}


def test_a_cancels_odd_chips_between_equal_stacks_go_from_the_button_on() -> None:
    """11 over three equal stacks: 3 each and two left, one each to the two seats first from
    the button's left (button 3: seat 5, then seat 0, then seat 3 itself)."""
    stacks = [Stack(1, 0, 700), Stack(2, 3, 700), Stack(3, 5, 700)]
    assert cancel_split(11, stacks, button=3) == {3: 4, 1: 4, 2: 3}
    assert cancel_split(11, stacks, button=5) == {1: 4, 2: 4, 3: 3}


def test_a_cancel_refuses_wrong_figures() -> None:
    with pytest.raises(StandingsError, match="nobody is left"):
        cancel_split(10, [], button=0)
    with pytest.raises(StandingsError, match="player 1 needs chips"):
        cancel_split(10, [Stack(1, 0, 0), Stack(2, 1, 5)], button=0)
    with pytest.raises(StandingsError, match="the button is a seat from 0 to 7"):
        cancel_split(10, [Stack(1, 0, 5)], button=8)


@given(
    st.integers(0, 10**12),
    st.lists(st.integers(1, 800_000), min_size=1, max_size=8),
    st.integers(0, 7),
)
def test_a_cancel_split_adds_up_to_the_pool_and_keeps_the_proportions(
    pool: int, chips: list[int], button: int
) -> None:
    stacks = [Stack(100 + seat, seat, c) for seat, c in enumerate(chips)]
    shares = cancel_split(pool, stacks, button)
    assert sum(shares.values()) == pool
    total = sum(chips)
    for stack in stacks:
        exact = Fraction(pool * stack.chips, total)
        assert exact - 1 < shares[stack.player] < exact + 1
    for a in stacks:
        for b in stacks:
            if a.chips > b.chips:
                assert shares[a.player] >= shares[b.player]


FIGURES = {
    "buy_ins": 8_000,
    "refunds": 1_000,
    "prizes": 3_500,
    "pool_left": 3_500,
    "entrants": 7,
    "starting_chips": 1_500,
    "chips_in_play": 10_500,
}


def test_the_audit_finds_nothing_in_right_figures() -> None:
    assert audit(**FIGURES) == []
    assert audit(**{**FIGURES, "chips_in_play": None}) == []


def test_the_audit_says_what_is_wrong() -> None:
    assert audit(**{**FIGURES, "pool_left": 3_400}) == [
        "buy-ins 8,000 - refunds 1,000 - prizes 3,500 = 3,500, "
        "but the pool left is 3,400 (100 missing)"
    ]
    assert audit(**{**FIGURES, "chips_in_play": 12_000}) == [
        "12,000 chips in play, but 7 entrants x 1,500 starting chips = 10,500 (1,500 too many)"
    ]
    both = audit(**{**FIGURES, "prizes": 3_000, "chips_in_play": 10_000})
    assert len(both) == 2 and all(p.endswith("(500 missing)") for p in both)


def test_the_audit_refuses_figures_that_are_not_chips() -> None:
    assert audit(**{**FIGURES, "refunds": -1}) == [
        "refunds must be a whole number, 0 or more (got -1)"
    ]
    assert audit(**{**FIGURES, "chips_in_play": 1.5}) == [
        "chips in play must be a whole number, 0 or more (got 1.5)"
    ]

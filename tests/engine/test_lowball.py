"""The razz evaluator (R14.1) and razz boards (R14.3) against pokerkit's ace-to-five low.

pokerkit's ``RegularLowHand`` (the hand type of its ``FixedLimitRazz``) is the reference:
an independent implementation run on the same hands, test-only.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations_with_replacement

import pytest
from pokerkit import RegularLowHand

from dealerbot.engine.cards import ALL_CARDS, parse_cards
from dealerbot.engine.lowball import best_razz, razz_rank
from dealerbot.engine.opener import low_board_rank

from .test_evaluate import assert_same_order, random_hands


def pokerkit_low(cards: Sequence[int]) -> RegularLowHand:
    return RegularLowHand.from_game("".join(str(ALL_CARDS[c]) for c in cards))


def pokerkit_better(a: object, b: object) -> bool:
    assert isinstance(a, RegularLowHand) and isinstance(b, RegularLowHand)
    return a > b


def every_five_card_rank_multiset() -> list[list[int]]:
    """One hand per rank multiset of five cards (suits c, d, h, s, c: no card twice)."""
    return [
        [r * 4 + i % 4 for i, r in enumerate(ranks)]
        for ranks in combinations_with_replacement(range(13), 5)
        if all(ranks.count(r) <= 4 for r in ranks)
    ]


def test_r14_1_every_five_card_class_ordered_like_pokerkit() -> None:
    hands = every_five_card_rank_multiset()
    assert len(hands) == 6175
    ours = [razz_rank(hand) for hand in hands]
    assert len(set(ours)) == 6175  # suits never matter, so every multiset is its own class
    assert_same_order(ours, [pokerkit_low(hand) for hand in hands], pokerkit_better)


@pytest.mark.parametrize(("size", "count"), [(7, 4000), (6, 1500)])
def test_r14_1_random_hands_ordered_like_pokerkit(size: int, count: int) -> None:
    hands = random_hands(seed=140 + size, size=size, count=count)
    ours = [razz_rank(hand) for hand in hands]
    assert_same_order(ours, [pokerkit_low(hand) for hand in hands], pokerkit_better)


def test_r14_1_paired_seven_card_hands_ordered_like_pokerkit() -> None:
    """Random hands rarely pair badly; these draw seven cards from four or five ranks."""
    rng = random.Random(1414)
    hands = []
    for _ in range(2000):
        ranks = rng.sample(range(13), rng.choice((2, 3, 4, 5)))
        pool = [r * 4 + s for r in ranks for s in range(4)]
        hands.append(rng.sample(pool, 7))
    ours = [razz_rank(hand) for hand in hands]
    assert_same_order(ours, [pokerkit_low(hand) for hand in hands], pokerkit_better)


def test_r14_1_input_order_and_card_type_do_not_matter() -> None:
    rng = random.Random(5)
    for hand in random_hands(seed=6, size=7, count=1000):
        shuffled = hand[:]
        rng.shuffle(shuffled)
        assert razz_rank(hand) == razz_rank(shuffled) == razz_rank([ALL_CARDS[c] for c in hand])


def test_r14_1_best_razz_rank_and_cards_match_the_fast_rank() -> None:
    for hand in random_hands(seed=8, size=7, count=500):
        cards = [ALL_CARDS[c] for c in hand]
        best = best_razz(cards)
        assert best.rank == razz_rank(hand)
        five = pokerkit_low(hand).cards
        assert sorted(best.ranks) == sorted("A23456789TJQK".index(c.rank.value) + 1 for c in five)


def test_best_razz_refuses_other_sizes() -> None:
    with pytest.raises(ValueError, match="5 to 7 cards"):
        best_razz(parse_cards("Ac 2c 3c 4c"))


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_r14_3_boards_ordered_like_pokerkit_lows_padded(size: int) -> None:
    """A board compares as a low of its up cards (R14.3).  pokerkit needs five cards, so boards
    of ranks A-8 are completed with the same king, queen and jack: unpaired cards above every
    board card, which order the hands exactly as the boards."""
    rng = random.Random(size)
    low_cards = [c for c in range(52) if str(ALL_CARDS[c])[0] in "A2345678"]
    pad = [int(c) for c in parse_cards("Kc Qd Jh")][: 5 - size]
    boards = [rng.sample(low_cards, size) for _ in range(800)]
    ours = [low_board_rank(board) for board in boards]
    reference = [pokerkit_low([*board, *pad]) for board in boards]
    assert_same_order(ours, reference, pokerkit_better)  # type: ignore[arg-type]


def test_r14_3_equal_boards_compare_equal_and_suits_never_count() -> None:
    assert low_board_rank(parse_cards("7d 2c")) == low_board_rank(parse_cards("7s 2h"))
    assert low_board_rank(parse_cards("5h 4h 3h 2h")) == low_board_rank(parse_cards("5c 4d 3s 2c"))
    assert low_board_rank(parse_cards("Kd")) < low_board_rank(parse_cards("Ac"))

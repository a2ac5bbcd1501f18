"""Hand evaluator: R9.1 (high), R10.2/R10.3/R10.5 (eight-or-better low), R6.1/R6.2/R12.2 (boards).

Exactness is checked against two independent references run on the same hands: treys for the
high hand and pokerkit for the eight-or-better low.  Both are test-only dependencies.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import pytest
from pokerkit import EightOrBetterLowHand
from treys import Card as TreysCard
from treys import Evaluator

from dealerbot.engine.cards import ALL_CARDS, Card, parse_cards
from dealerbot.engine.evaluate import (
    HandCategory,
    HighHand,
    LowHand,
    best_high,
    best_low,
    high_category,
    high_rank,
    low_rank,
)

TREYS = Evaluator()
TREYS_CARD = [TreysCard.new(str(card)) for card in ALL_CARDS]


def treys_rank(cards: Sequence[int]) -> int:
    """treys' rank of the best five (1 = royal flush, lower is better)."""
    converted = [TREYS_CARD[c] for c in cards]
    return TREYS.evaluate(converted[:2], converted[2:])


def treys_category(cards: Sequence[int]) -> HandCategory:
    rank_class = TREYS.get_rank_class(treys_rank(cards))  # 0 royal, 1 straight flush .. 9
    return HandCategory.STRAIGHT_FLUSH if rank_class == 0 else HandCategory(9 - rank_class)


def assert_same_order(
    ours: Sequence[int], reference: Sequence[Hashable], better: Callable[[object, object], bool]
) -> None:
    """Our ints order the hands exactly as the reference does, ties included.

    Sort the hands by our value; along that order the reference must get strictly better
    exactly where ours increases and stay equal exactly where ours stays equal.  Then for every
    pair of sampled hands the two comparisons agree.
    """
    order = sorted(range(len(ours)), key=ours.__getitem__)
    for i, j in pairwise(order):
        if ours[j] == ours[i]:
            assert reference[j] == reference[i], (i, j, ours[i], reference[i], reference[j])
        else:
            assert better(reference[j], reference[i]), (i, j, ours[i], ours[j], reference[i])


def treys_better(a: object, b: object) -> bool:
    assert isinstance(a, int) and isinstance(b, int)
    return a < b


def random_hands(seed: int, size: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    deck = list(range(52))
    return [rng.sample(deck, size) for _ in range(count)]


# --- R9.1: high hands --------------------------------------------------------------------------


def test_r9_1_seven_card_order_matches_treys_on_200k_hands() -> None:
    hands = random_hands(seed=91, size=7, count=200_000)
    ours = [high_rank(hand) for hand in hands]
    assert_same_order(ours, [treys_rank(hand) for hand in hands], treys_better)
    assert len(set(ours)) > 4000  # the sample really spans most classes


@pytest.mark.parametrize("size", [5, 6])
def test_r9_1_five_and_six_card_order_matches_treys(size: int) -> None:
    hands = random_hands(seed=size, size=size, count=30_000)
    ours = [high_rank(hand) for hand in hands]
    assert_same_order(ours, [treys_rank(hand) for hand in hands], treys_better)


def every_five_card_class() -> list[list[int]]:
    """One hand per class: every unsuited rank multiset (not suited) plus every suited five."""
    hands = []
    for ranks in combinations_with_replacement(range(13), 5):
        if any(ranks.count(r) > 4 for r in ranks):
            continue
        # suits c, d, h, s, c: never a flush, and no card appears twice
        hands.append([r * 4 + i % 4 for i, r in enumerate(ranks)])
    hands.extend([r * 4 + 3 for r in ranks] for ranks in combinations(range(13), 5))
    return hands


def test_r9_1_every_five_card_class_is_distinct_and_ordered_like_treys() -> None:
    hands = every_five_card_class()
    assert len(hands) == 7462
    ours = [high_rank(hand) for hand in hands]
    assert sorted(ours) == list(range(1, 7463))
    assert_same_order(ours, [treys_rank(hand) for hand in hands], treys_better)


def test_r9_1_category_matches_treys() -> None:
    for hand in every_five_card_class() + random_hands(seed=7, size=7, count=5_000):
        assert high_category(high_rank(hand)) == treys_category(hand), hand


def test_r9_1_suits_never_break_ties_example() -> None:
    first = parse_cards("Ah Kh Qh Jd Td 3c 2d")
    second = parse_cards("As Ks Qs Js Tc 3d 2c")
    assert high_rank(first) == high_rank(second)
    assert high_category(high_rank(first)) is HandCategory.STRAIGHT
    assert best_high(first).name == best_high(second).name == "Straight, ace high"


def test_r9_1_wheel_is_the_lowest_straight() -> None:
    wheel = high_rank(parse_cards("5c 4d 3h 2s Ac"))
    six_high = high_rank(parse_cards("6c 5d 4h 3s 2c"))
    trip_aces = high_rank(parse_cards("Ac Ad Ah Ks Qc"))
    assert trip_aces < wheel < six_high
    assert high_category(wheel) is HandCategory.STRAIGHT
    steel_wheel = high_rank(parse_cards("5h 4h 3h 2h Ah"))
    six_high_flush = high_rank(parse_cards("6h 5h 4h 3h 2h"))
    assert high_rank(parse_cards("Kc Kd Kh Ks Ac")) < steel_wheel < six_high_flush


def test_r9_1_input_order_and_card_type_do_not_matter() -> None:
    rng = random.Random(3)
    for hand in random_hands(seed=4, size=7, count=2_000):
        shuffled = hand[:]
        rng.shuffle(shuffled)
        as_cards = tuple(ALL_CARDS[c] for c in shuffled)
        assert high_rank(hand) == high_rank(shuffled) == high_rank(as_cards)


def test_r9_1_seven_cards_flush_beats_board_pairs() -> None:
    # five hearts and two pairs on the side: the flush plays
    cards = parse_cards("Ah 9h 7h 4h 2h 9c 7c")
    assert high_category(high_rank(cards)) is HandCategory.FLUSH
    # six hearts: the best five of them
    six = parse_cards("Ah Kh 9h 7h 4h 2h 2c")
    assert high_rank(six) == high_rank(parse_cards("Ah Kh 9h 7h 4h"))


def test_high_category_rejects_ranks_out_of_range() -> None:
    for bad in (0, 7463, -1):
        with pytest.raises(ValueError):
            high_category(bad)


NAMES = [
    ("As Ks Qs Js Ts 2c 3d", HandCategory.STRAIGHT_FLUSH, "Royal flush", "A♠ K♠ Q♠ J♠ 10♠"),
    ("Th 9h 8h 7h 6h 6c Ac", HandCategory.STRAIGHT_FLUSH, "Straight flush, ten high",
     "10♥ 9♥ 8♥ 7♥ 6♥"),
    ("5d 4d 3d 2d Ad Kc", HandCategory.STRAIGHT_FLUSH, "Straight flush, five high",
     "5♦ 4♦ 3♦ 2♦ A♦"),
    ("2c 2d 2h 2s 9d 5c 5d", HandCategory.QUADS, "Four of a kind, deuces", "2♠ 2♥ 2♦ 2♣ 9♦"),
    ("Kc Kd Kh 7s 7c 2d 3d", HandCategory.FULL_HOUSE, "Full house, kings full of sevens",
     "K♥ K♦ K♣ 7♠ 7♣"),
    ("Qh 9h 7h 4h 2h Kc Ks", HandCategory.FLUSH, "Flush, queen high", "Q♥ 9♥ 7♥ 4♥ 2♥"),
    ("5c 4d 3h 2s Ac Kd", HandCategory.STRAIGHT, "Straight, five high", "5♣ 4♦ 3♥ 2♠ A♣"),
    ("7c 7d 7h 2s 9d Jc 3h", HandCategory.TRIPS, "Three of a kind, sevens", "7♥ 7♦ 7♣ J♣ 9♦"),
    ("Ac Ad 9s 9c 2d 3d 5h", HandCategory.TWO_PAIR, "Two pair, aces and nines", "A♦ A♣ 9♠ 9♣ 5♥"),
    ("Jc Jd 2h 5s 9c", HandCategory.PAIR, "Pair of jacks", "J♦ J♣ 9♣ 5♠ 2♥"),
    ("Ac 2d 3h 5s 8c Qd Th", HandCategory.HIGH_CARD, "High card, ace", "A♣ Q♦ 10♥ 8♣ 5♠"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "category", "name", "shown"), NAMES)
def test_best_high_names_every_category(
    text: str, category: HandCategory, name: str, shown: str
) -> None:
    cards = parse_cards(text)
    hand = best_high(cards)
    assert isinstance(hand, HighHand)
    assert (hand.category, hand.name) == (category, name)
    assert " ".join(card.pretty for card in hand.cards) == shown
    assert all(isinstance(card, Card) for card in hand.cards)
    assert hand.rank == high_rank(cards) == high_rank(hand.cards)


def test_best_high_is_high_rank_on_random_hands() -> None:
    for hand in random_hands(seed=5, size=7, count=1_000):
        cards = [ALL_CARDS[c] for c in hand]
        best = best_high(cards)
        assert best.rank == high_rank(hand)
        assert len(best.cards) == 5 and set(best.cards) <= set(cards)
        assert best == best_high(cards[::-1])  # the shown five never depend on input order


def test_best_high_refuses_too_few_cards() -> None:
    with pytest.raises(ValueError):
        best_high(parse_cards("6c 6d 6h 6s"))


# --- R10.2, R10.3: eight-or-better low ---------------------------------------------------------


def pokerkit_low(cards: Sequence[int]) -> EightOrBetterLowHand | None:
    hand = EightOrBetterLowHand.from_game_or_none("".join(str(ALL_CARDS[c]) for c in cards))
    assert hand is None or isinstance(hand, EightOrBetterLowHand)
    return hand


def pokerkit_low_ranks(hand: EightOrBetterLowHand) -> tuple[int, ...]:
    order = "A2345678"
    return tuple(sorted((order.index(c.rank.value) + 1 for c in hand.cards), reverse=True))


@pytest.mark.parametrize(("size", "count"), [(7, 12_000), (6, 8_000), (5, 20_000)])
def test_r10_3_low_matches_pokerkit(size: int, count: int) -> None:
    hands = random_hands(seed=103 + size, size=size, count=count)
    ours = [low_rank(hand) for hand in hands]
    reference = [pokerkit_low(hand) for hand in hands]
    assert [r is None for r in ours] == [r is None for r in reference]
    qualified = [i for i, r in enumerate(ours) if r is not None]
    assert len(qualified) >= 300  # enough lows to compare
    for i in qualified:
        low = best_low([ALL_CARDS[c] for c in hands[i]])
        hand = reference[i]
        assert low is not None and hand is not None
        assert low.ranks == pokerkit_low_ranks(hand)
        assert low.rank == ours[i]

    def pokerkit_better(a: object, b: object) -> bool:
        assert isinstance(a, EightOrBetterLowHand) and isinstance(b, EightOrBetterLowHand)
        return a > b

    ranks = [r for r in ours if r is not None]
    assert_same_order(ranks, [reference[i] for i in qualified], pokerkit_better)


def test_r10_3_example_low_chosen_apart_from_high() -> None:
    cards = parse_cards("Ac 2d 3h 5s 8c Kd Kh")
    low = best_low(cards)
    assert low == LowHand(low_rank(cards) or 0, (8, 5, 3, 2, 1), "8-5-3-2-A")
    assert best_high(cards).name == "Pair of kings"


def test_r10_3_lows_compare_from_the_highest_card_down() -> None:
    seven_five = low_rank(parse_cards("7c 5d 4h 3s 2c"))
    seven_six = low_rank(parse_cards("7c 6d 3h 2s Ac"))
    eight_four = low_rank(parse_cards("8c 4d 3h 2s Ac"))
    assert seven_five is not None and seven_six is not None and eight_four is not None
    assert seven_five > seven_six > eight_four


def test_r10_3_wheel_is_the_best_low() -> None:
    wheel = low_rank(parse_cards("Ac 2d 3h 4s 5c Kd Kh"))
    ace_to_eight = parse_cards("As 2c 3c 4c 5c 6c 7c 8c")
    every_low = [low_rank(five) for five in combinations(ace_to_eight, 5)]
    assert None not in every_low and len(set(every_low)) == 56
    assert wheel == max(r for r in every_low if r is not None)


def test_r10_2_low_needs_five_different_ranks_eight_or_lower() -> None:
    assert low_rank(parse_cards("Ac Ad 2c 2d 3h 3s 4c")) is None  # only four ranks
    assert low_rank(parse_cards("9c 5d 4h 3s 2c Kd Qh")) is None  # the nine does not count
    assert best_low(parse_cards("9c 5d 4h 3s 2c Kd Qh")) is None
    nine_free = best_low(parse_cards("9c 8d 4h 3s 2c 2d Ah"))
    assert nine_free is not None and nine_free.name == "8-4-3-2-A"


def test_r10_2_r10_5_straights_and_flushes_do_not_spoil_a_low() -> None:
    cards = parse_cards("5c 4c 3c 2c Ac")
    low = best_low(cards)
    assert low is not None and low.ranks == (5, 4, 3, 2, 1)
    assert best_high(cards).category is HandCategory.STRAIGHT_FLUSH
    scoop = parse_cards("5c 4d 3h 2s Ac")  # R10.5 example: straight and the best low
    assert best_high(scoop).category is HandCategory.STRAIGHT
    assert low_rank(scoop) == low.rank

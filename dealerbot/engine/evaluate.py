"""Hand evaluation: the high hand and the eight-or-better low.

Implements: R9.1 (best five of five to seven cards, standard ranks, A-2-3-4-5 the lowest
straight, suits never break ties, so equal hands get equal ranks and split), R10.2 (a low
is five different ranks, all 8 or lower, ace low; straights and flushes ignored), R10.3
(the best qualifying low of the cards, chosen apart from the high hand; lows compare
from the highest card down).

Splitting the pot between these two ranks is pots.py's job (see R10.4, R10.5); board
strength for the order of action is opener.py's (see R6.1).

Speed matters (showdowns and simulations call :func:`high_rank` a lot), so the high and low
evaluators are table driven. Every card has an additive key: a base-8 digit per rank (the rank
multiset of up to seven cards, never overflowing) and a 4-bit counter per suit that starts at 3,
so a suit holding five or more cards sets bit 3 of its counter. One sum of seven list lookups
therefore tells both "is there a flush" and "which ranks", and a dict maps the rank multiset to
its value (high_tables.py builds it, and ships it precomputed so that import stays fast).
Flushes (a few per cent of seven-card hands) take a short loop and a table indexed by the 13-bit
rank mask of the flush suit.

High ranks are dense: 1 (7-5-4-3-2 offsuit) to 7462 (royal flush), one per equivalence class of
five-card hands, higher is better.  Low ranks are dense too: 1 (8-7-6-5-4) to 56 (5-4-3-2-A).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from .cards import ALL_CARDS, RANK_INDEX, SUIT_INDEX, Card
from .high_tables import load_high_tables

__all__ = [
    "HandCategory",
    "HighHand",
    "LowHand",
    "best_high",
    "best_low",
    "high_category",
    "high_rank",
    "low_rank",
]


class HandCategory(IntEnum):
    """Classes of five-card high hands, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    TRIPS = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    QUADS = 7
    STRAIGHT_FLUSH = 8


# ---------------------------------------------------------------------------------------------
# Tables for the high hand.  Rank indexes are 0 (deuce) .. 12 (ace), i.e. ``RANK_INDEX[card]``.

_RANK_BITS = 39  # 13 base-8 digits
_RANK_MASK = (1 << _RANK_BITS) - 1
_SUIT_START = sum(3 << (_RANK_BITS + 4 * suit) for suit in range(4))
_FLUSH_BITS = sum(8 << (_RANK_BITS + 4 * suit) for suit in range(4))
_FLUSH_SUIT = {8 << (_RANK_BITS + 4 * suit): suit for suit in range(4)}

_CARD_KEY: list[int] = [
    (1 << 3 * RANK_INDEX[c]) + (1 << (_RANK_BITS + 4 * SUIT_INDEX[c])) for c in range(52)
]
# The first card's key also carries the suit counters' start value, saving one addition.
_FIRST_KEY: list[int] = [key + _SUIT_START for key in _CARD_KEY]

_NON_FLUSH, _NON_FLUSH_7, _FLUSH, _CATEGORY_STARTS = load_high_tables()
_MAX_HIGH_RANK = max(_FLUSH)  # 7462, the royal flush


# Seven cards look up the rank part together with the flush bits: a flush misses the table, so
# the common case pays for no separate test (``try`` costs nothing until it catches).
_RANK_AND_FLUSH = _RANK_MASK | _FLUSH_BITS


def _flush_rank(cards: Sequence[int], s: int) -> int:
    # With at most seven cards, five of one suit leave too few others for a full house or
    # quads, so the flush suit alone decides the hand.
    suit = _FLUSH_SUIT[s & _FLUSH_BITS]
    mask = 0
    suits, ranks = SUIT_INDEX, RANK_INDEX
    for c in cards:
        if suits[c] == suit:
            mask |= 1 << ranks[c]
    return _FLUSH[mask]


def high_rank(cards: Sequence[int]) -> int:
    """Rank of the best five-card high hand among 5, 6 or 7 distinct cards (R9.1).

    Higher is better; equal ranks are equal hands (suits never break ties).  Cards may be
    :class:`Card` or plain codes 0..51.  Inputs are not checked (this is the hot path):
    duplicated cards or other sizes give a wrong answer or a ``KeyError``.
    """
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        k = _CARD_KEY
        s = _FIRST_KEY[a] + k[b] + k[c] + k[d] + k[e] + k[f] + k[g]
        try:
            return _NON_FLUSH_7[s & _RANK_AND_FLUSH]
        except KeyError:
            return _flush_rank(cards, s)
    s = sum(map(_CARD_KEY.__getitem__, cards), _SUIT_START)
    if s & _FLUSH_BITS:
        return _flush_rank(cards, s)
    return _NON_FLUSH[s & _RANK_MASK]


def high_category(rank: int) -> HandCategory:
    """The class (pair, flush, ...) of a rank returned by :func:`high_rank`."""
    if not 1 <= rank <= _MAX_HIGH_RANK:
        raise ValueError(f"{rank} is not a high-hand rank (1..{_MAX_HIGH_RANK})")
    return HandCategory(bisect_right(_CATEGORY_STARTS, rank) - 1)


# ---------------------------------------------------------------------------------------------
# Display of high hands.

_SINGULAR = ("deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "jack", "queen", "king", "ace")  # fmt: skip
_PLURAL = ("deuces", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "jacks", "queens", "kings", "aces")  # fmt: skip


@dataclass(frozen=True)
class HighHand:
    """A player's best high hand, for showdown messages."""

    rank: int
    category: HandCategory
    cards: tuple[Card, ...]  # the best five, in display order (KKK77, 5432A for the wheel)
    name: str


def _display_order(five: Sequence[int], category: HandCategory) -> tuple[Card, ...]:
    """Groups first (bigger, then higher), suits high to low inside a group; wheel ace last."""
    rank = RANK_INDEX
    counts = Counter(rank[c] for c in five)
    ordered = sorted(five, key=lambda c: (counts[rank[c]], rank[c], SUIT_INDEX[c]), reverse=True)
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and (
        rank[ordered[0]] == 12 and rank[ordered[1]] == 3
    ):
        ordered = [*ordered[1:], ordered[0]]
    return tuple(ALL_CARDS[c] for c in ordered)


def _high_name(category: HandCategory, cards: Sequence[Card]) -> str:
    r = [RANK_INDEX[c] for c in cards]
    match category:
        case HandCategory.STRAIGHT_FLUSH:
            return "Royal flush" if r[0] == 12 else f"Straight flush, {_SINGULAR[r[0]]} high"
        case HandCategory.QUADS:
            return f"Four of a kind, {_PLURAL[r[0]]}"
        case HandCategory.FULL_HOUSE:
            return f"Full house, {_PLURAL[r[0]]} full of {_PLURAL[r[3]]}"
        case HandCategory.FLUSH:
            return f"Flush, {_SINGULAR[r[0]]} high"
        case HandCategory.STRAIGHT:
            return f"Straight, {_SINGULAR[r[0]]} high"
        case HandCategory.TRIPS:
            return f"Three of a kind, {_PLURAL[r[0]]}"
        case HandCategory.TWO_PAIR:
            return f"Two pair, {_PLURAL[r[0]]} and {_PLURAL[r[2]]}"
        case HandCategory.PAIR:
            return f"Pair of {_PLURAL[r[0]]}"
        case _:
            return f"High card, {_SINGULAR[r[0]]}"


def best_high(cards: Sequence[Card]) -> HighHand:
    """The best five of 5 to 7 cards with display order and name (R9.1); not the hot path."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a high hand needs 5 to 7 cards, not {len(cards)}")
    # Among equal fives prefer the highest cards by code, so the choice never depends on the
    # input order.
    # combinations() of the cards sorted high to low come in falling order, so the first
    # five that reaches the best rank is also the highest such five.
    rank = high_rank(cards)
    five = next(c for c in combinations(sorted(cards, reverse=True), 5) if high_rank(c) == rank)
    category = high_category(rank)
    shown = _display_order(five, category)
    return HighHand(rank, category, shown, _high_name(category, shown))


# ---------------------------------------------------------------------------------------------
# Eight-or-better low (R10.2, R10.3).

# Bit 0 is the ace, bit 1 the deuce ... bit 7 the eight; nines to kings have no low bit.
_LOW_BIT: list[int] = [
    (1 if r == 12 else 1 << r + 1) if r <= 6 or r == 12 else 0
    for r in (RANK_INDEX[c] for c in range(52))
]


def _lowest_five(mask: int) -> int:
    """The five lowest set bits of ``mask`` (which has at least five)."""
    out = 0
    for _ in range(5):
        low = mask & -mask
        out |= low
        mask ^= low
    return out


def _build_low_table() -> list[int | None]:
    """Rank-presence mask (8 bits) -> dense low rank of its best five, or None."""
    # Comparing from the highest card down is comparing the five-bit masks as numbers:
    # a smaller mask is a better low.
    fives = sorted((m for m in range(256) if m.bit_count() == 5), reverse=True)
    dense = {m: i for i, m in enumerate(fives, 1)}
    return [dense[_lowest_five(m)] if m.bit_count() >= 5 else None for m in range(256)]


_LOW_TABLE = _build_low_table()
_LOW_MASK_OF_RANK = {rank: m for m, rank in zip(range(256), _LOW_TABLE, strict=True)
                     if rank is not None and m.bit_count() == 5}  # fmt: skip


def low_rank(cards: Sequence[int]) -> int | None:
    """Rank of the best eight-or-better low of up to 7 cards, or None (R10.2, R10.3).

    Higher is better: 56 is 5-4-3-2-A, 1 is 8-7-6-5-4.  Straights and flushes are ignored.
    """
    bits = _LOW_BIT
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        return _LOW_TABLE[bits[a] | bits[b] | bits[c] | bits[d] | bits[e] | bits[f] | bits[g]]
    mask = 0
    for card in cards:
        mask |= bits[card]
    return _LOW_TABLE[mask]


@dataclass(frozen=True)
class LowHand:
    """A qualifying low, for showdown messages."""

    rank: int
    ranks: tuple[int, ...]  # five ranks high to low, ace as 1, e.g. (8, 6, 4, 3, 1)
    name: str  # "8-6-4-3-A"


def best_low(cards: Sequence[Card]) -> LowHand | None:
    """The best eight-or-better low of the cards with its name, or None if none qualifies."""
    rank = low_rank(cards)
    if rank is None:
        return None
    mask = _LOW_MASK_OF_RANK[rank]
    ranks = tuple(bit + 1 for bit in range(7, -1, -1) if mask >> bit & 1)
    return LowHand(rank, ranks, "-".join("A" if r == 1 else str(r) for r in ranks))

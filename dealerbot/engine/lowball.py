"""Razz's ace-to-five low: the whole pot's evaluator and the names razz players use.

Implements: R14.1 (the best ace-to-five low of the cards: the ace is low, straights and
flushes do not count, pairs count against; five different ranks beat any pair, one pair
beats two pair beats trips and so on; among equal shapes the groups compare from the
highest down; there is no qualifier, so every hand has a low).

Board strength for razz's order of action lives with the other boards in opener.py (see
R14.3); splitting the pot and its odd chip in pots.py (see R14.5).

Speed: most seven-card hands hold five different ranks, and then the best low is their
five lowest: one OR of per-card rank bits indexes a table of 8,192 masks built at import
(a few milliseconds), as the eight-or-better low does.  The other hands need a pair; their
rank multiset (a base-8 digit per rank, as in evaluate.py) looks up a dict that fills on
first sight of a multiset (a few thousand of them), so importing costs little.  Ranks are
higher-is-better ints, so the pot code compares razz lows like any other hand value; equal
lows get equal ranks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import RANK_INDEX, Card

__all__ = ["ACE_LOW", "RazzHand", "best_razz", "razz_rank", "razz_shape"]

# The rank-multiset key of a card: one base-8 digit per rank (index 0 = deuce .. 12 = ace).
_RANK_KEY: list[int] = [1 << 3 * RANK_INDEX[c] for c in range(52)]
ACE_LOW = tuple(1 if r == 12 else r + 2 for r in range(13))  # rank index -> 1 (ace) .. 13 (K)

# Shapes of five cards, best (no pair) to worst (quads), as R14.1 orders them.
_SHAPES = {
    (1, 1, 1, 1, 1): 0,
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
}
_WORST = 6 << 20  # above every packed five-card value


def razz_shape(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """(shape, group ranks) of 1 to 5 ace-low ranks (1..13): lower is a better low.

    Shape 0 is no pair, 1 a pair, 2 two pair, 3 trips, 4 a full house, 5 quads (a board of
    fewer than five cards pads with unpaired cards); the groups come bigger first, then
    higher first, which is the order R14.1 compares them in.
    """
    counts = Counter(ranks)
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    shape = tuple(n for n, _ in groups)
    return _SHAPES[(*shape, *(1,) * (5 - sum(shape)))], tuple(rank for _, rank in groups)


def _pack(ranks: Sequence[int]) -> int:
    """Order-reversing int of five ace-low ranks: higher is a better low."""
    shape, groups = razz_shape(ranks)
    value = shape
    for rank in (*groups, *(0,) * (5 - len(groups))):
        value = value << 4 | rank
    return _WORST - value


def _best_five(ranks: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """The packed value and the ranks of the best five of 5 to 7 ace-low ranks."""
    distinct = sorted(set(ranks))
    if len(distinct) >= 5:  # no pair: the five lowest different ranks
        five = tuple(distinct[:5])
        return _pack(five), five
    return max((_pack(five), five) for five in combinations(sorted(ranks), 5))


def _ranks_of_key(key: int) -> list[int]:
    return [ACE_LOW[r] for r in range(13) for _ in range(key >> 3 * r & 7)]


def _build_unpaired_table() -> list[int | None]:
    """13-bit mask of the ranks held (bit 0 the ace .. bit 12 the king) -> the rank of the best
    low when five or more ranks differ (its five lowest ranks), else None (a pair is needed)."""
    table: list[int | None] = [None] * (1 << 13)
    for five in combinations(range(13), 5):
        table[sum(1 << bit for bit in five)] = _pack([bit + 1 for bit in five])
    for mask in range(1 << 13):  # more than five: the same as without the highest (done before)
        if mask.bit_count() > 5:
            table[mask] = table[mask ^ 1 << mask.bit_length() - 1]
    return table


_UNPAIRED = _build_unpaired_table()
_RANK_BIT: list[int] = [1 << ACE_LOW[RANK_INDEX[c]] - 1 for c in range(52)]
_TWO_BITS: list[list[int]] = [[_RANK_BIT[a] | _RANK_BIT[b] for b in range(52)] for a in range(52)]
_PAIRED: dict[int, int] = {}  # rank-multiset key -> rank, filled on first sight


def _paired_rank(cards: Sequence[int]) -> int:
    """The rank of a hand with fewer than five different ranks: the best five use a pair."""
    key = sum(map(_RANK_KEY.__getitem__, cards))
    try:
        return _PAIRED[key]
    except KeyError:
        value = _PAIRED[key] = _best_five(_ranks_of_key(key))[0]
        return value


def razz_rank(cards: Sequence[int]) -> int:
    """Rank of the best ace-to-five low among 5, 6 or 7 distinct cards (R14.1).

    Higher is better; equal lows get equal ranks (suits never matter).  Cards may be
    :class:`Card` or plain codes 0..51.  Inputs are not checked (this is the hot path).
    Most hands hold five different ranks: one OR of seven bits and a list lookup, as fast as
    the eight-or-better low; the rest look their rank multiset up.
    """
    if len(cards) == 7:
        a, b, c, d, e, f, g = cards
        two = _TWO_BITS  # three ORs instead of six: fewer int objects made
        value = _UNPAIRED[two[a][b] | two[c][d] | two[e][f] | _RANK_BIT[g]]
    else:
        mask = 0
        for card in cards:
            mask |= _RANK_BIT[card]
        value = _UNPAIRED[mask]
    return value or _paired_rank(cards)  # ranks are positive: None means a pair is needed


_WORDS = ("", "ace", "deuce", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king")  # fmt: skip
_PLURALS = ("", "aces", "deuces", "threes", "fours", "fives", "sixes", "sevens", "eights",
            "nines", "tens", "jacks", "queens", "kings")  # fmt: skip
_SYMBOLS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


@dataclass(frozen=True)
class RazzHand:
    """A player's best razz low, for showdown messages."""

    rank: int
    ranks: tuple[
        int, ...
    ]  # the five ranks, ace as 1, high to low: (7, 5, 4, 2, 1), (9, 5, 5, 2, 1)
    text: str  # "7-5-4-2-A"
    name: str  # "Seven low", "Pair of sevens"

    def __str__(self) -> str:
        return f"{self.text} ({self.name})"


def _razz_name(shape: int, groups: Sequence[int]) -> str:
    match shape:
        case 0:
            return f"{_WORDS[groups[0]].capitalize()} low"
        case 1:
            return f"Pair of {_PLURALS[groups[0]]}"
        case 2:
            return f"Two pair, {_PLURALS[groups[0]]} and {_PLURALS[groups[1]]}"
        case 3:
            return f"Three of a kind, {_PLURALS[groups[0]]}"
        case 4:
            return f"Full house, {_PLURALS[groups[0]]} full of {_PLURALS[groups[1]]}"
        case _:
            return f"Four of a kind, {_PLURALS[groups[0]]}"


def best_razz(cards: Sequence[Card]) -> RazzHand:
    """The best ace-to-five low of 5 to 7 cards with its name (R14.1); not the hot path."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a razz hand needs 5 to 7 cards, not {len(cards)}")
    value, five = _best_five([ACE_LOW[RANK_INDEX[c]] for c in cards])
    shape, groups = razz_shape(five)
    ordered = tuple(sorted(five, reverse=True))  # as PokerStars writes a low: "Lo: K,9,5,5,2"
    text = "-".join(_SYMBOLS[rank] for rank in ordered)
    return RazzHand(value, ordered, text, _razz_name(shape, groups))

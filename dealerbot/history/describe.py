"""A shown stud hand named as PokerStars names it in a history: ``a pair of Tens``,
``HI: two pair, Aces and Fours; LO: 6,5,4,2,A``, ``Lo: 9,7,6,5,2``.

Histories name only the hands shown at a showdown, a handful per hand, so the best five are
found by trying every five of the seven cards: plain, and independent of the engine's
evaluator (whose wording is the bot's, not the site's).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from .model import Game

__all__ = ["describe"]

RANKS = "23456789TJQKA"
RANK_NAMES = [
    *("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"),
    *("Jack", "Queen", "King", "Ace"),
]
SINGULAR = dict(zip(range(2, 15), RANK_NAMES, strict=True))
PLURAL = {rank: name + ("es" if name == "Six" else "s") for rank, name in SINGULAR.items()}
ACE, FIVE_HIGH_WHEEL = 14, (14, 5, 4, 3, 2)
LOW_LABELS = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}


def describe(game: Game, cards: list[str]) -> str | None:
    """The site's name for the best hand in ``cards`` (hole cards and any community card),
    or None with fewer than five cards."""
    if len(cards) < 5:
        return None
    ranks_suits = [(RANKS.index(card[0]) + 2, card[1]) for card in cards]
    if game is Game.RAZZ:
        return "Lo: " + _low_text(_razz_low(ranks_suits))
    high = _high_name(ranks_suits)
    if game is Game.STUD:
        return high
    low = _eight_low(ranks_suits)
    return f"HI: {high}" + (f"; LO: {_low_text(low)}" if low else "")


def _high_key(five: tuple[tuple[int, str], ...]) -> tuple[int, tuple[int, ...]]:
    """(category 0-8, ranks to compare), higher is better."""
    ranks = sorted((rank for rank, _ in five), reverse=True)
    counts = Counter(ranks)
    grouped = tuple(sorted(counts, key=lambda rank: (counts[rank], rank), reverse=True))
    flush = len({suit for _, suit in five}) == 1
    straight = len(counts) == 5 and (ranks[0] - ranks[4] == 4 or tuple(ranks) == FIVE_HIGH_WHEEL)
    top = (5,) if tuple(ranks) == FIVE_HIGH_WHEEL else (ranks[0],)
    shape = sorted(counts.values(), reverse=True)
    if straight and flush:
        return 8, top
    if shape[0] == 4:
        return 7, grouped
    if shape[:2] == [3, 2]:
        return 6, grouped
    if flush:
        return 5, tuple(ranks)
    if straight:
        return 4, top
    if shape[0] == 3:
        return 3, grouped
    if shape[:2] == [2, 2]:
        return 2, grouped
    if shape[0] == 2:
        return 1, grouped
    return 0, tuple(ranks)


def _high_name(cards: list[tuple[int, str]]) -> str:
    category, ranks = max(_high_key(five) for five in combinations(cards, 5))
    first = ranks[0]
    match category:
        case 8:
            if first == ACE:
                return "a Royal Flush"
            return f"a straight flush, {_straight_text(first)}"
        case 7:
            return f"four of a kind, {PLURAL[first]}"
        case 6:
            return f"a full house, {PLURAL[first]} full of {PLURAL[ranks[1]]}"
        case 5:
            return f"a flush, {SINGULAR[first]} high"
        case 4:
            return f"a straight, {_straight_text(first)}"
        case 3:
            return f"three of a kind, {PLURAL[first]}"
        case 2:
            return f"two pair, {PLURAL[first]} and {PLURAL[ranks[1]]}"
        case 1:
            return f"a pair of {PLURAL[first]}"
    return f"high card {SINGULAR[first]}"


def _straight_text(top: int) -> str:
    low = ACE if top == 5 else top - 4
    return f"{SINGULAR[low]} to {SINGULAR[top]}"


def _low_ranks(cards: list[tuple[int, str]]) -> list[int]:
    """Ranks for a low, the ace as 1."""
    return [1 if rank == ACE else rank for rank, _ in cards]


def _eight_low(cards: list[tuple[int, str]]) -> tuple[int, ...] | None:
    """The best five distinct ranks of eight or lower, high to low, or None (R10.2)."""
    distinct = sorted({rank for rank in _low_ranks(cards) if rank <= 8})
    if len(distinct) < 5:
        return None
    return tuple(sorted(distinct[:5], reverse=True))


def _razz_low(cards: list[tuple[int, str]]) -> tuple[int, ...]:
    """The best ace-to-five low of any five: fewer pairs first, then the lowest ranks."""

    def key(five: tuple[int, ...]) -> tuple[list[int], list[int]]:
        counts = Counter(five)
        shape = sorted(counts.values(), reverse=True)
        return shape, sorted(five, key=lambda rank: (counts[rank], rank), reverse=True)

    best = min(combinations(_low_ranks(cards), 5), key=key)
    return tuple(sorted(best, reverse=True))


def _low_text(ranks: tuple[int, ...]) -> str:
    return ",".join(LOW_LABELS.get(rank, str(rank)) for rank in ranks)

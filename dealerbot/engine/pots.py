"""Pots and their award: contribution levels, uncalled bets, hi/lo split, odd chips.

Implements: R7.4 (levels, merged when eligibility is equal), R7.5 (uncalled part
returned), R7.6 and R11.5 (each pot on its own), R10.4-R10.6 (half high, half
qualifying low, scoops, quartering), R11.1-R11.4 (odd chips and their keys), R14.5 (razz:
the odd chip by the lowest card).

Razz plays the whole pot for the ace-to-five low (see R14.1).

Equal hands split (see R9.1): hand strength comes from evaluate.py through showdown.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .cards import Card, ace_low_order


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot built from contribution levels; ``eligible`` holds seat indices."""

    amount: int
    eligible: tuple[int, ...]


def uncalled_excess(committed: Sequence[int]) -> tuple[int, int] | None:
    """R7.5: (index, chips) of the part of the top contribution nobody matched, if any."""
    if len(committed) < 2:
        return None
    most = max(committed)
    top = committed.index(most)
    second = max(max(committed[:top], default=0), max(committed[top + 1 :], default=0))
    return (top, most - second) if most > second else None


def build_pots(committed: Sequence[int], folded: Sequence[bool]) -> list[Pot]:
    """R7.4: one pot per contribution level of the live players.

    Folded players' chips stay in the levels they reached; only live players are eligible.
    Levels are cut only at live players' totals, so the player whose total closes a level
    is missing from the next: adjacent pots never have the same eligible players, which is
    R7.4's merging rule holding by construction.
    """
    live = [i for i, out in enumerate(folded) if not out]
    levels = sorted({committed[i] for i in live if committed[i]})
    pots: list[Pot] = []
    below = 0  # the chips in the levels so far
    for level in levels:
        upto = sum([min(chips, level) for chips in committed])
        eligible = tuple([i for i in live if committed[i] >= level])
        if upto > below:
            pots.append(Pot(upto - below, eligible))
        below = upto
    return pots


def split_evenly(
    amount: int,
    winners: Sequence[int],
    odd_chip_order: Callable[[int], int],
    had_odd_chip: frozenset[int] = frozenset(),
) -> dict[int, int]:
    """R11.1: equal shares; each odd chip to a different winner, best ``odd_chip_order`` first.

    Winners in ``had_odd_chip`` (they took one from the other half of this pot) come
    last, so nobody gets two odd chips from one pot while another winner got none.
    """
    if len(winners) == 1:  # most pots: nothing to split
        return {winners[0]: amount}
    share, odd = divmod(amount, len(winners))
    ranked = sorted(winners, key=lambda seat: (seat not in had_odd_chip, odd_chip_order(seat)))
    ranked.reverse()
    return {seat: share + (1 if place < odd else 0) for place, seat in enumerate(ranked)}


@dataclass(frozen=True, slots=True)
class Award:
    """What one pot paid: winners of each half and the chips per seat index."""

    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: dict[int, int]


def award_pot(
    pot: Pot,
    high: Callable[[int], int] | None,
    low: Callable[[int], int | None] | None,
    high_odd_chip: Callable[[int], int],
    low_odd_chip: Callable[[int], int],
) -> Award:
    """Award one pot among its eligible seats (R9.1, R10.4-R10.6, R11.2-R11.4, R14.1, R14.5).

    ``high``/``low`` give comparable strengths (higher is better; low None = no qualifying
    low); without ``high`` (razz) the whole pot goes to the best low, which every hand has.
    ``*_odd_chip`` rank seats for odd chips (higher first).
    """
    eligible = pot.eligible
    if high is None:  # R14.1, R14.5
        if low is None:
            raise ValueError("a pot needs a high or a low to be played for")
        lows = {seat: low(seat) for seat in eligible}
        best = max([value for value in lows.values() if value is not None])
        winners = tuple([seat for seat in eligible if lows[seat] == best])
        return Award((), winners, split_evenly(pot.amount, winners, low_odd_chip))
    high_values = {seat: high(seat) for seat in eligible}
    best_high = max(high_values.values())
    high_winners = tuple([seat for seat in eligible if high_values[seat] == best_high])
    low_winners: tuple[int, ...] = ()
    if low is not None:
        low_values = {seat: low(seat) for seat in eligible}
        qualified = [value for value in low_values.values() if value is not None]
        if qualified:
            best_low = max(qualified)
            low_winners = tuple([seat for seat in eligible if low_values[seat] == best_low])
    if not low_winners:
        return Award(high_winners, (), split_evenly(pot.amount, high_winners, high_odd_chip))
    if set(high_winners) == set(low_winners):
        # R11.4: the same players tie for both halves: split the whole pot as one.
        return Award(
            high_winners, low_winners, split_evenly(pot.amount, high_winners, high_odd_chip)
        )
    low_half = pot.amount // 2
    high_half = pot.amount - low_half  # R11.2: the odd chip of the split goes high
    shares = split_evenly(high_half, high_winners, high_odd_chip)
    base = high_half // len(high_winners)
    had_odd = frozenset(seat for seat, chips in shares.items() if chips > base)
    for seat, chips in split_evenly(low_half, low_winners, low_odd_chip, had_odd).items():
        shares[seat] = shares.get(seat, 0) + chips
    return Award(high_winners, low_winners, shares)


def high_odd_chip_key(cards: Sequence[Card]) -> int:
    """R11.3 high: the player's highest card, rank first, then ♠ > ♥ > ♦ > ♣ (higher key first).

    A card's code orders rank first, then suit, so the highest code is that card.
    """
    return max(cards)


def low_odd_chip_key(cards: Sequence[Card]) -> int:
    """R11.3 low, R14.5: the player's lowest card, ace lowest, then ♣ first (higher key first)."""
    return -min(ace_low_order(card) for card in cards)

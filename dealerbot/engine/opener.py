"""Who acts first, and where the button goes next.

Implements: R3.1, R3.6 (who brings in), R6.1-R6.4 (the best board acts first),
R12.2 (the community card joins every board on 7th street), R13.1 (the next button).

Functions take plain per-seat lists indexed in clockwise order so the state machine
can call them without building objects; board strength comes from evaluate.py.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .evaluate import board_rank


def clockwise_from(start: int, count: int) -> list[int]:
    """Seat indices clockwise beginning at ``start``."""
    return [(start + offset) % count for offset in range(count)]


def bring_in_index(door_cards: Sequence[Card | None]) -> int:
    """R3.1: the lowest door card brings in; ace high; equal ranks by suit ♣ < ♦ < ♥ < ♠.

    A card's integer code already orders rank first, then suit, so the lowest code wins.
    ``None`` marks a seat not in the hand.
    """
    live = [(card, index) for index, card in enumerate(door_cards) if card is not None]
    if not live:
        raise ValueError("nobody has a door card")
    return min(live)[1]


def best_board_index(
    up_cards: Sequence[Sequence[Card] | None], button: int, community: Card | None = None
) -> int:
    """R6.1-R6.3: the strongest board acts first; ties go to the first clockwise from the button.

    ``up_cards[i]`` is None for a seat that is out of the hand.
    """
    count = len(up_cards)
    best_index = -1
    best_value: tuple[int, ...] = ()
    for index in clockwise_from(button + 1, count):
        cards = up_cards[index]
        if cards is None:
            continue
        shown = [*cards, community] if community is not None else cards
        value = board_rank(shown)
        if best_index < 0 or value > best_value:
            best_index, best_value = index, value
    if best_index < 0:
        raise ValueError("nobody is in the hand")
    return best_index


def next_able(start: int, can_act: Sequence[bool]) -> int | None:
    """R3.6, R6.4: the first seat clockwise from ``start`` (inclusive) that can act."""
    for index in clockwise_from(start, len(can_act)):
        if can_act[index]:
            return index
    return None


def next_button(previous: int | None, dealt_in: Sequence[int]) -> int:
    """R13.1: the next seat clockwise from the last button among the seats dealt in.

    Seats are numbered clockwise; ``previous`` is the last hand's button (None before the
    first hand: the button then goes to the highest seat, so the lowest is dealt first).
    """
    ordered = sorted(dealt_in)
    if not ordered:
        raise ValueError("nobody is dealt in")
    if previous is None:
        return ordered[-1]
    for seat in ordered:
        if seat > previous:
            return seat
    return ordered[0]

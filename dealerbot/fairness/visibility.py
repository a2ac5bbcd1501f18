"""Which deck positions a viewer may have proofs for, from a finished hand's dealing record.

Plain values in, plain values out: the table service describes where each dealt card
went; this decides what a viewer may see. Public: every up card, every hand shown at
showdown, the community card. A player dealt in also sees their own down cards. Never
another player's unshown down card, never an undealt card (those are simply absent
from the record, and revealing them would expose folded hands by elimination).
Only call this once the hand has ended: before that nothing is handed out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from .deal import DECK_SIZE, FairnessError

FIRST_STREET = 3
LAST_STREET = 7


class Face(Enum):
    """How a card was dealt; the value is how proof documents write it."""

    DOWN = "down"
    UP = "up"
    COMMUNITY = "community"


@dataclass(frozen=True, slots=True)
class DealtCard:
    """One dealt deck position: to which seat (None for the community card), street, face."""

    position: int
    seat: int | None
    street: int
    face: Face

    def __post_init__(self) -> None:
        if not 0 <= self.position < DECK_SIZE:
            raise FairnessError(f"no deck position {self.position}")
        if not FIRST_STREET <= self.street <= LAST_STREET:
            raise FairnessError(f"no street {self.street}: streets are 3-7")
        if (self.seat is None) != (self.face is Face.COMMUNITY):
            raise FairnessError("the community card, and only it, belongs to no seat")


@dataclass(frozen=True, slots=True)
class DealingRecord:
    """Every dealt card of a finished hand, and the seats whose hands were shown at showdown."""

    cards: tuple[DealtCard, ...]
    shown_seats: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        seen: set[int] = set()
        for card in self.cards:
            if card.position in seen:
                raise FairnessError(f"deck position {card.position} was dealt twice")
            seen.add(card.position)

    @staticmethod
    def of(cards: Iterable[DealtCard], shown_seats: Iterable[int] = ()) -> DealingRecord:
        return DealingRecord(tuple(cards), frozenset(shown_seats))

    def seats(self) -> frozenset[int]:
        """The seats dealt in."""
        return frozenset(c.seat for c in self.cards if c.seat is not None)


def is_public(card: DealtCard, shown_seats: frozenset[int]) -> bool:
    """Seen by everyone at the table: up, community, or part of a hand shown at showdown."""
    return card.face is not Face.DOWN or card.seat in shown_seats


def visible_cards(record: DealingRecord, viewer_seat: int | None = None) -> tuple[DealtCard, ...]:
    """The dealt cards ``viewer_seat`` may receive proofs for, in deck order.

    ``viewer_seat`` is the seat the viewer held in this hand, or None for anyone not
    dealt in (a seat that was not dealt in gets the public cards only).
    """
    chosen = (
        c
        for c in record.cards
        if is_public(c, record.shown_seats) or (viewer_seat is not None and c.seat == viewer_seat)
    )
    return tuple(sorted(chosen, key=lambda c: c.position))


def visible_positions(record: DealingRecord, viewer_seat: int | None = None) -> tuple[int, ...]:
    return tuple(c.position for c in visible_cards(record, viewer_seat))

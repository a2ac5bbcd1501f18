"""Frozen records: the actions a player takes, the legal options, and the events a hand emits.

Events are what front ends render and what a store appends to a hand log. An event
that carries a face-down card names the one seat allowed to see it (``private_to``);
every other event is public.

Events and actions are immutable named tuples rather than frozen dataclasses: a hand builds
about a hundred of them and a frozen dataclass costs four times as much to build (the engine
benchmark shows it).  :class:`Record` keeps a dataclass's equality: a record equals only a
record of the same class with the same fields (never a plain tuple); ``_fields`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from .cards import Card
from .evaluate import best_high, best_low
from .lowball import best_razz


class ActionKind(Enum):
    """What a player may do; values are the hand-script names (docs/replay.md)."""

    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    BET_BIG = "bet_big"
    RAISE = "raise"
    RAISE_BIG = "raise_big"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"


class Record:
    """Base of the named-tuple records: equal only to the same class with equal fields."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return self.__class__ is other.__class__ and super().__eq__(other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return super().__hash__()


class _ActionFields(NamedTuple):
    seat: int
    kind: ActionKind


class Action(Record, _ActionFields):
    """A player's request: ``seat`` is the seat label, ``kind`` what he does."""

    __slots__ = ()


class LegalAction(NamedTuple):
    """One option for the seat to act: ``amount`` chips go in now, making his round total ``to``.

    A NamedTuple rather than a frozen dataclass: options are built on every action and a
    tuple is immutable at a third of the cost.
    """

    kind: ActionKind
    amount: int
    to: int
    all_in: bool

    @property
    def label(self) -> str:
        """Button text: ``Fold``, ``Check``, ``Call 5``, ``Bet 10``, ``Raise to 20`` ..."""
        return _label(self)


def _label(option: LegalAction) -> str:
    kind = option.kind
    suffix = " (all-in)" if option.all_in else ""
    if kind is ActionKind.FOLD:
        return "Fold"
    if kind is ActionKind.CHECK:
        return "Check"
    if kind is ActionKind.CALL:
        return f"Call {option.amount}{suffix}"
    if kind is ActionKind.BRING_IN:
        return f"Bring in {option.amount}{suffix}"
    if kind is ActionKind.COMPLETE:
        return f"Complete to {option.to}{suffix}"
    if kind is ActionKind.BET:
        return f"Bet {option.to}{suffix}"
    if kind is ActionKind.BET_BIG:
        return f"Bet {option.to} (big){suffix}"
    if kind is ActionKind.RAISE:
        return f"Raise to {option.to}{suffix}"
    return f"Raise to {option.to} (big){suffix}"


@dataclass(frozen=True, slots=True)
class LegalActions:
    """The answer to "what may this seat do now, for how much" (None seat: nobody may act)."""

    seat: int | None
    options: tuple[LegalAction, ...]
    to_call: int = 0

    def find(self, kind: ActionKind) -> LegalAction | None:
        for option in self.options:
            if option.kind is kind:
                return option
        return None

    @property
    def kinds(self) -> frozenset[ActionKind]:
        return frozenset(option.kind for option in self.options)


# --- events ---------------------------------------------------------------


class Event(Record):
    """Base of every hand event; ``private_to`` is the only seat that may see it, or None."""

    __slots__ = ()

    @property
    def private_to(self) -> int | None:
        return None


class _HandStartedFields(NamedTuple):
    variant: str
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int


class HandStarted(Event, _HandStartedFields):
    __slots__ = ()


class _AntePostedFields(NamedTuple):
    seat: int
    amount: int
    all_in: bool


class AntePosted(Event, _AntePostedFields):
    __slots__ = ()


class _StreetStartedFields(NamedTuple):
    street: int


class StreetStarted(Event, _StreetStartedFields):
    __slots__ = ()


class _CardDealtFields(NamedTuple):
    seat: int
    card: Card
    face_up: bool
    street: int
    exposed: bool = False


class CardDealt(Event, _CardDealtFields):
    """A card to one seat; a face-down card is private to its owner until showdown.

    ``exposed``: the hand was already turned up (R8.2), so even a down card is public.
    """

    __slots__ = ()

    @property
    def private_to(self) -> int | None:
        return None if self.face_up or self.exposed else self.seat


class _CommunityCardDealtFields(NamedTuple):
    card: Card


class CommunityCardDealt(Event, _CommunityCardDealtFields):
    """R12.1: too few cards left for everyone; one face-up card plays in every hand."""

    __slots__ = ()


class _ActionTakenFields(NamedTuple):
    seat: int
    kind: ActionKind
    amount: int
    to: int
    all_in: bool
    street: int


class ActionTaken(Event, _ActionTakenFields):
    __slots__ = ()


class _RoundSkippedFields(NamedTuple):
    street: int


class RoundSkipped(Event, _RoundSkippedFields):
    """R6.5: fewer than two players can act; the rest is dealt without betting."""

    __slots__ = ()


class _UncalledReturnedFields(NamedTuple):
    seat: int
    amount: int


class UncalledReturned(Event, _UncalledReturnedFields):
    """R7.5: the part of a bet nobody matched goes back before pots are awarded."""

    __slots__ = ()


class _CardsExposedFields(NamedTuple):
    seat: int
    cards: tuple[Card, ...]


class CardsExposed(Event, _CardsExposedFields):
    """R8.2: betting ended early; a live hand is turned face up before the rest is dealt."""

    __slots__ = ()


class _HandShownFields(NamedTuple):
    seat: int
    cards: tuple[Card, ...]
    community: Card | None
    split_low: bool  # stud/8: the low matters too
    lowball: bool = False  # razz: the pot is played for the ace-to-five low alone (R14.1)


class HandShown(Event, _HandShownFields):
    """A hand shown at showdown (R8.1, R8.3): the player's own cards and, if one was dealt,
    the community card. Names are worked out when asked for, so an engine that nobody
    renders (replays, benchmarks) does not pay for them."""

    __slots__ = ()

    @property
    def playing_cards(self) -> tuple[Card, ...]:
        return self.cards if self.community is None else (*self.cards, self.community)

    @property
    def high(self) -> str:
        """The name of the hand the pot is played for: the high hand, e.g. "Full house, kings
        full of sevens"; in razz the ace-to-five low, e.g. "7-5-4-2-A (Seven low)"."""
        if self.lowball:
            return str(best_razz(self.playing_cards))
        return best_high(self.playing_cards).name

    @property
    def low(self) -> str | None:
        """Stud/8 only: the eight-or-better low ("8-6-4-3-A") or "no low"; None in stud."""
        if not self.split_low:
            return None
        low = best_low(self.playing_cards)
        return low.name if low is not None else "no low"


@dataclass(frozen=True, slots=True)
class PotAwarded(Event):
    """One pot (main first, then side pots) and who won what from it (R7.6, R9-R11).

    A frozen dataclass (one or two per hand): its field ``index`` would hide a tuple's."""

    index: int
    amount: int
    eligible: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (seat, chips) in award order

    @property
    def _fields(self) -> tuple[str, ...]:
        return ("index", "amount", "eligible", "high_winners", "low_winners", "shares")


class _HandCancelledFields(NamedTuple):
    reason: str


class HandCancelled(Event, _HandCancelledFields):
    """R12.3: the hand could not go on; every chip put in goes back."""

    __slots__ = ()


class _HandEndedFields(NamedTuple):
    payouts: tuple[tuple[int, int], ...]
    final_stacks: tuple[tuple[int, int], ...]


class HandEnded(Event, _HandEndedFields):
    __slots__ = ()

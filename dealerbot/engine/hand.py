"""The hand state value: every chip, card and flag of one hand at one moment.

A :class:`HandState` is read by everyone and changed by nobody: state.py's ``apply``
clones it and changes the clone. It implements no rule itself; the transitions in
state.py and the rule owners they call do (see R5.1).
"""

from __future__ import annotations

from dataclasses import dataclass

from .betting import Round
from .cards import Card
from .errors import NotYourTurnError
from .events import LegalAction
from .showdown import HandResult
from .variants import Stakes, Variant, dealt_face_up

_DEALT_UP = dealt_face_up()  # a hand's face-up flags, card by card, as dealt (see R2.2, R2.3)
_ALL_UP = tuple((True,) * count for count in range(len(_DEALT_UP) + 1))  # turned up (see R8.2)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A player dealt in: ``seat`` is any distinct integer label, ``stack`` his chips."""

    seat: int
    stack: int


class HandState:
    """One hand in progress or finished. Read it; change it only through :func:`apply`."""

    __slots__ = (
        "acted",
        "actions_applied",
        "board_keys",
        "bring_in_seat",
        "button",
        "cards",
        "committed",
        "community",
        "deck",
        "deck_pos",
        "exposed",
        "first_actors",
        "folded",
        "labels",
        "options_cache",
        "result",
        "returned",
        "round",
        "seventh_first",
        "stacks",
        "stakes",
        "start_stacks",
        "street",
        "street_bets",
        "to_act",
        "variant",
    )

    variant: Variant
    stakes: Stakes
    labels: tuple[int, ...]
    button: int
    deck: tuple[Card, ...]
    deck_pos: int
    start_stacks: tuple[int, ...]
    stacks: list[int]
    committed: list[int]
    street_bets: list[int]
    cards: list[tuple[Card, ...]]
    board_keys: list[int]  # per seat, his up cards as opener's board key (see R6.1)
    folded: list[bool]
    acted: list[bool]
    exposed: list[bool]
    returned: list[int]
    community: Card | None
    street: int
    to_act: int | None
    round: Round  # the betting round's wager state (betting.py)
    bring_in_seat: int | None
    seventh_first: int | None
    first_actors: dict[int, int]
    result: HandResult | None
    actions_applied: int
    options_cache: tuple[LegalAction, ...] | None  # derived; filled on first query

    # --- read-only conveniences for callers -----------------------------------
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def seat_to_act(self) -> int | None:
        """Label of the seat whose turn it is, or None when nobody is to act."""
        return None if self.to_act is None or self.result else self.labels[self.to_act]

    @property
    def face_up(self) -> list[tuple[bool, ...]]:
        """Per seat, which of his cards (in the order received) lie face up: as the street
        table deals them, or all of them once his hand was turned up (see R2.2, R8.2).

        Worked out from ``cards`` and ``exposed`` when asked for rather than kept: dealing,
        the engine's busiest transition after betting, then tracks one list fewer per card.
        """
        return [
            _ALL_UP[len(held)] if shown else _DEALT_UP[: len(held)]
            for held, shown in zip(self.cards, self.exposed, strict=True)
        ]

    @property
    def seats(self) -> tuple[int, ...]:
        return self.labels

    @property
    def button_seat(self) -> int:
        return self.labels[self.button]

    @property
    def current_bet(self) -> int:
        """What every seat must have put in this round to stay in it."""
        return self.round.current_bet

    @property
    def pot(self) -> int:
        """Every chip put in this hand and not returned, current bets included."""
        return sum(self.committed)

    def index_of(self, seat: int) -> int:
        try:
            return self.labels.index(seat)
        except ValueError:
            raise NotYourTurnError(f"seat {seat} is not in this hand") from None

    def stack_of(self, seat: int) -> int:
        return self.stacks[self.index_of(seat)]

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        return self.cards[self.index_of(seat)]

    def _clone(self) -> HandState:
        """A copy that shares every list with this state: a transition that changes a list
        replaces it with a copy first (copy on write).

        Most actions are a check, call or fold, each of which changes two or three of the
        per-seat lists and none of the cards; copying only what changes saves a fifth of the
        clone (the engine benchmark's hands call it on every action).  The lists written
        are ``acted`` (every action), ``stacks``, ``committed`` and ``street_bets`` (chips
        go in or back), ``folded``, and at street ends ``cards``, ``board_keys``,
        ``exposed``, ``returned`` and ``first_actors``."""
        o = object.__new__(HandState)
        o.acted = self.acted
        o.actions_applied = self.actions_applied
        o.board_keys = self.board_keys
        o.bring_in_seat = self.bring_in_seat
        o.button = self.button
        o.cards = self.cards
        o.committed = self.committed
        o.community = self.community
        o.deck = self.deck
        o.deck_pos = self.deck_pos
        o.exposed = self.exposed
        o.first_actors = self.first_actors
        o.folded = self.folded
        o.labels = self.labels
        o.options_cache = None
        o.result = self.result
        o.returned = self.returned
        o.round = self.round
        o.seventh_first = self.seventh_first
        o.stacks = self.stacks
        o.stakes = self.stakes
        o.start_stacks = self.start_stacks
        o.street = self.street
        o.street_bets = self.street_bets
        o.to_act = self.to_act
        o.variant = self.variant
        return o

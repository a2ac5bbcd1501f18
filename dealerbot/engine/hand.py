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
from .variants import Stakes, Variant


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
        "bring_in_seat",
        "button",
        "cards",
        "committed",
        "community",
        "deck",
        "deck_pos",
        "exposed",
        "face_up",
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
    face_up: list[tuple[bool, ...]]
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
        """A copy whose betting lists can change without touching this state.

        ``cards``, ``face_up``, ``exposed``, ``returned`` and ``first_actors`` change only when
        a street is dealt, hands are turned up, chips are returned or a round opens: the clone
        shares them, and the transition that changes one replaces it with a copy first (most
        actions are a bet, call or check and touch none of them)."""
        o = object.__new__(HandState)
        o.acted = self.acted[:]
        o.actions_applied = self.actions_applied
        o.bring_in_seat = self.bring_in_seat
        o.button = self.button
        o.cards = self.cards
        o.committed = self.committed[:]
        o.community = self.community
        o.deck = self.deck
        o.deck_pos = self.deck_pos
        o.exposed = self.exposed
        o.face_up = self.face_up
        o.first_actors = self.first_actors
        o.folded = self.folded[:]
        o.labels = self.labels
        o.options_cache = None
        o.result = self.result
        o.returned = self.returned
        o.round = self.round
        o.seventh_first = self.seventh_first
        o.stacks = self.stacks[:]
        o.stakes = self.stakes
        o.start_stacks = self.start_stacks
        o.street = self.street
        o.street_bets = self.street_bets[:]
        o.to_act = self.to_act
        o.variant = self.variant
        return o

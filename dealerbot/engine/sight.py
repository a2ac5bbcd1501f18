"""What one seat, or the public, may see of a hand: the engine's sight lines.

Front ends build every message from these views, never from the full state: a
face-down card is visible only to its owner until the hand is exposed (see R8.2) or
shown at showdown (see R8.1, R8.3). A hand won unshown (see R8.4) stays hidden.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .events import LegalActions
from .showdown import HandResult
from .state import HandState, legal_actions
from .variants import Stakes, Variant


@dataclass(frozen=True, slots=True)
class CardView:
    """A dealt card as the viewer sees it: ``card`` is None when it is hidden from him."""

    card: Card | None
    face_up: bool


@dataclass(frozen=True, slots=True)
class SeatSight:
    """One seat as the viewer sees it."""

    seat: int
    stack: int
    bet: int  # chips put in this betting round
    committed: int  # chips put in this hand (antes included)
    folded: bool
    all_in: bool
    cards: tuple[CardView, ...]

    @property
    def up_cards(self) -> tuple[Card, ...]:
        return tuple(v.card for v in self.cards if v.face_up and v.card is not None)


@dataclass(frozen=True, slots=True)
class HandView:
    variant: Variant
    stakes: Stakes
    street: int
    pot: int
    button: int
    seats: tuple[SeatSight, ...]
    community: Card | None
    to_act: int | None
    legal: LegalActions
    viewer: int | None  # the seat this view was made for, None for the public
    result: HandResult | None


def public_view(state: HandState) -> HandView:
    """The table as everyone may see it: no face-down card before it is shown."""
    return _view(state, None)


def player_view(state: HandState, seat: int) -> HandView:
    """The table as ``seat`` sees it: the public view plus his own face-down cards."""
    state.index_of(seat)
    return _view(state, seat)


def _view(state: HandState, viewer: int | None) -> HandView:
    shown = set(state.result.showdown_order) if state.result is not None else set()
    seats = []
    face_up = state.face_up
    for i, label in enumerate(state.labels):
        reveal = label == viewer or label in shown
        cards = tuple(
            CardView(card if (up or reveal) else None, up)
            for card, up in zip(state.cards[i], face_up[i], strict=True)
        )
        seats.append(
            SeatSight(
                seat=label,
                stack=state.stacks[i],
                bet=state.street_bets[i],
                committed=state.committed[i],
                folded=state.folded[i],
                all_in=state.stacks[i] == 0 and not state.folded[i],
                cards=cards,
            )
        )
    return HandView(
        variant=state.variant,
        stakes=state.stakes,
        street=state.street,
        pot=state.pot,
        button=state.button_seat,
        seats=tuple(seats),
        community=state.community,
        to_act=state.seat_to_act,
        legal=legal_actions(state),
        viewer=viewer,
        result=state.result,
    )

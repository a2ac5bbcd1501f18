"""What one house seat may know when it is to act: its own sight of the hand and the public
actions so far.

The strategy reads a :class:`Situation` and nothing else. It is built from the engine's sight
line for that seat (``player_view(state, seat)``) and the hand's events filtered to the public
actions; it refuses a public view, another seat's view, a view that shows any other seat's
face-down card and a view of a seat that is not to act. It never holds a ``HandState`` or the
deck, so no caller can hand the house what its seat may not see.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from dealerbot.engine import Card, CardView, Event, HandView, SeatSight
from dealerbot.engine.events import ActionTaken

__all__ = ["Situation", "SituationError"]


class SituationError(ValueError):
    """A view or action list the house may not decide from; nothing was built."""


_BUILT = object()  # only from_view passes it: Situation(...) called directly is refused


@dataclass(frozen=True, slots=True)
class Situation:
    """One seat's decision point: its view (its own cards, every up card, the pot, the legal
    options) and the public actions of the hand so far, oldest first."""

    view: HandView
    actions: tuple[ActionTaken, ...]
    _built: object = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self._built is not _BUILT:
            raise SituationError(
                "build a Situation with Situation.from_view(player_view(state, seat), seat, events)"
            )
        _check_view(self.view)
        _check_actions(self.view, self.actions)

    @classmethod
    def from_view(cls, view: HandView, seat: int, events: Iterable[Event] = ()) -> Situation:
        """The situation of ``seat``, which is to act, from its own view and the hand's events
        (any events: only the public actions, :class:`ActionTaken`, are kept)."""
        if not isinstance(view, HandView):
            raise SituationError(
                f"the house decides from a seat's HandView (player_view), not {type(view).__name__}"
            )
        if view.viewer is None:
            raise SituationError(
                "a public view shows no seat's own cards: build it with player_view(state, seat)"
            )
        if view.viewer != seat:
            raise SituationError(f"this view was made for seat {view.viewer}, not seat {seat}")
        kept: list[ActionTaken] = []
        for event in events:
            if not isinstance(event, Event):
                raise SituationError(f"events are the engine's hand events, not {event!r}")
            if isinstance(event, ActionTaken):
                kept.append(event)
        return cls(view, tuple(kept), _BUILT)

    # --- what the seat sees ---------------------------------------------------------------
    @property
    def seat(self) -> int:
        assert self.view.viewer is not None  # checked when built
        return self.view.viewer

    @property
    def me(self) -> SeatSight:
        return next(s for s in self.view.seats if s.seat == self.seat)

    @property
    def my_cards(self) -> tuple[Card, ...]:
        """The seat's own cards, down and up, in the order dealt."""
        return tuple(v.card for v in self.me.cards if v.card is not None)

    @property
    def opponents(self) -> tuple[SeatSight, ...]:
        """The other seats still in the hand, in seat order."""
        return tuple(s for s in self.view.seats if s.seat != self.seat and not s.folded)

    def street_actions(self) -> tuple[ActionTaken, ...]:
        """The public actions of the current betting round."""
        return tuple(a for a in self.actions if a.street == self.view.street)


def _check_view(view: HandView) -> None:
    viewer = view.viewer
    if viewer is None:
        raise SituationError("a public view shows no seat's own cards")
    if view.legal.seat is None:
        raise SituationError("nobody is to act: the hand is over")
    if view.legal.seat != viewer:
        raise SituationError(f"seat {view.legal.seat} is to act, not seat {viewer}")
    for sight in view.seats:
        if sight.seat == viewer:
            if any(v.card is None for v in sight.cards):
                raise SituationError(f"the view hides seat {viewer}'s own cards")
        elif any(_hidden_but_shown(v) for v in sight.cards):
            raise SituationError(
                f"the view shows seat {sight.seat}'s face-down card: build it with player_view"
            )


def _hidden_but_shown(card: CardView) -> bool:
    return not card.face_up and card.card is not None


def _check_actions(view: HandView, actions: tuple[ActionTaken, ...]) -> None:
    seats = {s.seat for s in view.seats}
    for action in actions:
        if not isinstance(action, ActionTaken):
            raise SituationError(f"actions are the engine's ActionTaken events, not {action!r}")
        if action.seat not in seats:
            raise SituationError(f"an action names seat {action.seat}, which is not in this hand")
        if action.street > view.street:
            raise SituationError(
                f"an action on street {action.street} is ahead of the hand (street {view.street})"
            )

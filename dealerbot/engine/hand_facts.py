"""What a finished hand says about each player's play, for player statistics.

The table service records one row per player and hand from these facts; nobody above the
engine works out who entered the pot or what a shown hand is worth. Most facts come from
the final :class:`~dealerbot.engine.hand.HandState`; the 3rd-street choices are gone from
the state once 4th street is dealt, so a caller folds each batch of events into a
:class:`PlayNotes` value as the hand goes (:func:`note_events`) and hands it to
:func:`seat_facts` at the end.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card
from .evaluate import best_high, high_rank
from .events import ActionKind, ActionTaken, Event
from .hand import HandState
from .lowball import best_razz, razz_rank
from .variants import Variant

THIRD_STREET = 3
SEVENTH_STREET = 7
# Chips a player chose to put in; the bring-in is forced (R3.6) and antes come before any action.
_VOLUNTARY = frozenset(
    {ActionKind.CALL, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE, ActionKind.RAISE_BIG}
)
_AGGRESSIVE = frozenset({ActionKind.COMPLETE, ActionKind.RAISE, ActionKind.RAISE_BIG})


@dataclass(frozen=True, slots=True)
class PlayNotes:
    """Seats (labels) that put chips in by choice on 3rd street, those that completed or
    raised there, and those that folded on 7th street (after a community card, R12.1, was
    dealt to them: the final state no longer tells them from a 6th-street fold)."""

    entered_third: frozenset[int] = frozenset()
    raised_third: frozenset[int] = frozenset()
    folded_seventh: frozenset[int] = frozenset()


def note_events(notes: PlayNotes, events: Iterable[Event]) -> PlayNotes:
    """``notes`` updated with a batch of events (start of the hand or one action's)."""
    entered, raised, seventh = notes.entered_third, notes.raised_third, notes.folded_seventh
    for event in events:
        if not isinstance(event, ActionTaken):
            continue
        if event.street == SEVENTH_STREET and event.kind is ActionKind.FOLD:
            seventh = seventh | {event.seat}
        if event.street != THIRD_STREET:
            continue
        if event.kind in _VOLUNTARY and event.amount > 0:
            entered = entered | {event.seat}
        if event.kind in _AGGRESSIVE:
            raised = raised | {event.seat}
    if (entered, raised, seventh) == (
        notes.entered_third,
        notes.raised_third,
        notes.folded_seventh,
    ):
        return notes
    return PlayNotes(entered, raised, seventh)


class SeatFacts(NamedTuple):
    """One player's hand, as statistics count it.

    ``put_in`` is every chip he put in that was not returned uncalled (antes included);
    ``won`` what he collected from pots; ``last_street`` the last street he was dealt
    (3 to 7; the community card counts as 7th street). ``shown_rank`` orders shown hands of
    one variant family (higher is better; razz ranks are lows, stud and stud/8 ranks are
    high hands); ``shown_cards`` are the cards it played (the community card included), which
    :func:`shown_hand_name` names as the showdown did. Naming waits until a hand is shown to
    someone: it costs ten times the rank, and settlement should not pay it for every seat.
    A NamedTuple, like LegalAction: settlement builds one per seat while it holds the database.
    """

    seat: int
    put_in: int
    won: int
    net: int
    last_street: int
    entered_third: bool
    raised_third: bool
    showdown: bool
    won_showdown: bool
    shown_rank: int | None
    shown_cards: tuple[Card, ...] | None


def shown_hand_name(variant: Variant, cards: Sequence[Card]) -> str:
    """The name of a shown hand, as the showdown says it (razz: the low, "7-5-4-2-A (Seven
    low)"; otherwise the high hand, "Full house, kings full of sevens")."""
    if variant.rules.lowball:
        return str(best_razz(cards))
    return best_high(cards).name


def seat_facts(state: HandState, notes: PlayNotes) -> tuple[SeatFacts, ...]:
    """Each dealt-in seat's facts for a finished hand (none for a cancelled one)."""
    result = state.result
    if result is None:
        raise ValueError("the hand is not over")
    if result.cancelled:
        return ()
    shown = frozenset(result.showdown_order)
    lowball = state.variant.rules.lowball
    facts: list[SeatFacts] = []
    for i, seat in enumerate(state.labels):
        won = result.payouts.get(seat, 0)
        net = result.final_stacks[seat] - state.start_stacks[i]
        cards = state.cards[i]
        saw_community = not state.folded[i] or seat in notes.folded_seventh
        playing = cards
        if state.community is not None and saw_community:
            playing = (*cards, state.community)
        rank: int | None = None
        if seat in shown and len(playing) >= 5:
            rank = razz_rank(playing) if lowball else high_rank(playing)
        facts.append(
            SeatFacts(
                seat=seat,
                put_in=won - net,
                won=won,
                net=net,
                last_street=min(len(playing), 7),
                entered_third=seat in notes.entered_third,
                raised_third=seat in notes.raised_third,
                showdown=seat in shown,
                won_showdown=seat in shown and won > 0,
                shown_rank=rank,
                shown_cards=None if rank is None else playing,
            )
        )
    return tuple(facts)

"""An independent recount of each player's hand facts from the engine's event stream.

It reads only events (what a hand-history reader would see), never the final state, so
it checks :func:`dealerbot.engine.seat_facts` rather than restating it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dealerbot.engine import ActionKind, best_high
from dealerbot.engine import events as ev
from dealerbot.engine.lowball import best_razz


@dataclass
class Counted:
    seat: int
    put_in: int = 0
    won: int = 0
    last_street: int = 0
    folded: bool = False
    entered_third: bool = False
    raised_third: bool = False
    showdown: bool = False
    won_showdown: bool = False
    shown_rank: int | None = None
    shown_name: str | None = None
    shown_cards: tuple | None = None

    @property
    def net(self) -> int:
        return self.won - self.put_in


def recount(events: Iterable[ev.Event]) -> dict[int, Counted]:
    """Seat label -> facts, from a whole hand's events (empty for a cancelled hand)."""
    seats: dict[int, Counted] = {}
    showdown = False
    for event in events:
        if isinstance(event, ev.HandStarted):
            seats = {s: Counted(s) for s in event.seats}
        elif isinstance(event, ev.AntePosted):
            seats[event.seat].put_in += event.amount
        elif isinstance(event, ev.CardDealt):
            seats[event.seat].last_street = event.street
        elif isinstance(event, ev.CommunityCardDealt):
            for counted in seats.values():
                if not counted.folded:
                    counted.last_street = 7
        elif isinstance(event, ev.ActionTaken):
            counted = seats[event.seat]
            counted.put_in += event.amount
            if event.kind is ActionKind.FOLD:
                counted.folded = True
            if event.street == 3 and event.kind not in (ActionKind.BRING_IN, ActionKind.CHECK):
                if event.kind is not ActionKind.FOLD:
                    counted.entered_third = True
                if event.kind in (ActionKind.COMPLETE, ActionKind.RAISE):
                    counted.raised_third = True
        elif isinstance(event, ev.UncalledReturned):
            seats[event.seat].put_in -= event.amount
        elif isinstance(event, ev.HandShown):
            showdown = True
            counted = seats[event.seat]
            counted.showdown = True
            counted.shown_cards = event.playing_cards
            if event.lowball:
                low = best_razz(event.playing_cards)
                counted.shown_rank, counted.shown_name = low.rank, str(low)
            else:
                high = best_high(event.playing_cards)
                counted.shown_rank, counted.shown_name = high.rank, high.name
            assert counted.shown_name == event.high
        elif isinstance(event, ev.PotAwarded):
            for seat, chips in event.shares:
                seats[seat].won += chips
                if showdown and chips:
                    seats[seat].won_showdown = True
        elif isinstance(event, ev.HandCancelled):
            return {}
    return seats

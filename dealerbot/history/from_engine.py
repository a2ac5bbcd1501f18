"""A hand as dealerbot played it, replayed through the engine into a history :class:`Hand`.

The hand log keeps only what the engine needs to play a hand again: the seats and their
stacks before the ante, the button, the deck in dealing order and the actions in order.
Everything a history shows (antes, cards dealt, every wager's amount, uncalled bets, the
showdown, pots and winners) is what the engine says when it plays those again, so the
history cannot disagree with the hand the players saw. The result is the full record (every
down card); ``model.view_of`` cuts it down to what one viewer may see.

Pure: no clock, no database; the table service fills a :class:`PlayedHand` from its rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from dealerbot.engine import (
    Action as EngineAction,
)
from dealerbot.engine import (
    ActionKind,
    Card,
    Event,
    HandState,
    SeatSpec,
    Variant,
    apply,
    events,
    legal_actions,
    start_hand,
)
from dealerbot.engine import (
    Stakes as EngineStakes,
)

from .model import (
    Action,
    Ante,
    Collection,
    Game,
    Hand,
    HoleCards,
    Move,
    Returned,
    Seat,
    Stakes,
    Street,
)
from .pokerstars_writer import pokerstars_time

__all__ = ["PlayedAction", "PlayedHand", "PlayedSeat", "history_of", "net_results", "player_names"]

GAMES = {Variant.STUD: Game.STUD, Variant.STUD8: Game.STUD8, Variant.RAZZ: Game.RAZZ}
WAGERS = frozenset(
    {
        ActionKind.COMPLETE,
        ActionKind.BET,
        ActionKind.BET_BIG,
        ActionKind.RAISE,
        ActionKind.RAISE_BIG,
    }
)
BIG_OPTIONS = frozenset({ActionKind.BET_BIG, ActionKind.RAISE_BIG})
MOVES = {
    ActionKind.BRING_IN: Move.BRING_IN,
    ActionKind.CALL: Move.CALL,
    ActionKind.CHECK: Move.CHECK,
    ActionKind.FOLD: Move.FOLD,
}
LINE_BREAKS = "\r\n\x85\u2028\u2029"


@dataclass(frozen=True, slots=True)
class PlayedSeat:
    """A player dealt in: the table's seat number (from 0, as the engine labels it), who
    sat there, and the chips in front of them before the ante."""

    seat: int
    user_id: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class PlayedAction:
    """One logged action. ``auto`` says why the dealer took it for the player (the service's
    reason, e.g. ``"timeout"``), None when the player chose it. Histories write the action
    itself either way: the model has no line for a timeout."""

    seat: int
    kind: ActionKind
    auto: str | None = None


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """What the hand log keeps of a finished hand; ``number`` is the hand id players see
    (stable and unique per server), ``table`` the name a history prints (e.g. the channel),
    ``deck`` all 52 cards in dealing order, ``seats`` clockwise from the button's left or in
    seat order (the engine deals from the button's left either way)."""

    number: int
    table: str
    started: datetime
    variant: Variant
    stakes: EngineStakes
    button: int
    seats: tuple[PlayedSeat, ...]
    deck: tuple[Card, ...]
    actions: tuple[PlayedAction, ...]
    max_seats: int | None = None


def player_names(played: PlayedHand) -> dict[int, str]:
    """Each player's name in the history, by user id: the display name, made one line and
    unique within the hand (a repeated name gets its seat, as the table shows it, appended),
    because a history names players by name alone, and a viewer's file shows the down cards
    of every player under his name.

    A name that already ends like such a suffix ("Bob (2)") gets its own seat appended too:
    kept as it is, it could be the name given to another player called Bob in seat 2.
    Every changed name then ends with its own seat, so no two names can be equal.
    """
    cleaned = {
        seat.user_id: " ".join(
            "".join(" " if char in LINE_BREAKS else char for char in seat.name).split()
        )
        or f"Seat {seat.seat + 1}"
        for seat in played.seats
    }
    counts: dict[str, int] = {}
    for name in cleaned.values():
        counts[name] = counts.get(name, 0) + 1
    seat_of = {seat.user_id: seat.seat for seat in played.seats}
    return {
        user: name
        if counts[name] == 1 and not _SEAT_SUFFIX.search(name)
        else f"{name} ({seat_of[user] + 1})"
        for user, name in cleaned.items()
    }


_SEAT_SUFFIX = re.compile(r" \(\d+\)$")


def history_of(played: PlayedHand) -> Hand:
    """The full history of ``played`` (every card, as an operator's audit sees it).

    Raises an engine error if the log does not replay (an illegal action), and ValueError
    if the log ends before the hand does or goes on after it, the hand was cancelled, or the
    start time has no time zone (the history's time is UTC; the machine's zone must not count).
    """
    if played.started.tzinfo is None:
        raise ValueError(f"hand #{played.number}: the start time needs a time zone")
    return _Recorder(played).record()


def net_results(hand: Hand) -> dict[str, int]:
    """Each player's net for the hand (chips after it less chips before), by name."""
    after = hand.final_stacks()
    return {seat.name: after[seat.name] - seat.stack for seat in hand.seats}


class _Recorder:
    """Plays the logged hand and turns each engine event into the model's records."""

    def __init__(self, played: PlayedHand) -> None:
        self.played = played
        names = player_names(played)
        self.name = {seat.seat: names[seat.user_id] for seat in played.seats}
        self.antes: list[Ante] = []
        self.actions: list[Action] = []
        self.cards: dict[int, list[str]] = {seat.seat: [] for seat in played.seats}
        self.community: str | None = None
        self.returned: list[Returned] = []
        self.showed: list[str] = []
        self.collected: list[Collection] = []
        self.pots: list[int] = []
        self.no_low = True
        self.showdown = False
        self.double_bet = False
        self.ended: events.HandEnded | None = None
        self.street = Street.THIRD
        self.street_total: dict[int, int] = {}

    def record(self) -> Hand:
        played = self.played
        specs = [SeatSpec(seat.seat, seat.stack) for seat in sorted(played.seats, key=_seat_no)]
        state, emitted = start_hand(
            played.variant, played.stakes, specs, played.deck, played.button
        )
        self.take(emitted)
        for number, logged in enumerate(played.actions):
            if self.ended is not None:
                raise ValueError(f"hand #{played.number}: action {number} comes after the end")
            self.note_options(state)
            state, emitted = apply(state, EngineAction(logged.seat, logged.kind))
            self.take(emitted)
        if self.ended is None:
            raise ValueError(f"hand #{played.number}: the log ends before the hand does")
        return self.hand()

    def note_options(self, state: HandState) -> None:
        """R4.4: the open pair shows in the options the engine offers on 4th street."""
        if self.street is Street.FOURTH and BIG_OPTIONS & legal_actions(state).kinds:
            self.double_bet = True

    def take(self, emitted: tuple[Event, ...]) -> None:
        for event in emitted:
            match event:
                case events.AntePosted(seat=seat, amount=amount, all_in=all_in):
                    self.antes.append(Ante(self.name[seat], amount, all_in))
                case events.StreetStarted(street=street):
                    self.street = Street(street)
                    self.street_total = {}
                case events.CardDealt(seat=seat, card=card):
                    self.cards[seat].append(str(card))
                case events.CommunityCardDealt(card=card):
                    self.community = str(card)
                case events.ActionTaken():
                    self.action(event)
                case events.UncalledReturned(seat=seat, amount=amount):
                    self.returned.append(Returned(self.name[seat], amount))
                case events.HandShown(seat=seat):
                    self.showdown = True
                    self.showed.append(self.name[seat])
                case events.PotAwarded():
                    self.award(event)
                case events.HandCancelled(reason=reason):
                    raise ValueError(f"hand #{self.played.number} was cancelled: {reason}")
                case events.HandEnded():
                    self.ended = event

    def action(self, event: events.ActionTaken) -> None:
        """A wager is written as the site writes it: a bet into an empty street, otherwise a
        raise by the increment over the street's bet (a completion over a bring-in too)."""
        before = self.street_total.get(event.seat, 0)
        level = max(self.street_total.values(), default=0)
        total = before + event.amount
        raised_by: int | None = None
        if event.kind in WAGERS:
            move = Move.BET if level == 0 else Move.RAISE
            if move is Move.RAISE:
                raised_by = total - level
        else:
            move = MOVES[event.kind]
        self.street_total[event.seat] = total
        name = self.name[event.seat]
        street = Street(event.street)
        self.actions.append(
            Action(street, name, move, event.amount, total, event.all_in, raised_by)
        )

    def award(self, event: events.PotAwarded) -> None:
        self.pots.append(event.amount)
        if event.low_winners:
            self.no_low = False
        for seat, chips in event.shares:
            if chips:
                self.collected.append(Collection(self.name[seat], chips, event.index))

    def hand(self) -> Hand:
        played = self.played
        seats = sorted(played.seats, key=_seat_no)
        hand = Hand(
            hand_id=played.number,
            game=GAMES[played.variant],
            stakes=Stakes(
                small_bet=played.stakes.small_bet,
                big_bet=played.stakes.big_bet,
                ante=played.stakes.ante,
                bring_in=played.stakes.bring_in,
            ),
            seats=tuple(Seat(seat.seat + 1, self.name[seat.seat], seat.stack) for seat in seats),
            antes=tuple(self.antes),
            actions=tuple(self.actions),
            hole_cards=tuple(
                HoleCards(self.name[seat.seat], tuple(self.cards[seat.seat])) for seat in seats
            ),
            total_pot=sum(self.pots),
            rake=0,
            collected=tuple(self.collected),
            returned=tuple(self.returned),
            pots=tuple(self.pots) if len(self.pots) > 1 else (),
            community=self.community,
            double_bet_allowed=self.double_bet,
            no_low_hand=self.showdown and played.variant.rules.split_low and self.no_low,
            table=played.table,
            max_seats=played.max_seats,
            started=pokerstars_time(played.started),
            showed=tuple(self.showed),
        )
        assert self.ended is not None
        engine = {self.name[seat]: chips for seat, chips in self.ended.final_stacks}
        if hand.final_stacks() != engine:  # the record must account for every chip
            raise AssertionError(f"hand #{played.number}: {hand.final_stacks()} != {engine}")
        return hand


def _seat_no(seat: PlayedSeat) -> int:
    return seat.seat

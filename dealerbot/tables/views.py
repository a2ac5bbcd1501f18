"""The views: what front ends may show of a table, as values (built by :mod:`.projection`).

:class:`TableView` is the public table: built only from public fields of the engine state
(up cards by their ``face_up`` flags, stacks, bets, folded flags) and from the seats, so a
face-down card never enters it. :class:`PlayerView` adds one player's own cards and options.
A view also answers what a front end would otherwise work out for itself: who is ready to
be dealt in (:func:`dealt_in_next`, the rule :func:`.seating.eligible` deals by) and how many
players a hand needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealerbot.engine import MIN_PLAYERS, ActionKind, Card, LegalAction, Variant


def dealt_in_next(*, sitting_out: bool, leaving: bool, stack: int) -> bool:
    """Whether a seat is dealt into a hand starting now: not sitting out, not leaving, and
    with chips (the one rule; the table deals by it and views count by it)."""
    return not sitting_out and not leaving and stack > 0


class TablePhase(StrEnum):
    """Where a table is in its life, as front ends show it."""

    WAITING = "waiting"  # open, no hand being played
    PLAYING = "playing"
    CLOSING = "closing"  # the hand being played is the last one
    CLOSED = "closed"


class DeckStyle(StrEnum):
    """How cards are drawn: picture cards in two colours or four, or text (``A♠``).

    A table's ``deck`` setting is for its public message; a player's own choice is for
    what he sees in private (DMs, his answers). The front end maps a style to its art."""

    CLASSIC = "classic"
    FOUR_COLOUR = "four-colour"
    TEXT = "text"

    @property
    def words(self) -> str:
        """What the style shows, for a choice list and a confirmation."""
        return DECK_WORDS[self]


DECK_WORDS = {
    DeckStyle.CLASSIC: "picture cards, red hearts and diamonds, black spades and clubs",
    DeckStyle.FOUR_COLOUR: "picture cards, clubs green and diamonds blue",
    DeckStyle.TEXT: "text cards such as A♠ 10♦",
}
DEFAULT_DECK = DeckStyle.CLASSIC
"""What a table and a player who chose nothing see."""


@dataclass(frozen=True, slots=True)
class StakesView:
    variant: Variant
    title: str  # "Seven Card Stud" ...
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    min_buy_in: int
    max_buy_in: int
    seats: int
    turn_seconds: float
    delay_seconds: float


@dataclass(frozen=True, slots=True)
class OptionView:
    """One button: ``kind`` to send back, ``label`` to show, chips it costs and the round total."""

    kind: ActionKind
    label: str
    amount: int
    to: int
    all_in: bool

    @staticmethod
    def of(option: LegalAction) -> OptionView:
        return OptionView(option.kind, option.label, option.amount, option.to, option.all_in)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One occupied seat. ``cards`` holds the up cards and None for each face-down card."""

    seat: int
    user_id: int
    name: str
    stack: int  # chips behind, as of now (in a hand: after what he has put in)
    cards: tuple[Card | None, ...]
    bet: int  # chips put in on the current street
    in_hand: bool
    folded: bool
    all_in: bool
    sitting_out: bool
    leaving: bool
    button: bool
    to_act: bool
    queued: int = 0  # chips he added during the hand: they join his stack before the next deal
    is_house: bool = False  # a house player (issue 20): front ends mark it, DM nobody

    @property
    def up_cards(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card is not None)

    @property
    def ready(self) -> bool:
        """Dealt into the next hand as the seat stands now (:func:`dealt_in_next`)."""
        return dealt_in_next(sitting_out=self.sitting_out, leaving=self.leaving, stack=self.stack)


@dataclass(frozen=True, slots=True)
class PotView:
    """A pot while someone is all-in, as PokerStars shows it: its chips and who may win it
    (seat numbers, the SeatView ``seat``). The first is the main pot."""

    amount: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChoiceView:
    """A dealer's choice waiting for the button player."""

    user_id: int
    name: str
    seat: int
    options: tuple[Variant, ...]
    deadline: float
    pick_id: int = 0  # which of the table's picks this is (a button carries it)


@dataclass(frozen=True, slots=True)
class GamesView:
    """What the table shows of a mixed game: the game, hand k of n, what comes next."""

    mode: str  # "mix" or "choice"
    games: tuple[Variant, ...]
    game: Variant  # in play, or to be dealt next
    hand: int  # hands dealt in this stint (0: none yet)
    of: int
    then: Variant | None  # mix: the next game; None for dealer's choice
    choice: ChoiceView | None  # a pick is waiting
    note: str | None  # the last pick: "alice chose Razz" / time ran out
    next_game: Variant | None = None  # the game of the next hand, unless a pick changes it


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything anyone at the table may see."""

    guild_id: int
    channel_id: int
    table_id: int
    stakes: StakesView
    seats: tuple[SeatView, ...]
    status: TablePhase
    hand_id: int | None
    hand_number: int | None
    commitment: str | None
    street: int | None
    pot: int
    community: Card | None
    to_act_seat: int | None
    to_act_user: int | None
    deadline: float | None
    seq: int | None  # the action number the player to act is offered
    next_hand_at: float | None
    last_actions: tuple[str, ...]
    games: GamesView | None = None  # mixed games: the rotation or dealer's choice
    deck: DeckStyle = DEFAULT_DECK  # how the table's own message draws cards (its setting)
    tournament: TournamentView | None = None  # a Sit & Go's table: its level, its players
    # While a player in the hand is all-in: the main pot then each side pot, of the chips
    # gathered at the end of the streets so far (bets of this street join at its end, as
    # PokerStars shows them); empty while there is one pot.
    pots: tuple[PotView, ...] = ()

    def seat_of(self, user_id: int) -> SeatView | None:
        for seat in self.seats:
            if seat.user_id == user_id:
                return seat
        return None

    @property
    def ready_players(self) -> int:
        """Seats a hand starting now would deal in."""
        return sum(1 for seat in self.seats if seat.ready)

    @property
    def players_needed(self) -> int:
        """Players a hand needs (R1.1: two at least)."""
        return MIN_PLAYERS


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One player's view: the public table plus his own cards and, on his turn, his options."""

    table: TableView
    user_id: int
    seat: int
    stack: int
    cards: tuple[Card, ...]  # all his cards in dealing order, down cards included
    face_up: tuple[bool, ...]
    options: tuple[OptionView, ...]  # empty unless it is his turn
    hand_id: int | None
    seq: int | None
    time_bank: float

    @property
    def down_cards(self) -> tuple[Card, ...]:
        return tuple(c for c, up in zip(self.cards, self.face_up, strict=True) if not up)


# --- Sit & Go tournaments ---------------------------------------------------------------------


class TournamentPhase(StrEnum):
    """Where a Sit & Go is in its life."""

    REGISTERING = "registering"
    RUNNING = "running"
    PAUSED = "paused"  # by the host, between hands: the level clock stands still
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class LevelView:
    """One level of the ladder: its limits, ante, bring-in and (a mix) its game."""

    number: int
    game: Variant
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int


@dataclass(frozen=True, slots=True)
class EntryView:
    """One player of a Sit & Go: his seat and chips while he plays, his place once out, and
    what the pool paid him (a prize, or a refund: his buy-in back, or a cancelled
    tournament's share)."""

    user_id: int
    name: str
    seat: int | None
    stack: int
    status: str  # registered, playing, busted, forfeited (the winner: playing, place 1)
    place: int | None
    shares: tuple[int, ...]  # the places his tie group shares (his own alone if none)
    prize: int
    refund: int
    sitting_out: bool


@dataclass(frozen=True, slots=True)
class TournamentView:
    """What anyone may see of a Sit & Go: its options, its ladder, who plays, the level and
    its clock, the prizes, and a line saying what happens now."""

    tournament_id: int
    guild_id: int
    channel_id: int
    phase: TournamentPhase
    game: str  # stud, stud8, razz, or mix
    games: tuple[Variant, ...]  # a mix: one game a level, in this order
    structure: str  # turbo, regular, deep
    buy_in: int
    starting_chips: int
    level_minutes: int
    seats: int
    turn_seconds: int
    entries: tuple[EntryView, ...]  # the players left by stack, then the others by place
    ladder: tuple[LevelView, ...]  # the first levels (every structure starts at level 1)
    level: LevelView | None  # the level the next deal plays (from the start)
    level_line: str | None  # "Level 4 · 50/100 · ante 10 · bring-in 15 · next level in 3:12"
    seconds_left: float | None  # of the level's running time
    level_ends_at: float | None  # when the level ends, while the clock runs
    paused: bool
    players_left: int
    average_stack: int | None
    pool: int  # in the pool now
    prizes: tuple[int, ...]  # what each paid place pays (projected while registering)
    now: str  # what happens now, in words
    created_at: float
    started_at: float | None
    ended_at: float | None
    note: str = ""  # why it was cancelled

    def entry_of(self, user_id: int) -> EntryView | None:
        return next((e for e in self.entries if e.user_id == user_id), None)

"""Events the table service sends to front ends (the Discord bot, tests).

Every event names its table (guild and channel); a table's :class:`Outbox` holds them
while its lock is held and delivers them, in order, after. ``private_to`` is the one user
allowed to see it, or None for the whole table. Public events are built only from
engine events whose ``private_to`` is None and from the public view, so no public
event carries a face-down card before it is exposed or shown.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from enum import StrEnum

from dealerbot.engine import ActionKind, Card, Variant

from .views import OptionView, TableView


class AutoReason(StrEnum):
    """Why the service acted for a player (an ``ActionTaken.auto``)."""

    TIMEOUT = "timeout"  # his time (and time bank) ran out
    LEAVING = "leaving"  # he asked to leave during the hand
    AWAY = "away"  # sat out after too many timeouts in a row


class SitOutReason(StrEnum):
    """Why a player is now sitting out (a ``PlayerSatOut.reason``)."""

    ASKED = "asked"
    TIMEOUTS = "timeouts"  # timed out too many turns in a row


@dataclass(frozen=True, slots=True)
class TableEvent:
    guild_id: int
    channel_id: int

    @property
    def private_to(self) -> int | None:
        return None


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    seat: int
    user_id: int
    name: str
    stack: int


@dataclass(frozen=True, slots=True)
class TableChanged(TableEvent):
    """The public view after anything changed: re-render the table message from it.
    ``actions``: every action of the hand in play (or of the last one, until the next deal),
    in order, as the ActionTaken events told them, those before a restart included."""

    view: TableView
    actions: tuple[ActionTaken, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerJoined(TableEvent):
    user_id: int
    name: str
    seat: int
    buy_in: int


@dataclass(frozen=True, slots=True)
class PlayerLeft(TableEvent):
    """A player left the table; ``cashed_out`` chips went back to his wallet."""

    user_id: int
    name: str
    seat: int
    cashed_out: int


@dataclass(frozen=True, slots=True)
class PlayerSatOut(TableEvent):
    user_id: int
    name: str
    seat: int
    reason: SitOutReason


@dataclass(frozen=True, slots=True)
class PlayerSatIn(TableEvent):
    user_id: int
    name: str
    seat: int


@dataclass(frozen=True, slots=True)
class HandStarted(TableEvent):
    """A new hand: its number at this table, the deck commitment (SHA-256) and the game."""

    hand_id: int
    number: int
    commitment: str
    button_seat: int
    players: tuple[SeatedPlayer, ...]
    variant: Variant = Variant.STUD


@dataclass(frozen=True, slots=True)
class AntePosted(TableEvent):
    hand_id: int
    seat: int
    user_id: int
    amount: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class StreetDealt(TableEvent):
    """A street was dealt: the up cards only (a 7th-street card is down: no cards here)."""

    hand_id: int
    street: int
    up_cards: tuple[tuple[int, Card], ...]  # (seat, card) in dealing order
    community: Card | None


@dataclass(frozen=True, slots=True)
class ActionTaken(TableEvent):
    """``auto`` says why the service acted for the player (None: he acted himself)."""

    hand_id: int
    seq: int  # this action's number in the hand (0 is the first)
    seat: int
    user_id: int
    name: str
    kind: ActionKind
    amount: int
    to: int
    all_in: bool
    street: int
    text: str
    auto: AutoReason | None


@dataclass(frozen=True, slots=True)
class Turn(TableEvent):
    """Whose turn it is: show ``options`` as buttons carrying ``hand_id`` and ``seq``."""

    hand_id: int
    seq: int
    seat: int
    user_id: int
    name: str
    options: tuple[OptionView, ...]
    to_call: int
    deadline: float
    time_bank: float
    street: int


@dataclass(frozen=True, slots=True)
class TimeBankStarted(TableEvent):
    """The turn time ran out and the player's time bank is now running (same seq)."""

    hand_id: int
    seq: int
    seat: int
    user_id: int
    deadline: float


@dataclass(frozen=True, slots=True)
class PlayerTimedOut(TableEvent):
    hand_id: int
    seat: int
    user_id: int
    name: str
    kind: ActionKind  # what the service did for him
    sat_out: bool  # second timeout in a row: he is now sitting out


@dataclass(frozen=True, slots=True)
class CardsExposed(TableEvent):
    """R8.2: betting is over with a player all-in; his cards are turned up before the rest."""

    hand_id: int
    seat: int
    user_id: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ShownHand:
    seat: int
    user_id: int
    name: str
    cards: tuple[Card, ...]
    high: str
    low: str | None
    high_cards: tuple[Card, ...] = ()  # the five that play (razz: its low), display order
    low_cards: tuple[Card, ...] = ()  # the five of the low, high to low (Hi/Lo, if any)
    # the cards of the seven (community card included) in neither five, in dealing order
    idle_cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class PotWon:
    index: int  # 0 main pot, then side pots
    amount: int
    high_winners: tuple[int, ...]  # seats
    low_winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (seat, chips)


@dataclass(frozen=True, slots=True)
class Showdown(TableEvent):
    """Shown hands in showing order and who won each pot (an unshown win has no hands)."""

    hand_id: int
    shown: tuple[ShownHand, ...]
    pots: tuple[PotWon, ...]
    community: Card | None
    names: tuple[tuple[int, str], ...]  # (seat, name) of everyone dealt in


@dataclass(frozen=True, slots=True)
class HandEnded(TableEvent):
    """The hand is settled; ``results`` is each player's net win or loss.

    It carries the whole public story of the hand, so a result message needs no other
    event (and a hand resumed after a restart tells it the same way): the number, the
    commitment, the game, who was dealt in, the showdown (None when nobody showed or the
    hand was cancelled), the last public action lines and every action (``actions``: the
    hand's :class:`ActionTaken` events in order, those before a restart included).
    """

    hand_id: int
    number: int
    results: tuple[tuple[int, int], ...]  # (user_id, chips won (+) or lost (-))
    final_stacks: tuple[tuple[int, int], ...]  # (seat, stack)
    cancelled: bool
    reason: str | None
    commitment: str = ""
    variant: Variant = Variant.STUD
    players: tuple[SeatedPlayer, ...] = ()  # stacks as dealt in
    showdown: Showdown | None = None
    last_actions: tuple[str, ...] = ()
    actions: tuple[ActionTaken, ...] = ()
    returned: tuple[tuple[int, int], ...] = ()  # (seat, chips) of an uncalled bet given back


@dataclass(frozen=True, slots=True)
class TableClosed(TableEvent):
    cashed_out: tuple[tuple[int, int], ...]  # (user_id, chips back to wallet)


@dataclass(frozen=True, slots=True)
class TopUpDropped(TableEvent):
    """Chips a player queued during a hand that did not (all) join his stack: ``added`` of
    the ``queued`` did, the rest never left his wallet; ``text`` tells him so (privately)."""

    user_id: int
    queued: int
    added: int
    text: str

    @property
    def private_to(self) -> int | None:
        return self.user_id


@dataclass(frozen=True, slots=True)
class SeatNotTaken(TableEvent):
    """A member promised a house player's seat could not sit when the hand ended (his
    wallet was short, say); ``text`` tells him why (privately)."""

    user_id: int
    text: str

    @property
    def private_to(self) -> int | None:
        return self.user_id


@dataclass(frozen=True, slots=True)
class PrivateCards(TableEvent):
    """A player's own cards (down cards included): sent on 3rd and 7th street.

    On the last street ``made`` names his best high hand and ``low`` his low (Hi/Lo).
    """

    user_id: int
    hand_id: int
    street: int
    cards: tuple[Card, ...]
    face_up: tuple[bool, ...]
    made: str | None = None
    low: str | None = None

    @property
    def private_to(self) -> int | None:
        return self.user_id

    @property
    def down_cards(self) -> tuple[Card, ...]:
        return tuple(c for c, up in zip(self.cards, self.face_up, strict=True) if not up)


class TournamentNoticeKind(StrEnum):
    """What a :class:`TournamentNotice` announces."""

    CREATED = "created"
    REGISTERED = "registered"
    UNREGISTERED = "unregistered"
    STARTED = "started"
    LEVEL = "level"  # a new level from this deal (or the host moved it)
    PAUSED = "paused"
    RESUMED = "resumed"
    FORFEIT = "forfeit"  # a player asked to forfeit during a hand: out when it ends
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class TournamentNotice(TableEvent):
    """Something every player of the channel's Sit & Go hears, in words (``text``)."""

    tournament_id: int
    kind: TournamentNoticeKind
    text: str


@dataclass(frozen=True, slots=True)
class PlayerFinished(TableEvent):
    """A place decided (a bust, a forfeit, the winner): ``text`` says it ("carol finishes
    4th"); ``prize`` went from the pool to his wallet in the same transaction."""

    tournament_id: int
    user_id: int
    name: str
    place: int
    shares: tuple[int, ...]  # the places his tie group shares (his own alone if none)
    prize: int
    forfeited: bool
    text: str


PUBLIC_EVENTS: tuple[type[TableEvent], ...] = (
    TableChanged,
    PlayerJoined,
    PlayerLeft,
    PlayerSatOut,
    PlayerSatIn,
    HandStarted,
    AntePosted,
    StreetDealt,
    ActionTaken,
    Turn,
    TimeBankStarted,
    PlayerTimedOut,
    CardsExposed,
    Showdown,
    HandEnded,
    TableClosed,
    TournamentNotice,
    PlayerFinished,
)


# --- delivery -------------------------------------------------------------------------------

Publish = Callable[[Sequence[TableEvent]], Awaitable[None]]


class Outbox:
    """A table's events, queued while its lock is held and delivered after: :meth:`seal` (lock
    held) adds one ``TableChanged`` with the view if the step changed anything, :meth:`flush`
    (lock released) delivers everything in order, one batch at a time."""

    def __init__(self, publish: Publish) -> None:
        self._publish = publish
        self._queue: list[TableEvent] = []
        self._lock = asyncio.Lock()
        self.dirty = False

    def emit(self, event: TableEvent) -> None:
        self._queue.append(event)

    def seal(self, changed: Callable[[], TableEvent]) -> None:
        """End of a step: queue ``changed()`` (the new public view) if anything changed."""
        if self.dirty:
            self.dirty = False
            self._queue.append(changed())

    async def flush(self) -> None:
        """Deliver queued events in order (call after releasing the lock)."""
        async with self._lock:
            while self._queue:
                batch, self._queue = self._queue, []
                await self._publish(batch)

    @asynccontextmanager
    async def step(
        self, lock: asyncio.Lock, changed: Callable[[], TableEvent]
    ) -> AsyncIterator[None]:
        """Hold ``lock`` for one step and seal it, then deliver what it produced."""
        try:
            async with lock:
                try:
                    yield
                finally:
                    self.seal(changed)
        finally:
            await self.flush()

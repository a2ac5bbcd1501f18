"""A played stud hand as recorded in a hand history, independent of any site's text format.

Money is in whole chips of the smallest unit the history uses (cents for cash games, so
$0.04 is 4), because the engine only knows whole chips. Players are named as the history
names them; seat numbers are the site's, in clockwise order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum, IntEnum


class Game(Enum):
    """The stud games a history can hold; values are the hand-script variant names."""

    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"


class Street(IntEnum):
    """Betting rounds, numbered as players say them (7th street is the river)."""

    THIRD = 3
    FOURTH = 4
    FIFTH = 5
    SIXTH = 6
    SEVENTH = 7


class Move(Enum):
    """What a history says a player did. A completion is written as a bet (or a raise over
    the bring-in) by sites, so it is one here too; the engine converter tells them apart."""

    BRING_IN = "bring_in"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"


# Cards a player holds after each street: two down and the door on 3rd, one each street after.
CARDS_AFTER_STREET = {Street.THIRD: 3, Street.FOURTH: 4, Street.FIFTH: 5, Street.SIXTH: 6}
MAX_CARDS = 7
DOOR_INDEX = 2


@dataclass(frozen=True, slots=True)
class Stakes:
    """Fixed-limit stakes in the hand's chip unit.

    ``bring_in`` is None when the hand itself does not show it (the low card completed at
    once); it can be learned from other hands at the same stakes.
    ``chips_per_unit`` is 100 for a currency written with cents (``$0.04`` = 4 chips) and
    1 for tournament or play chips; ``currency`` is e.g. ``"USD"``, or None for chips.
    """

    small_bet: int
    big_bet: int
    ante: int
    bring_in: int | None
    currency: str | None = None
    chips_per_unit: int = 1

    @property
    def key(self) -> tuple[str | None, int, int, int, int]:
        """Identity of a stakes level, for learning a missing bring-in from other hands."""
        return (self.currency, self.chips_per_unit, self.small_bet, self.big_bet, self.ante)


@dataclass(frozen=True, slots=True)
class Seat:
    """A player dealt into the hand. ``sitting_out`` players may still be dealt in (tournaments
    post their antes and fold them); sitting-out players who were not dealt in are not seats."""

    number: int
    name: str
    stack: int
    sitting_out: bool = False


@dataclass(frozen=True, slots=True)
class Ante:
    player: str
    amount: int
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Action:
    """One betting action.

    ``amount`` is what this action puts in the pot (0 for checks and folds); ``total`` the
    player's total on this street after it; ``raised_by`` the increment a site writes in
    ``raises X to Y`` (X), None for anything but a raise.
    """

    street: Street
    player: str
    move: Move
    amount: int = 0
    total: int = 0
    all_in: bool = False
    raised_by: int | None = None


@dataclass(frozen=True, slots=True)
class HoleCards:
    """The cards one player was dealt, in dealing order (down, down, door, 4th, 5th, 6th,
    river), as far as the history shows them; None where unknown. The length is the number
    of cards the player received."""

    player: str
    cards: tuple[str | None, ...]

    @property
    def known(self) -> tuple[str, ...]:
        return tuple(card for card in self.cards if card is not None)

    @property
    def complete(self) -> bool:
        return None not in self.cards


@dataclass(frozen=True, slots=True)
class Returned:
    """An uncalled bet given back before the pots are awarded."""

    player: str
    amount: int


@dataclass(frozen=True, slots=True)
class Collection:
    """Chips a player took from a pot; ``pot`` 0 is the main (or only) pot, k the k-th side
    pot. Amounts are after rake."""

    player: str
    amount: int
    pot: int = 0


@dataclass(frozen=True, slots=True)
class Hand:
    """One stud hand as the history records it.

    ``total_pot`` and ``rake`` are the summary's; ``pots`` are the summary's main and side
    pots (after rake), empty when there was a single pot. ``double_bet_allowed`` is the
    4th-street open pair (R4.4); ``no_low_hand`` the stud/8 notice that no low qualified.
    """

    hand_id: int
    game: Game
    stakes: Stakes
    seats: tuple[Seat, ...]
    antes: tuple[Ante, ...]
    actions: tuple[Action, ...]
    hole_cards: tuple[HoleCards, ...]
    total_pot: int
    rake: int
    collected: tuple[Collection, ...] = ()
    returned: tuple[Returned, ...] = ()
    pots: tuple[int, ...] = ()
    community: str | None = None
    double_bet_allowed: bool = False
    no_low_hand: bool = False
    hero: str | None = None
    table: str = ""
    max_seats: int | None = None
    tournament_id: int | None = None
    # A tournament hand's header parts, as written: "100+0", "Level IV (50/100)", and the
    # mixed game's name ("Triple Stud"; empty for one game). Empty: written as before.
    tournament_buy_in: str = ""
    tournament_level: str = ""
    tournament_mix: str = ""
    started: str = ""
    showed: tuple[str, ...] = ()

    def seat_of(self, player: str) -> Seat:
        for seat in self.seats:
            if seat.name == player:
                return seat
        raise KeyError(player)

    def cards_of(self, player: str) -> HoleCards:
        for hole in self.hole_cards:
            if hole.player == player:
                return hole
        raise KeyError(player)

    def actions_on(self, street: Street) -> tuple[Action, ...]:
        return tuple(action for action in self.actions if action.street is street)

    def betting_streets(self) -> tuple[Street, ...]:
        """Streets on which someone acted, in order."""
        return tuple(dict.fromkeys(action.street for action in self.actions))

    def put_in(self) -> dict[str, int]:
        """Chips each player put in (antes and actions), before uncalled bets came back."""
        totals = {seat.name: 0 for seat in self.seats}
        for ante in self.antes:
            totals[ante.player] += ante.amount
        for action in self.actions:
            totals[action.player] += action.amount
        return totals

    def collected_by(self) -> dict[str, int]:
        totals: dict[str, int] = {}
        for collection in self.collected:
            totals[collection.player] = totals.get(collection.player, 0) + collection.amount
        return totals

    def final_stacks(self) -> dict[str, int]:
        """Stacks after the hand as the site paid it (rake taken)."""
        stacks = {seat.name: seat.stack for seat in self.seats}
        for player, chips in self.put_in().items():
            stacks[player] -= chips
        for back in self.returned:
            stacks[back.player] += back.amount
        for player, chips in self.collected_by().items():
            stacks[player] += chips
        return stacks


UP_INDICES = range(DOOR_INDEX, MAX_CARDS - 1)  # door, 4th, 5th and 6th street cards


def view_of(hand: Hand, viewer: str | None) -> Hand:
    """The hand as ``viewer`` may see it: their own cards, every up card and the community
    card, and other players' down cards only if they showed them; None (or anyone not dealt
    in) sees only what was public.

    Mucked cards are hidden too: PokerStars prints them, but a down card that was not shown
    stays secret (issue 9). The viewer is the hand's hero when their down cards are known.
    """
    holes: list[HoleCards] = []
    for hole in hand.hole_cards:
        if hole.player == viewer or hole.player in hand.showed:
            holes.append(hole)
        else:
            cards = tuple(
                card if index in UP_INDICES else None for index, card in enumerate(hole.cards)
            )
            holes.append(HoleCards(hole.player, cards))
    hero = None
    for hole in hand.hole_cards:
        if hole.player == viewer and None not in hole.cards[: DOOR_INDEX + 1]:
            hero = viewer
    return replace(hand, hole_cards=tuple(holes), hero=hero)

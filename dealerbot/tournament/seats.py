"""Seats: the random draw at the start, and the order "from the button" that breaks ties.

Seats are numbered 0-7 clockwise, as at a cash table (the engine's S0-S7). The draw takes
an injected random source (the service passes the deal's secure one); the first button is
the engine's R13.1 choice for a first hand (the highest seat taken, so the lowest is dealt
first), and after each hand it moves as R13.1 says, through the same engine function.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS, next_button

from .errors import StandingsError


class Shuffler(Protocol):
    """What the draw needs of a random source: ``secrets.SystemRandom()``, ``random.Random``."""

    def shuffle(self, x: list[Any]) -> None: ...


@dataclass(frozen=True, slots=True)
class Stack:
    """A player's chips in a seat (for a bust: his chips at the start of that hand)."""

    player: int
    seat: int
    chips: int


@dataclass(frozen=True, slots=True)
class SeatDraw:
    seat_of: Mapping[int, int]  # player -> seat
    button: int  # the first hand's button


def seat_order(seat: int, button: int) -> int:
    """0 for the first seat clockwise from the button's left, up to the button itself last:
    "the earlier seat from the button" is the one with the smaller value."""
    return (seat - button - 1) % MAX_PLAYERS


def draw_seats(entrants: Sequence[int], seats: int, rng: Shuffler) -> SeatDraw:
    """Each entrant a random seat of the ``seats`` at the table, and the first button."""
    if not (isinstance(seats, int) and MIN_PLAYERS <= seats <= MAX_PLAYERS):  # R1.1
        raise StandingsError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats (got {seats!r})")
    players = check_players(entrants)
    if len(players) > seats:
        raise StandingsError(f"{len(players)} players do not fit at {seats} seats")
    order = list(range(seats))
    rng.shuffle(order)
    seat_of = dict(zip(players, order, strict=False))
    return SeatDraw(seat_of, next_button(None, list(seat_of.values())))


def check_players(players: Sequence[int]) -> tuple[int, ...]:
    """Two or more distinct player ids (whole numbers)."""
    ids = tuple(players)
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in ids):
        raise StandingsError("players are named by whole-number ids")
    if len(set(ids)) < len(ids):
        raise StandingsError("a player can enter a tournament once")
    if len(ids) < 2:
        raise StandingsError(f"a tournament needs 2 or more players (got {len(ids)})")
    return ids


def check_stacks(stacks: Sequence[Stack], button: int) -> None:
    """Distinct players in distinct seats 0-7, each with chips, and a button seat 0-7."""
    if not _seat(button):
        raise StandingsError(f"the button is a seat from 0 to {MAX_PLAYERS - 1} (got {button!r})")
    for stack in stacks:
        if not _seat(stack.seat):
            raise StandingsError(f"seats are 0 to {MAX_PLAYERS - 1} (got {stack.seat!r})")
        if not isinstance(stack.chips, int) or isinstance(stack.chips, bool) or stack.chips < 1:
            raise StandingsError(f"player {stack.player} needs chips (got {stack.chips!r})")
    if len({s.player for s in stacks}) < len(stacks):
        raise StandingsError("a player appears twice")
    if len({s.seat for s in stacks}) < len(stacks):
        raise StandingsError("two players in one seat")


def _seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MAX_PLAYERS

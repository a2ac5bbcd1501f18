"""Seat rules and the names seats show: the buy-in range, a full table, which seat, who is
dealt in, top-ups and rebuys, and the display name cleaned once when a player sits down.

House rules and their wording, as pure functions over the settings and seat rows (house
players' seats too: :func:`plan`, their names :func:`house_name`); the run-time table and
the service write and announce the results (the button, R13.1, is the engine's). A name
comes from the chat platform and may hold anything: newlines (a fake seat line with the
turn marker), zero-width or bidirectional-override characters (text that reads differently
than it is), long runs of whitespace. :func:`clean_name` keeps what a reader sees
as the name: control, format (zero-width, bidi controls) and separator characters go,
whitespace collapses to single spaces, and the result is cut at a character boundary to
:data:`MAX_NAME` characters. Front ends then only escape it for their markup.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from dealerbot.engine import MIN_PLAYERS
from dealerbot.store.seats import SeatRow
from dealerbot.store.validate import HOUSE_PLAYER_IDS, is_house_player_id

from . import errors
from .settings import TableConfig
from .views import dealt_in_next


@dataclass(frozen=True, slots=True)
class LeaveOutcome:
    """``left_now``: cashed out at once (``cashed_out`` chips); otherwise after this hand.
    ``dropped_top_up``: chips he had queued, which stay in his wallet (they were for that
    seat's next deal only)."""

    left_now: bool
    cashed_out: int
    dropped_top_up: int = 0


def eligible(seats: Iterable[SeatRow]) -> list[SeatRow]:
    """Seats that would be dealt into a hand starting now, in seat order."""
    return sorted(
        (
            seat
            for seat in seats
            if dealt_in_next(
                sitting_out=seat.sitting_out, leaving=seat.leave_after_hand, stack=seat.stack
            )
        ),
        key=lambda seat: seat.seat_no,
    )


def can_deal(players: Iterable[SeatRow]) -> bool:
    """Whether a hand can be dealt to these (eligible) seats: two at least (R1.1), and a
    member among them: house players never play among themselves."""
    rows = list(players)
    return len(rows) >= MIN_PLAYERS and any(not is_house_player_id(s.user_id) for s in rows)


def dealt_in(closing: bool, hand: object | None, seats: Iterable[SeatRow]) -> list[SeatRow]:
    """Who a hand starting now deals in, or why none can start."""
    if closing:
        raise errors.TableClosingError()
    if hand is not None:
        raise errors.HandInProgressError("A hand is already being played.")
    players = eligible(seats)
    if not can_deal(players):
        raise errors.NotEnoughPlayersError()
    return players


def check_buy_in(config: TableConfig, amount: int) -> None:
    if not config.min_buyin <= amount <= config.max_buyin:
        raise errors.AmountError(
            f"The buy-in at this table is {config.min_buyin:,} to {config.max_buyin:,} chips "
            f"(you asked for {amount:,})."
        )


def free_seat(config: TableConfig, taken: Iterable[int]) -> int:
    """The lowest free seat, or :class:`TableFullError`."""
    busy = set(taken)
    if len(busy) >= config.seats:
        raise errors.TableFullError(f"All {config.seats} seats at this table are taken.")
    return min(n for n in range(config.seats) if n not in busy)


def check_top_up(config: TableConfig, stack: int, amount: int) -> None:
    """Table stakes: a stack may be topped up to the maximum buy-in, no further."""
    if stack + amount > config.max_buyin:
        room = max(0, config.max_buyin - stack)
        raise errors.AmountError(
            f"A stack may hold at most {config.max_buyin:,} chips here; you can add up to {room:,}."
        )


def check_rebuy(stack: int, in_hand: bool, queued: int) -> None:
    """Rebuy is for a busted player, once per bust: a second press while one is queued is
    refused with what is queued (it would otherwise deal him in with two buy-ins)."""
    if stack > 0 or in_hand:
        raise errors.TableError("Rebuy is for a busted player; you still have chips at the table.")
    if queued > 0:
        raise errors.TableError(
            f"Already queued: {queued:,} chips join your stack before the next deal."
        )


# --- names -------------------------------------------------------------------------------

MAX_NAME = 32  # Discord's own limit for display names and nicknames
_DROPPED = frozenset(
    {"Cc", "Cf", "Cs", "Co", "Cn"}
)  # control, format, surrogate, private, unassigned
_SPACES = frozenset({"Zs", "Zl", "Zp"})


def clean_name(name: str, *, limit: int = MAX_NAME) -> str:
    """The name without invisible or layout-changing characters, at most ``limit`` long."""
    kept: list[str] = []
    for char in name:
        category = unicodedata.category(char)
        if char in "\t\n\r\v\f" or category in _SPACES:
            kept.append(" ")
        elif category not in _DROPPED:
            kept.append(char)
    return " ".join("".join(kept).split())[:limit].rstrip()


def fallback_name(user_id: int) -> str:
    """What to call a player whose name has nothing visible in it."""
    return f"player {user_id % 10_000:04d}"


def shown_name(name: str, user_id: int) -> str:
    """The name as a seat shows it: cleaned, or the fallback when nothing visible is left
    (for a name shown outside a seat, e.g. the title of ``/stud stats``)."""
    return clean_name(name) or fallback_name(user_id)


HOUSE_MARK = "(house)"
"""Every house player's name ends with this (table, results, histories, hand files); no
member's may (:func:`check_name`)."""
_HOUSE_LOOKS = ("\N{ROBOT FACE}",)  # the mark front ends put before a house player's name


HOUSE_NAMES = ("Ace", "Bea", "Cy", "Dot", "Eve", "Flo", "Gus", "Hal")
"""One name per house id (:data:`~dealerbot.store.validate.HOUSE_PLAYER_IDS`), in order."""
assert len(HOUSE_NAMES) == len(HOUSE_PLAYER_IDS)


def is_house_user(user_id: object) -> bool:
    """Whether this seat's user id is a house player's (front ends: mark it, DM nobody)."""
    return is_house_player_id(user_id)


def house_name(user_id: int) -> str:
    """``"Ace (house)"``: the name a house player's seat shows everywhere."""
    return f"{HOUSE_NAMES[HOUSE_PLAYER_IDS.index(user_id)]} {HOUSE_MARK}"


def unmarked(name: str) -> str:
    """A member's name without the house's marks (a trailing ``(house)``, a robot face), so
    that nobody can pass for a house player."""
    for look in _HOUSE_LOOKS:
        name = name.replace(look, "")
    text = " ".join(name.split())
    while text.casefold().endswith(HOUSE_MARK):
        text = text[: -len(HOUSE_MARK)].rstrip()
    return text


def check_name(name: object, user_id: int) -> str:
    """The display name cleaned for every view (:func:`clean_name`), without the house's
    marks (:func:`unmarked`), never empty."""
    if not isinstance(name, str) or not name.strip():
        raise errors.TableError("Your name must not be empty.")
    return unmarked(clean_name(name)) or fallback_name(user_id)  # only invisible characters


# --- house seats (issue 20; applied between hands by :mod:`.house_seats`) ----------------


@dataclass(frozen=True, slots=True)
class HousePlan:
    """What the table does between hands: house seats to stand up (user ids) and how many
    house players to seat."""

    leave: tuple[int, ...]
    join: int


def plan(
    config: TableConfig, seats: Iterable[SeatRow], *, tournament: bool = False, waiting: int = 0
) -> HousePlan:
    """The one rule for house seats: none with no member seated, at a tournament table or
    past ``house_players``; as many as bring the seats taken up to ``house_fill_to``,
    leaving a seat for every member waiting. ``waiting``: members
    promised a seat, who sit before any house player does. A busted house player leaves
    (another may take its place with a fresh buy-in)."""
    rows = list(seats)
    members = sum(1 for s in rows if not is_house_user(s.user_id)) + waiting
    house = sorted(
        (s for s in rows if is_house_user(s.user_id)),
        key=lambda s: HOUSE_PLAYER_IDS.index(s.user_id),
    )
    if tournament or members == 0:
        target = 0
    else:
        room = config.seats - members
        target = max(0, min(config.house_players, config.house_fill_to - members, room))
    playing = [s for s in house if s.stack > 0]
    kept = playing[:target]
    leave = tuple(s.user_id for s in house if s not in kept)
    return HousePlan(leave, target - len(kept))


def free_house_id(seats: Iterable[SeatRow]) -> int | None:
    """The first house id not seated at this table."""
    taken = {s.user_id for s in seats}
    return next((user for user in HOUSE_PLAYER_IDS if user not in taken), None)

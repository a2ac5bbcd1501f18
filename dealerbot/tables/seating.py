"""Seat rules: the buy-in range, a full table, which seat, who is dealt in.

House rules and their wording, as pure functions over the settings and seat rows; the
run-time table and the service write and announce the results (the button, R13.1, is the
engine's).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dealerbot.store.seats import SeatRow

from . import errors
from .config import TableConfig


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
            if not seat.sitting_out and not seat.leave_after_hand and seat.stack > 0
        ),
        key=lambda seat: seat.seat_no,
    )


def dealt_in(closing: bool, hand: object | None, seats: Iterable[SeatRow]) -> list[SeatRow]:
    """Who a hand starting now deals in, or why none can start."""
    if closing:
        raise errors.TableClosingError()
    if hand is not None:
        raise errors.HandInProgressError("A hand is already being played.")
    players = eligible(seats)
    if len(players) < 2:
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
        raise errors.TableError(
            "Rebuy is for a busted player; you still have chips at the table."
        )
    if queued > 0:
        raise errors.TableError(
            f"Already queued: {queued:,} chips join your stack before the next deal."
        )

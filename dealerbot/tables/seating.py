"""Seat rules: who is dealt in and what leaving did (the button, R13.1, is the engine's).

Pure functions over seat rows; the run-time table writes and announces the results.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from dealerbot.store.tables import Seat


@dataclass(frozen=True, slots=True)
class LeaveOutcome:
    """``left_now``: cashed out at once (``cashed_out`` chips); otherwise after this hand."""

    left_now: bool
    cashed_out: int


def eligible(seats: Iterable[Seat]) -> list[Seat]:
    """Seats that would be dealt into a hand starting now, in seat order."""
    return sorted(
        (
            seat
            for seat in seats
            if not seat.sitting_out and not seat.leave_after_hand and seat.stack > 0
        ),
        key=lambda seat: seat.seat_no,
    )

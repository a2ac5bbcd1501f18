"""The clock's rules: turn deadlines, the time bank, and acting for absent players.

Pure decisions over values; the run-time table arms its timers and writes the results.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealerbot.engine import ActionKind, HandState, legal_actions
from dealerbot.store.seats import SeatRow

from .events import AutoReason
from .settings import TableConfig

# Time out this many turns in a row and you are sat out (and then checked/folded at once).
TIMEOUTS_TO_SIT_OUT = 2
RETRY_SECONDS = 5.0  # a timer callback that failed (database trouble) tries again after this


@dataclass(slots=True)
class BankUse:
    """The time bank is running for the action ``seq`` since ``started_at``."""

    seq: int
    started_at: float
    amount: float


@dataclass(frozen=True, slots=True)
class StartBank:
    """The turn time is up: run his time bank until ``deadline``."""

    deadline: float
    bank: BankUse


@dataclass(frozen=True, slots=True)
class TimeOut:
    """Time is up for good: ``kind`` is played for him; ``timeouts`` is his new count."""

    kind: ActionKind
    timeouts: int
    sat_out: bool  # this timeout sits him out
    sits_out_now: bool  # ... and he was not sitting out already


def turn_deadline(now: float, config: TableConfig, state: HandState) -> float | None:
    return None if state.seat_to_act is None else now + config.turn_seconds


def auto_kind(state: HandState) -> ActionKind:
    """What the service does for a player who is away, leaving or out of time."""
    legal = legal_actions(state)
    if ActionKind.CHECK in legal.kinds:
        return ActionKind.CHECK
    if ActionKind.FOLD in legal.kinds:
        return ActionKind.FOLD
    return legal.options[0].kind  # a forced bring-in (R3.2) cannot be refused


def auto_reason(seat: SeatRow | None, deals_absent: bool = False) -> AutoReason | None:
    """Why the service must act for the player in ``seat`` now, or None to wait for him.
    ``deals_absent``: a player sitting out is dealt in anyway (a tournament), so he is acted
    for at once, not only once his timeouts sat him out."""
    if seat is None or seat.leave_after_hand:
        return AutoReason.LEAVING
    away = deals_absent or seat.consecutive_timeouts >= TIMEOUTS_TO_SIT_OUT
    if seat.sitting_out and away:
        return AutoReason.AWAY
    return None


def on_expiry(
    seat: SeatRow | None, bank: BankUse | None, seq: int, now: float, state: HandState
) -> StartBank | TimeOut:
    """The turn deadline passed: start his time bank if he has one left, else act for him."""
    if seat is not None and bank is None and seat.time_bank_seconds > 0:
        deadline = now + seat.time_bank_seconds
        return StartBank(deadline, BankUse(seq, now, seat.time_bank_seconds))
    timeouts = (seat.consecutive_timeouts if seat is not None else 0) + 1
    sat_out = timeouts >= TIMEOUTS_TO_SIT_OUT
    sits_out_now = sat_out and seat is not None and not seat.sitting_out
    return TimeOut(auto_kind(state), timeouts, sat_out, sits_out_now)


def bank_left(bank: BankUse | None, seq: int, now: float) -> float | None:
    """Time bank seconds left after he acted at ``now`` (None: his bank was not running)."""
    if bank is None or bank.seq != seq:
        return None
    return max(0.0, bank.amount - max(0.0, now - bank.started_at))

"""A hand in memory and the small rules around it: the button, what to do for an absent player.

Also the bundle of things every table shares with the service (database, clock,
randomness, background tasks, the event sink).
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from dealerbot.engine.events import ActionKind
from dealerbot.engine.state import HandState, legal_actions
from dealerbot.store.config import TableConfig
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord

from . import events as out
from .timers import Clock, TaskTracker
from .translate import Player


@dataclass(slots=True)
class Deps:
    """What every table shares with the service."""

    db: Database
    clock: Clock
    rng: random.Random
    tracker: TaskTracker
    publish: Callable[[Sequence[out.TableEvent]], Awaitable[None]]


@dataclass(slots=True)
class BankUse:
    """The time bank is running for the action ``seq`` since ``started_at``."""

    seq: int
    started_at: float
    amount: float


@dataclass(slots=True)
class LiveHand:
    record: HandRecord
    state: HandState
    players: dict[int, Player]  # seat -> who sits there, for this hand
    seq: int  # actions logged so far = the number the next action must carry
    deadline: float | None
    bank: BankUse | None = None
    seat_by_user: dict[int, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.seat_by_user = {p.user_id: seat for seat, p in self.players.items()}

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def config(self) -> TableConfig:
        return self.record.config


@dataclass(frozen=True, slots=True)
class LeaveOutcome:
    """``left_now``: cashed out at once (``cashed_out`` chips); otherwise after this hand."""

    left_now: bool
    cashed_out: int


def auto_kind(state: HandState) -> ActionKind:
    """What the service does for a player who is away, leaving or out of time."""
    kinds = legal_actions(state).kinds
    if ActionKind.CHECK in kinds:
        return ActionKind.CHECK
    if ActionKind.FOLD in kinds:
        return ActionKind.FOLD
    return legal_actions(state).options[0].kind  # a forced bring-in (R3.2) cannot be refused


def next_button(previous: int | None, dealt_in: Sequence[int]) -> int:
    """R13.1: the next seat clockwise from the last button among those dealt in."""
    ordered = sorted(dealt_in)
    if previous is None:
        return ordered[-1]  # first hand: the lowest seat is dealt first
    for seat in ordered:
        if seat > previous:
            return seat
    return ordered[0]

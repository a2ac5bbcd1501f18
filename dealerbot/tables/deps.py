"""What every run-time table shares with the service: database, clock, randomness, tasks, sink."""

from __future__ import annotations

import random
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from dealerbot.fairness import SaltSource
from dealerbot.store.db import Database

from .events import TableEvent
from .timers import Clock, TaskTracker


@dataclass(slots=True)
class Deps:
    """What every table shares with the service."""

    db: Database
    clock: Clock
    rng: random.Random
    tracker: TaskTracker
    publish: Callable[[Sequence[TableEvent]], Awaitable[None]]
    salts: SaltSource = secrets.token_bytes  # the deck's per-position salts (docs/fairness.md)

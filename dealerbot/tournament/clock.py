"""The level clock: which level the next deal plays, and how long the level has left.

A pure value: every change takes the time as an argument (seconds, any epoch the service
likes, the same one throughout) and returns a new clock. Only running time counts: a
pause stops it. A level lasts ``level_seconds`` of running time; the host's level up or
down moves to the next or previous level at once, which then starts with its whole time.

A new level reaches the table at the next deal, never inside a hand: the service asks
:meth:`LevelClock.deal` for the level at the moment it deals and plays the whole hand at
those stakes; the clock remembers it (``dealt``) so a status line can say both.

:meth:`LevelClock.to_dict` is what the store keeps; :meth:`LevelClock.from_dict` resumes at
the same level and position, the time the bot was down not counted (running time only
moves while a process runs the clock). Save after every deal, pause, resume and level move.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from .errors import ClockError

CLOCK_VERSION = 1


@dataclass(frozen=True, slots=True)
class LevelStatus:
    """What the clock says at one moment."""

    level: int  # the level the next deal plays
    seconds_left: float  # running time left in it, 0 < left <= the level's length
    paused: bool
    dealt: int | None  # the level of the last hand dealt; None before the first deal


@dataclass(frozen=True, slots=True)
class LevelClock:
    """``base_level`` began at ``base_elapsed`` seconds of running time; ``elapsed`` is the
    running time up to ``since`` (the last resume) or, while paused (``since`` None), all of it."""

    level_seconds: int
    base_level: int = 1
    base_elapsed: float = 0.0
    elapsed: float = 0.0
    since: float | None = None
    dealt: int | None = None

    def __post_init__(self) -> None:
        if not _whole(self.level_seconds) or self.level_seconds < 1:
            raise ClockError(f"a level lasts at least one second (got {self.level_seconds!r})")
        if not _whole(self.base_level) or self.base_level < 1:
            raise ClockError(f"levels are numbered from 1 (got {self.base_level!r})")
        if self.dealt is not None and (not _whole(self.dealt) or self.dealt < 1):
            raise ClockError(f"levels are numbered from 1 (got {self.dealt!r})")
        for name in ("base_elapsed", "elapsed"):
            if not _time(getattr(self, name)) or getattr(self, name) < 0:
                raise ClockError(f"{name} must be a number of seconds, 0 or more")
        if self.since is not None and not _time(self.since):
            raise ClockError(f"since must be a time in seconds (got {self.since!r})")
        if self.base_elapsed > self.elapsed:
            raise ClockError("the level cannot begin after the clock's running time")

    @classmethod
    def start(cls, level_seconds: int, now: float) -> LevelClock:
        """A clock at level 1, running from ``now``."""
        return cls(level_seconds, since=_checked_time(now))

    @property
    def paused(self) -> bool:
        return self.since is None

    def running_time(self, now: float) -> float:
        """Seconds the clock has run, pauses left out."""
        if self.since is None:
            return self.elapsed
        now = _checked_time(now)
        if now < self.since:
            raise ClockError(
                f"the time given ({now}) is before the clock last started ({self.since})"
            )
        return self.elapsed + (now - self.since)

    def _position(self, now: float) -> tuple[int, float]:
        into = self.running_time(now) - self.base_elapsed
        passed = math.floor(into / self.level_seconds)
        return self.base_level + passed, into - passed * self.level_seconds

    def level_at(self, now: float) -> int:
        """The level a hand dealt at ``now`` plays."""
        return self._position(now)[0]

    def status(self, now: float) -> LevelStatus:
        current, into = self._position(now)
        return LevelStatus(current, self.level_seconds - into, self.paused, self.dealt)

    def deal(self, now: float) -> tuple[LevelClock, int]:
        """The level of a hand dealt at ``now``, remembered as ``dealt``; the hand keeps it
        to its end whatever the clock does meanwhile."""
        current = self.level_at(now)
        return replace(self, dealt=current), current

    def pause(self, now: float) -> LevelClock:
        if self.since is None:
            raise ClockError("the level clock is already paused")
        return replace(self, elapsed=self.running_time(now), since=None)

    def resume(self, now: float) -> LevelClock:
        if self.since is not None:
            raise ClockError("the level clock is already running")
        return replace(self, since=_checked_time(now))

    def level_up(self, now: float) -> LevelClock:
        """The next level now, with its whole time (the hand in play keeps its level)."""
        return self._move_to(self.level_at(now) + 1, now)

    def level_down(self, now: float) -> LevelClock:
        """The previous level now, with its whole time; refused at level 1."""
        current = self.level_at(now)
        if current == 1:
            raise ClockError("the clock is at level 1: there is no lower level")
        return self._move_to(current - 1, now)

    def _move_to(self, number: int, now: float) -> LevelClock:
        run = self.running_time(now)
        since = None if self.since is None else _checked_time(now)
        return replace(self, base_level=number, base_elapsed=run, elapsed=run, since=since)

    def to_dict(self, now: float) -> dict[str, Any]:
        """Plain values for the store, as of ``now``; read back exactly by :meth:`from_dict`."""
        return {
            "version": CLOCK_VERSION,
            "level_seconds": self.level_seconds,
            "from_level": self.base_level,  # the level counted from ...
            "from_elapsed": self.base_elapsed,  # ... which began at this running time
            "elapsed": self.running_time(now),
            "running": not self.paused,
            "dealt": self.dealt,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], now: float) -> LevelClock:
        """The clock saved by :meth:`to_dict`, running again from ``now`` if it was running."""
        try:
            if data["version"] != CLOCK_VERSION:
                raise ClockError(f"level clock version {data['version']!r} is not known")
            running = data["running"]
            if not isinstance(running, bool):
                raise ClockError("the stored level clock's 'running' must be true or false")
            return cls(
                level_seconds=data["level_seconds"],
                base_level=data["from_level"],
                base_elapsed=data["from_elapsed"],
                elapsed=data["elapsed"],
                since=_checked_time(now) if running else None,
                dealt=data["dealt"],
            )
        except (KeyError, TypeError) as exc:
            raise ClockError(f"the stored level clock is not readable: {exc!r}") from None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _time(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _checked_time(now: float) -> float:
    if not _time(now):
        raise ClockError(f"a time must be a finite number of seconds (got {now!r})")
    return now

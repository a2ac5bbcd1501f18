"""The ladder of levels: fixed-limit stud stakes with the ratios of real tournament structures.

Every structure starts at level 1 and climbs the same ladder (the structures differ in
chips and level length). In each level the big bet is twice the small bet, the ante about a
fifth of the small bet and the bring-in 0.3 to 0.4 of it.

Levels 1-16 are the issue's table. Beyond it the ladder goes on as levels 7-16 go: each
decade of small bets runs 1, 1.5, 2, 2.5, 3, 4, 5, 6, 8 (x 10^k), so level 16 is 1,000,
level 17 is 1,500, level 25 is 10,000; the ante is exactly a fifth of the small bet and the
bring-in exactly three tenths (whole chips: every such small bet is a multiple of 100).
In a mix each level deals one game, the games in their order (level 1 the first game).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from dealerbot.engine import Stakes, Variant

from .errors import TournamentError

LADDER: tuple[tuple[int, int, int], ...] = (
    # (small bet, ante, bring-in); the big bet is twice the small bet
    (25, 5, 10),
    (30, 5, 10),
    (40, 10, 15),
    (50, 10, 15),
    (60, 10, 20),
    (80, 15, 25),
    (100, 20, 30),
    (150, 30, 45),
    (200, 40, 60),
    (250, 50, 75),
    (300, 60, 90),
    (400, 80, 120),
    (500, 100, 150),
    (600, 120, 180),
    (800, 160, 240),
    (1000, 200, 300),
)
DECADE = (10, 15, 20, 25, 30, 40, 50, 60, 80)
"""One decade of small bets in tenths of its first (1, 1.5, 2 ... 8): levels 7-15 at x 10."""
_DECADE_START = len(LADDER)  # level 16 opens a decade (1,000) ...
_DECADE_BASE = 100  # ... at DECADE[0] x 100


@dataclass(frozen=True, slots=True)
class Level:
    """One level: its number (from 1), its limits and, in a mix, its game."""

    number: int
    small_bet: int
    ante: int
    bring_in: int
    game: Variant

    @property
    def big_bet(self) -> int:
        return 2 * self.small_bet

    @property
    def stakes(self) -> Stakes:
        """The engine's stakes for a hand dealt at this level (checked by R1.2)."""
        return Stakes.of(self.small_bet, self.ante, self.bring_in)


def level(number: int, games: Sequence[Variant]) -> Level:
    """Level ``number`` (1, 2, ...) of the ladder, dealing ``games[(number - 1) % len]``."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise TournamentError(f"levels are numbered from 1 (got {number!r})")
    if not games:
        raise TournamentError("a level needs a game")
    game = games[(number - 1) % len(games)]
    if number <= len(LADDER):
        small, ante, bring_in = LADDER[number - 1]
    else:
        step = number - _DECADE_START
        small = DECADE[step % len(DECADE)] * _DECADE_BASE * 10 ** (step // len(DECADE))
        ante, bring_in = small // 5, small * 3 // 10
    return Level(number, small, ante, bring_in, game)


_ROMAN = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def roman(number: int) -> str:
    """``4`` -> ``IV``: PokerStars numbers tournament levels in Roman numerals."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise TournamentError(f"Roman numerals start at 1 (got {number!r})")
    out: list[str] = []
    for value, letters in _ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def pokerstars_level(lv: Level) -> str:
    """The level as a PokerStars tournament header names it: ``Level IV (50/100)``."""
    return f"Level {roman(lv.number)} ({lv.small_bet}/{lv.big_bet})"


def clock_text(seconds: float) -> str:
    """``192`` -> ``3:12``; a part second counts as a whole one (a countdown's last second
    shows 0:01, not 0:00)."""
    whole = max(0, math.ceil(seconds))
    minutes, rest = divmod(whole, 60)
    return f"{minutes}:{rest:02d}"


def level_line(lv: Level, seconds_left: float, *, mixed: bool = False, paused: bool = False) -> str:
    """``Level 4 · 50/100 · ante 10 · bring-in 15 · next level in 3:12`` (a mix names the
    level's game after the number). The service may word it its own way later."""
    parts = [f"Level {lv.number}"]
    if mixed:
        parts.append(lv.game.title)
    parts += [
        f"{lv.small_bet:,}/{lv.big_bet:,}",
        f"ante {lv.ante:,}",
        f"bring-in {lv.bring_in:,}",
        f"clock paused, {clock_text(seconds_left)} left"
        if paused
        else f"next level in {clock_text(seconds_left)}",
    ]
    return " · ".join(parts)

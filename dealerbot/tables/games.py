"""Which game the next hand is (R15.1): a fixed game, a rotation, or dealer's choice.

Pure house policy: values in, values out, no clock and no database. The engine deals one
variant per hand and never hears of rotations; the table asks :func:`next_hand` before
each deal and stores the :class:`Rotation` it returns (so a restart resumes the rotation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from dealerbot.engine import Variant

DEFAULT_HANDS_PER_GAME = 8  # within limits.HANDS_PER_GAME
DEFAULT_CHOICE_SECONDS = 20  # within limits.CHOICE_SECONDS
DEFAULT_ROTATION = (Variant.STUD, Variant.RAZZ, Variant.STUD8)


class GameMode(StrEnum):
    """The table's ``game`` setting: one game, a rotation (mix), or dealer's choice."""

    STUD = "stud"
    STUD8 = "stud8"
    RAZZ = "razz"
    MIX = "mix"
    CHOICE = "choice"

    @property
    def fixed(self) -> Variant | None:
        """The one game this mode deals, or None for mix and choice."""
        return None if self in (GameMode.MIX, GameMode.CHOICE) else Variant(self.value)


@dataclass(frozen=True, slots=True)
class Rotation:
    """Where a table is in its rotation: the game being played and hands dealt in it."""

    game: Variant
    hands_played: int = 0
    chosen: bool = False  # dealer's choice: the current stint was picked (or its pick lapsed)


@dataclass(frozen=True, slots=True)
class NextHand:
    """The game of the hand about to be dealt, and the rotation to store with it."""

    game: Variant
    rotation: Rotation


def parse_games(text: str | Sequence[str | Variant]) -> tuple[Variant, ...]:
    """``"stud, razz, stud8"`` (or a sequence) into games; ValueError names what is allowed."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    games: list[Variant] = []
    for item in items:
        if isinstance(item, Variant):
            games.append(item)
            continue
        try:
            games.append(Variant(item.strip().lower()))
        except ValueError:
            raise ValueError(f"unknown game {item!r} in the list: choose {allowed()}") from None
    if not games:
        raise ValueError(f"the list of games is empty: name one or more of {allowed()}")
    twice = sorted({g.value for g in games if games.count(g) > 1})
    if twice:
        raise ValueError(f"name each game once in the list ({', '.join(twice)} twice)")
    return tuple(games)


def allowed() -> str:
    return ", ".join(repr(v.value) for v in Variant)


def games_text(games: Sequence[Variant]) -> str:
    """Stored form: ``stud,razz,stud8``."""
    return ",".join(g.value for g in games)


def choice_due(mode: GameMode, games: Sequence[Variant], n: int, rotation: Rotation) -> bool:
    """Dealer's choice: the button player picks when a stint of ``n`` hands is over
    (or none was picked yet). Only when there is something to choose among."""
    if mode is not GameMode.CHOICE or len(set(games)) < 2:
        return False
    return not rotation.chosen or rotation.hands_played >= n


def next_hand(
    mode: GameMode, games: Sequence[Variant], n: int, rotation: Rotation | None
) -> NextHand:
    """The next hand's game. Fixed: always that game. Mix: ``n`` hands of each game in
    list order, wrapping (a game no longer in the list restarts at the list's first).
    Choice: the current game until a pick (:func:`chosen`) starts a new stint."""
    fixed = mode.fixed
    if fixed is not None:
        return _play(fixed, rotation)
    current = rotation if rotation is not None else Rotation(games[0])
    if mode is GameMode.MIX:
        if current.game not in games:
            return _play(games[0], None)
        if current.hands_played >= n:
            index = games.index(current.game)
            return _play(games[(index + 1) % len(games)], None)
        return _play(current.game, current)
    if current.chosen and current.hands_played >= n:  # choice due but not made: same game
        current = Rotation(current.game, 0, current.chosen)
    return _play(current.game, current)


def chosen(game: Variant | None, rotation: Rotation | None, fallback: Variant) -> Rotation:
    """The rotation after the button player's pick (None: the time ran out, the game
    in play continues for a new stint)."""
    keep = rotation.game if rotation is not None else fallback
    return Rotation(game if game is not None else keep, 0, True)


def _play(game: Variant, rotation: Rotation | None) -> NextHand:
    played = rotation.hands_played if rotation is not None and rotation.game is game else 0
    chosen_flag = rotation.chosen if rotation is not None and rotation.game is game else False
    return NextHand(game, Rotation(game, played + 1, chosen_flag))


@dataclass(frozen=True, slots=True)
class Upcoming:
    """What the table tells players: this game, hand k of n, then what."""

    game: Variant
    hand: int  # 1-based, within the current stint (0 before its first hand)
    of: int
    then: Variant | None  # None: dealer's choice decides (or the game is fixed)


def upcoming(
    mode: GameMode, games: Sequence[Variant], n: int, rotation: Rotation | None
) -> Upcoming | None:
    """For mix and choice: the game in play (or about to be), its hand count, what follows."""
    if mode.fixed is not None:
        return None
    current = rotation if rotation is not None else Rotation(games[0])
    if mode is GameMode.MIX:
        if current.game not in games:
            return Upcoming(games[0], 0, n, None if len(games) == 1 else games[1 % len(games)])
        index = games.index(current.game)
        return Upcoming(
            current.game, min(current.hands_played, n), n, games[(index + 1) % len(games)]
        )
    return Upcoming(current.game, min(current.hands_played, n), n, None)

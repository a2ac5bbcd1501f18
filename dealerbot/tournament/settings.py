"""A Sit & Go's options, each bound and default written once, checked at construction.

The structures differ only in starting chips and level length; every structure plays the
same ladder of levels from level 1 (:mod:`.levels`). Two bounds belong to the table service
and are passed in, never copied here: the chip bound of one movement (the buy-in's range)
and a table's turn time range. Anything with ``low`` and ``high`` will do (the service's
``Bound``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, Protocol

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS, StakesError, Variant

from .errors import SettingsError


class RangeLike(Protocol):
    """A range of whole numbers, both ends included (the table service's ``Bound``)."""

    @property
    def low(self) -> int: ...

    @property
    def high(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Span:
    """Whole numbers from ``low`` to ``high``, both included: the core's own bounds."""

    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, int) or isinstance(value, bool):
            return False
        return self.low <= value <= self.high


class Structure(Enum):
    """How fast the blinds (here: antes and limits) rise against the starting stack."""

    TURBO = "turbo"
    REGULAR = "regular"
    DEEP = "deep"

    @staticmethod
    def parse(text: str) -> Structure:
        try:
            return Structure(text.strip().lower())
        except (ValueError, AttributeError):
            names = ", ".join(s.value for s in Structure)
            raise SettingsError(f"structure must be one of {names} (got {text!r})") from None


@dataclass(frozen=True, slots=True)
class StructureDefaults:
    starting_chips: int
    level_minutes: int


STRUCTURES: Mapping[Structure, StructureDefaults] = {
    Structure.TURBO: StructureDefaults(starting_chips=1_500, level_minutes=5),
    Structure.REGULAR: StructureDefaults(starting_chips=2_500, level_minutes=10),
    Structure.DEEP: StructureDefaults(starting_chips=5_000, level_minutes=15),
}
STARTING_CHIPS = Span(100, 100_000)
LEVEL_MINUTES = Span(1, 60)
DEFAULT_SEATS = MAX_PLAYERS
DEFAULT_TURN_SECONDS = 30
MIX = "mix"
DEFAULT_MIX: tuple[Variant, ...] = (Variant.STUD, Variant.STUD8, Variant.RAZZ)


def games_of(choice: str) -> tuple[Variant, ...]:
    """``stud``, ``stud8``, ``razz`` (one game) or ``mix`` (the default mix, one game a level)."""
    if isinstance(choice, str) and choice.strip().lower() == MIX:
        return DEFAULT_MIX
    try:
        return (Variant.parse(choice),)
    except StakesError:
        names = ", ".join(v.value for v in Variant)
        raise SettingsError(f"game must be one of {names} or {MIX} (got {choice!r})") from None


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """One Sit & Go's options. Construction checks the core's own bounds; :meth:`validate`
    checks the two the table service owns. :meth:`of` fills the structure's defaults and
    does both."""

    structure: Structure
    buy_in: int
    starting_chips: int
    level_minutes: int
    seats: int = DEFAULT_SEATS
    turn_seconds: int = DEFAULT_TURN_SECONDS
    games: tuple[Variant, ...] = (Variant.STUD,)  # more than one: a mix, one game a level

    def __post_init__(self) -> None:
        if not isinstance(self.structure, Structure):
            names = ", ".join(s.value for s in Structure)
            raise SettingsError(f"structure must be one of {names}")
        for f in fields(self):
            if f.name not in ("structure", "games"):
                value = getattr(self, f.name)
                if not _is_whole(value):
                    raise SettingsError(f"{f.name} must be a whole number (got {value!r})")
        _between("starting_chips", self.starting_chips, STARTING_CHIPS)
        _between("level_minutes", self.level_minutes, LEVEL_MINUTES)
        _between("seats", self.seats, Span(MIN_PLAYERS, MAX_PLAYERS))  # R1.1, the engine's
        if self.buy_in < 1:
            raise SettingsError(f"buy_in must be at least 1 chip (got {self.buy_in:,})")
        if self.turn_seconds < 1:
            raise SettingsError(f"turn_seconds must be at least 1 (got {self.turn_seconds:,})")
        names = ", ".join(v.value for v in Variant)
        if not isinstance(self.games, tuple) or not self.games:
            raise SettingsError(f"games must name one or more of {names}")
        if not all(isinstance(game, Variant) for game in self.games):
            raise SettingsError(f"games must name one or more of {names}")
        if len(set(self.games)) < len(self.games):
            raise SettingsError("games must name each game once")

    @classmethod
    def of(
        cls,
        structure: Structure,
        buy_in: int,
        *,
        chips: RangeLike,
        turn_range: RangeLike,
        starting_chips: int | None = None,
        level_minutes: int | None = None,
        seats: int | None = None,
        turn_seconds: int | None = None,
        games: Sequence[Variant] | None = None,
    ) -> TournamentSettings:
        """The settings from a host's options (None: the default), checked against the
        service's chip bound (``chips``: one movement, the buy-in's range) and turn range."""
        if not isinstance(structure, Structure):
            names = ", ".join(s.value for s in Structure)
            raise SettingsError(f"structure must be one of {names}")
        turn = DEFAULT_TURN_SECONDS if turn_seconds is None else turn_seconds
        _service_bounds(buy_in, turn, chips=chips, turn_range=turn_range)
        defaults = STRUCTURES[structure]
        return cls(
            structure=structure,
            buy_in=buy_in,
            starting_chips=defaults.starting_chips if starting_chips is None else starting_chips,
            level_minutes=defaults.level_minutes if level_minutes is None else level_minutes,
            seats=DEFAULT_SEATS if seats is None else seats,
            turn_seconds=turn,
            games=(Variant.STUD,) if games is None else tuple(games),
        )

    def validate(self, *, chips: RangeLike, turn_range: RangeLike) -> None:
        """The bounds the table service owns: the buy-in is one chip movement, the turn time
        is a table's."""
        _service_bounds(self.buy_in, self.turn_seconds, chips=chips, turn_range=turn_range)

    @property
    def level_seconds(self) -> int:
        return self.level_minutes * 60

    @property
    def mixed(self) -> bool:
        return len(self.games) > 1

    @property
    def game_name(self) -> str:
        """What the host chose: one game's name, or ``mix``."""
        return MIX if self.mixed else self.games[0].value

    def to_dict(self) -> dict[str, Any]:
        """Plain values for the store (the tournament row)."""
        return {
            "structure": self.structure.value,
            "buy_in": self.buy_in,
            "starting_chips": self.starting_chips,
            "level_minutes": self.level_minutes,
            "seats": self.seats,
            "turn_seconds": self.turn_seconds,
            "games": [game.value for game in self.games],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentSettings:
        """Back from :meth:`to_dict`; the core's bounds are checked again (the service's
        were checked when the tournament was made and may have changed since)."""
        try:
            games = tuple(Variant(name) for name in data["games"])
            return cls(
                structure=Structure(data["structure"]),
                buy_in=data["buy_in"],
                starting_chips=data["starting_chips"],
                level_minutes=data["level_minutes"],
                seats=data["seats"],
                turn_seconds=data["turn_seconds"],
                games=games,
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, SettingsError):
                raise
            raise SettingsError(f"stored tournament settings are not readable: {exc}") from None


def _service_bounds(
    buy_in: int, turn_seconds: int, *, chips: RangeLike, turn_range: RangeLike
) -> None:
    _between("buy_in", buy_in, Span(chips.low, chips.high))
    _between("turn_seconds", turn_seconds, Span(turn_range.low, turn_range.high))


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _between(name: str, value: int, span: Span) -> None:
    if not _is_whole(value):
        raise SettingsError(f"{name} must be a whole number (got {value!r})")
    if value not in span:
        raise SettingsError(f"{name} must be from {span.low:,} to {span.high:,} (got {value:,})")

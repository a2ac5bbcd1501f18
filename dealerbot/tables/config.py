"""House settings: a table's game and limits, a server's economy, and how they are read.

Construction validates the whole combination and refuses with :class:`ConfigError`,
worded for the admin who typed it. The store keeps plain rows
(:class:`~dealerbot.store.config.ConfigRow`, :class:`~dealerbot.store.config.EconomyRow`);
this module turns them into these values and back, and is the one place the limits live.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Any

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS, Stakes, StakesError, Variant
from dealerbot.store import config as config_db
from dealerbot.store.config import GUILD_DEFAULT_CHANNEL, NEW_GUILD_ECONOMY, ConfigRow, EconomyRow
from dealerbot.store.db import Database
from dealerbot.store.validate import MAX_AMOUNT

from .errors import ConfigError
from .refusals import sentence

MAX_SMALL_BET = 1_000_000
MIN_BUYIN_SMALL_BETS = 10  # a buy-in must cover at least ten small bets
MAX_BUYIN_SMALL_BETS = 1000
TURN_SECONDS = (10, 300)
BETWEEN_HANDS_SECONDS = (0, 60)
TIME_BANK_SECONDS = (0, 300)
DAILY_COOLDOWN_SECONDS = (60, 7 * 86_400)

_LABELS = {
    "variant": "game",
    "ante": "ante",
    "bring_in": "bring-in",
    "small_bet": "small bet",
    "min_buyin": "minimum buy-in",
    "max_buyin": "maximum buy-in",
    "seats": "seats",
    "turn_seconds": "turn time (seconds)",
    "between_hands_seconds": "delay between hands (seconds)",
    "time_bank_seconds": "time bank (seconds)",
    "starting_chips": "starting chips",
    "daily_chips": "daily bonus",
    "daily_cooldown_seconds": "daily cooldown (seconds)",
}


def _refuse(text: str) -> ConfigError:
    return ConfigError(sentence(text))


def _whole(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _refuse(f"the {_LABELS[name]} must be a whole number, not {value!r}")
    return value


def _between(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise _refuse(f"the {_LABELS[name]} must be between {low:,} and {high:,} (got {value:,})")


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game and limits; construction validates (ConfigError says what is allowed)."""

    variant: Variant = Variant.STUD
    ante: int = 1
    bring_in: int = 2
    small_bet: int = 5
    min_buyin: int = 100
    max_buyin: int = 1000
    seats: int = MAX_PLAYERS
    turn_seconds: int = 45
    between_hands_seconds: int = 5
    time_bank_seconds: int = 30

    def __post_init__(self) -> None:
        if not isinstance(self.variant, Variant):
            games = ", ".join(repr(v.value) for v in Variant)
            raise _refuse(f"the game must be one of {games}")
        for f in fields(self):
            if f.name != "variant":
                _whole(f.name, getattr(self, f.name))
        _between("ante", self.ante, 1, MAX_SMALL_BET)
        _between("small_bet", self.small_bet, 2, MAX_SMALL_BET)
        try:
            Stakes.of(self.small_bet, self.ante, self.bring_in)
        except StakesError as exc:
            raise _refuse(str(exc)) from None
        low = MIN_BUYIN_SMALL_BETS * self.small_bet
        high = MAX_BUYIN_SMALL_BETS * self.small_bet
        if self.min_buyin < low:
            raise _refuse(
                f"the minimum buy-in must be at least {MIN_BUYIN_SMALL_BETS} small bets "
                f"({low:,} chips) (got {self.min_buyin:,})"
            )
        if not self.min_buyin <= self.max_buyin <= high:
            raise _refuse(
                f"the maximum buy-in must be between the minimum buy-in ({self.min_buyin:,}) "
                f"and {MAX_BUYIN_SMALL_BETS} small bets ({high:,}) (got {self.max_buyin:,})"
            )
        _between("seats", self.seats, MIN_PLAYERS, MAX_PLAYERS)
        _between("turn_seconds", self.turn_seconds, *TURN_SECONDS)
        _between("between_hands_seconds", self.between_hands_seconds, *BETWEEN_HANDS_SECONDS)
        _between("time_bank_seconds", self.time_bank_seconds, *TIME_BANK_SECONDS)

    @property
    def big_bet(self) -> int:
        return 2 * self.small_bet

    @property
    def stakes(self) -> Stakes:
        return Stakes.of(self.small_bet, self.ante, self.bring_in)

    def replace(self, **changes: Any) -> TableConfig:
        """A copy with ``changes`` parsed (strings allowed) and validated."""
        return dataclasses.replace(self, **_coerce(TableConfig, changes))

    def to_row(self) -> ConfigRow:
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values["variant"] = self.variant.value
        return ConfigRow(**values)

    @staticmethod
    def from_row(row: ConfigRow | None) -> TableConfig:
        """The settings a stored row holds (None: the built-in settings)."""
        if row is None:
            return DEFAULT_TABLE_CONFIG
        return TableConfig().replace(**dataclasses.asdict(row))


@dataclass(frozen=True, slots=True)
class GuildEconomy:
    """What a guild hands out: starting balance, daily bonus and its cooldown."""

    starting_chips: int = NEW_GUILD_ECONOMY.starting_chips
    daily_chips: int = NEW_GUILD_ECONOMY.daily_chips
    daily_cooldown_seconds: int = NEW_GUILD_ECONOMY.daily_cooldown_seconds

    def __post_init__(self) -> None:
        for f in fields(self):
            _whole(f.name, getattr(self, f.name))
        _between("starting_chips", self.starting_chips, 0, MAX_AMOUNT)  # the one chip bound
        _between("daily_chips", self.daily_chips, 0, MAX_AMOUNT)
        _between("daily_cooldown_seconds", self.daily_cooldown_seconds, *DAILY_COOLDOWN_SECONDS)

    def replace(self, **changes: Any) -> GuildEconomy:
        return dataclasses.replace(self, **_coerce(GuildEconomy, changes))

    def to_row(self) -> EconomyRow:
        return EconomyRow(self.starting_chips, self.daily_chips, self.daily_cooldown_seconds)

    @staticmethod
    def from_row(row: EconomyRow) -> GuildEconomy:
        return GuildEconomy(row.starting_chips, row.daily_chips, row.daily_cooldown_seconds)


DEFAULT_TABLE_CONFIG = TableConfig()


def _coerce(
    kind: type[TableConfig] | type[GuildEconomy], changes: dict[str, Any]
) -> dict[str, Any]:
    """Accept ints/Variants or their text forms ("stud8", "1,000"); refuse unknown keys."""
    known = {f.name for f in fields(kind)}
    out: dict[str, Any] = {}
    for name, raw in changes.items():
        value = raw
        if name not in known:
            allowed = ", ".join(sorted(known))
            raise _refuse(f"unknown setting {name!r}; the settings are: {allowed}")
        if name == "variant":
            if isinstance(value, str):
                try:
                    value = Variant.parse(raw)
                except StakesError as exc:
                    raise _refuse(str(exc)) from None
        elif isinstance(value, str):
            text = raw.strip().replace(",", "").replace("_", "")
            if not text.lstrip("-").isdigit():
                raise _refuse(f"the {_LABELS[name]} must be a whole number, not {raw!r}")
            value = int(text)
        out[name] = value
    return out


# --- reading and writing them (each change is one transaction: read, validate, write) -----


async def table_config(db: Database, guild_id: int, channel_id: int) -> TableConfig:
    """Effective settings: the channel's, else the guild's defaults, else the built-in ones."""
    return TableConfig.from_row(await config_db.get_table_config(db, guild_id, channel_id))


async def guild_defaults(db: Database, guild_id: int) -> TableConfig:
    return TableConfig.from_row(await config_db.get_guild_table_defaults(db, guild_id))


async def change_table_config(
    db: Database, guild_id: int, channel_id: int, **changes: Any
) -> TableConfig:
    """Store the channel's effective settings with ``changes``; returns the new settings."""
    async with db.transaction():
        new = (await table_config(db, guild_id, channel_id)).replace(**changes)
        await config_db.put_table_config(db, guild_id, channel_id, new.to_row())
    return new


async def change_guild_defaults(db: Database, guild_id: int, **changes: Any) -> TableConfig:
    """Change the defaults of every channel in the guild that has no settings of its own."""
    async with db.transaction():
        new = (await guild_defaults(db, guild_id)).replace(**changes)
        await config_db.put_table_config(db, guild_id, GUILD_DEFAULT_CHANNEL, new.to_row())
    return new


async def economy(db: Database, guild_id: int) -> GuildEconomy:
    return GuildEconomy.from_row(await config_db.get_economy(db, guild_id))


async def change_economy(db: Database, guild_id: int, **changes: Any) -> GuildEconomy:
    async with db.transaction():
        new = (await economy(db, guild_id)).replace(**changes)
        await config_db.put_economy(db, guild_id, new.to_row())
    return new

"""Table configuration (per channel, with guild defaults) and each guild's economy.

Configuration rows are whole configurations: setting one value stores the current effective
configuration with that value changed, after validating the combination. So every stored
row is valid on its own and a later change to the guild defaults cannot make a channel's
settings inconsistent. Effective = channel row, else guild default row, else built-in.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from dataclasses import dataclass, fields
from typing import Any

import aiosqlite

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS, Stakes, StakesError, Variant

from .db import Database, execute, fetch_one
from .errors import ConfigError
from .validate import check_id

GUILD_DEFAULT_CHANNEL = 0  # channel_id of the row holding a guild's table defaults

MAX_SMALL_BET = 1_000_000
MIN_BUYIN_SMALL_BETS = 10  # a buy-in must cover at least ten small bets
MAX_BUYIN_SMALL_BETS = 1000
TURN_SECONDS = (10, 300)
BETWEEN_HANDS_SECONDS = (0, 60)
TIME_BANK_SECONDS = (0, 300)
MAX_ECONOMY_CHIPS = 1_000_000_000
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


def _whole(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"the {_LABELS[name]} must be a whole number, not {value!r}")
    return value


def _between(name: str, value: int, low: int, high: int) -> None:
    if not low <= value <= high:
        raise ConfigError(
            f"the {_LABELS[name]} must be between {low:,} and {high:,} (got {value:,})"
        )


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
            raise ConfigError("the game must be 'stud' or 'stud8'")
        for f in fields(self):
            if f.name != "variant":
                _whole(f.name, getattr(self, f.name))
        _between("ante", self.ante, 1, MAX_SMALL_BET)
        _between("small_bet", self.small_bet, 2, MAX_SMALL_BET)
        try:
            Stakes.of(self.small_bet, self.ante, self.bring_in)
        except StakesError as exc:
            raise ConfigError(str(exc)) from None
        low = MIN_BUYIN_SMALL_BETS * self.small_bet
        high = MAX_BUYIN_SMALL_BETS * self.small_bet
        if self.min_buyin < low:
            raise ConfigError(
                f"the minimum buy-in must be at least {MIN_BUYIN_SMALL_BETS} small bets "
                f"({low:,} chips) (got {self.min_buyin:,})"
            )
        if not self.min_buyin <= self.max_buyin <= high:
            raise ConfigError(
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

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["variant"] = self.variant.value
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableConfig:
        return TableConfig().replace(**data)


@dataclass(frozen=True, slots=True)
class GuildEconomy:
    """What a guild hands out: starting balance, daily bonus and its cooldown."""

    starting_chips: int = 1000
    daily_chips: int = 100
    daily_cooldown_seconds: int = 86_400

    def __post_init__(self) -> None:
        for f in fields(self):
            _whole(f.name, getattr(self, f.name))
        _between("starting_chips", self.starting_chips, 0, MAX_ECONOMY_CHIPS)
        _between("daily_chips", self.daily_chips, 0, MAX_ECONOMY_CHIPS)
        _between("daily_cooldown_seconds", self.daily_cooldown_seconds, *DAILY_COOLDOWN_SECONDS)

    def replace(self, **changes: Any) -> GuildEconomy:
        return dataclasses.replace(self, **_coerce(GuildEconomy, changes))


DEFAULT_TABLE_CONFIG = TableConfig()
DEFAULT_ECONOMY = GuildEconomy()
_TABLE_COLUMNS = tuple(f.name for f in fields(TableConfig))


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
            raise ConfigError(f"unknown setting {name!r}; the settings are: {allowed}")
        if name == "variant":
            if isinstance(value, str):
                try:
                    value = Variant.parse(raw)
                except StakesError as exc:
                    raise ConfigError(str(exc)) from None
        elif isinstance(value, str):
            text = raw.strip().replace(",", "").replace("_", "")
            if not text.lstrip("-").isdigit():
                raise ConfigError(f"the {_LABELS[name]} must be a whole number, not {raw!r}")
            value = int(text)
        out[name] = value
    return out


def _config_from_row(row: sqlite3.Row) -> TableConfig:
    values = {name: row[name] for name in _TABLE_COLUMNS}
    values["variant"] = Variant(values["variant"])
    return TableConfig(**values)


async def ensure_guild(conn: aiosqlite.Connection, guild_id: int, now: float) -> None:
    """Create the guild's row with the default economy if it is new (inside a transaction)."""
    e = DEFAULT_ECONOMY
    await conn.execute(
        "INSERT OR IGNORE INTO guilds (guild_id, starting_chips, daily_chips,"
        " daily_cooldown_seconds, created_at) VALUES (?, ?, ?, ?, ?)",
        (guild_id, e.starting_chips, e.daily_chips, e.daily_cooldown_seconds, now),
    )


async def economy_in(conn: aiosqlite.Connection, guild_id: int) -> GuildEconomy:
    row = await fetch_one(
        conn,
        "SELECT starting_chips, daily_chips, daily_cooldown_seconds FROM guilds WHERE guild_id = ?",
        (guild_id,),
    )
    if row is None:
        return DEFAULT_ECONOMY
    return GuildEconomy(row[0], row[1], row[2])


async def table_config_in(
    conn: aiosqlite.Connection, guild_id: int, channel_id: int
) -> TableConfig:
    """Effective configuration: channel row, else guild default row, else built-in."""
    row = await fetch_one(
        conn,
        "SELECT * FROM table_configs WHERE guild_id = ? AND channel_id IN (?, ?)"
        " ORDER BY channel_id DESC LIMIT 1",
        (guild_id, channel_id, GUILD_DEFAULT_CHANNEL),
    )
    return DEFAULT_TABLE_CONFIG if row is None else _config_from_row(row)


async def _store_config(
    conn: aiosqlite.Connection, guild_id: int, channel_id: int, cfg: TableConfig, now: float
) -> None:
    await ensure_guild(conn, guild_id, now)
    values = cfg.to_json()
    columns = ", ".join(_TABLE_COLUMNS)
    marks = ", ".join("?" for _ in _TABLE_COLUMNS)
    updates = ", ".join(f"{c} = excluded.{c}" for c in (*_TABLE_COLUMNS, "updated_at"))
    await conn.execute(
        f"INSERT INTO table_configs (guild_id, channel_id, {columns}, updated_at)"
        f" VALUES (?, ?, {marks}, ?)"
        f" ON CONFLICT (guild_id, channel_id) DO UPDATE SET {updates}",
        (guild_id, channel_id, *(values[c] for c in _TABLE_COLUMNS), now),
    )


async def get_table_config(db: Database, guild_id: int, channel_id: int) -> TableConfig:
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.reading() as conn:
        return await table_config_in(conn, guild_id, channel_id)


async def get_guild_table_defaults(db: Database, guild_id: int) -> TableConfig:
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        return await table_config_in(conn, guild_id, GUILD_DEFAULT_CHANNEL)


async def set_table_config(
    db: Database, guild_id: int, channel_id: int, **changes: Any
) -> TableConfig:
    """Change a channel's table settings; returns the new effective configuration."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.transaction() as conn:
        current = await table_config_in(conn, guild_id, channel_id)
        new = current.replace(**changes)
        await _store_config(conn, guild_id, channel_id, new, db.now())
    return new


async def set_guild_table_defaults(db: Database, guild_id: int, **changes: Any) -> TableConfig:
    """Change the defaults of every channel in the guild that has no settings of its own."""
    check_id(guild_id, "guild id")
    async with db.transaction() as conn:
        current = await table_config_in(conn, guild_id, GUILD_DEFAULT_CHANNEL)
        new = current.replace(**changes)
        await _store_config(conn, guild_id, GUILD_DEFAULT_CHANNEL, new, db.now())
    return new


async def reset_table_config(db: Database, guild_id: int, channel_id: int) -> TableConfig:
    """Drop the channel's own settings; returns what it now inherits."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.transaction() as conn:
        await execute(
            conn,
            "DELETE FROM table_configs WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
        return await table_config_in(conn, guild_id, channel_id)


async def get_economy(db: Database, guild_id: int) -> GuildEconomy:
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        return await economy_in(conn, guild_id)


async def set_economy(db: Database, guild_id: int, **changes: Any) -> GuildEconomy:
    check_id(guild_id, "guild id")
    async with db.transaction() as conn:
        new = (await economy_in(conn, guild_id)).replace(**changes)
        await ensure_guild(conn, guild_id, db.now())
        await conn.execute(
            "UPDATE guilds SET starting_chips = ?, daily_chips = ?, daily_cooldown_seconds = ?"
            " WHERE guild_id = ?",
            (new.starting_chips, new.daily_chips, new.daily_cooldown_seconds, guild_id),
        )
    return new

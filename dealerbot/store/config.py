"""Stored settings: each channel's table settings (with guild defaults) and each guild's economy.

Rows only: what the values mean, their limits and their wording are the table service's
(:mod:`dealerbot.tables.settings`), which validates a whole configuration before it is
written, so every stored row is valid on its own. The SQL CHECKs keep what SQL can state.
Effective table settings = the channel's row, else the guild's default row (channel 0).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields

from .db import Connection, Database, execute, fetch_one
from .validate import check_id

GUILD_DEFAULT_CHANNEL = 0  # channel_id of the row holding a guild's table defaults


@dataclass(frozen=True, slots=True)
class ConfigRow:
    """One row of ``table_configs`` (the variant by its stored name: "stud", "stud8", "razz").

    The mixed-games columns (0008) and the house players' (0014) have defaults so that a
    hand logged before them reads."""

    variant: str
    ante: int
    bring_in: int
    small_bet: int
    min_buyin: int
    max_buyin: int
    seats: int
    turn_seconds: int
    between_hands_seconds: int
    time_bank_seconds: int
    game: str = ""  # "stud", "stud8", "razz", "mix" or "choice" ("": a hand logged before
    # 0008, whose game is its variant)
    games: str = "stud,razz,stud8"  # the rotation, in order
    hands_per_game: int = 8
    choice_seconds: int = 20
    house_players: int = 0  # the most house players at the table (0014; 0: none)
    house_fill_to: int = 4  # house players sit while fewer seats than this are taken
    deck: str = "classic"  # how the table message draws cards (0016): "classic",
    # "four-colour" or "text"


@dataclass(frozen=True, slots=True)
class EconomyRow:
    """A guild's row: what it hands out."""

    starting_chips: int
    daily_chips: int
    daily_cooldown_seconds: int


# A guild's row is created, like a column default, with these values on its first wallet.
NEW_GUILD_ECONOMY = EconomyRow(starting_chips=1000, daily_chips=100, daily_cooldown_seconds=86_400)
_COLUMNS = tuple(f.name for f in fields(ConfigRow))


async def ensure_guild(conn: Connection, guild_id: int, now: float) -> None:
    """Create the guild's row with the new-guild economy if it is new (inside a transaction)."""
    e = NEW_GUILD_ECONOMY
    await conn.execute(
        "INSERT INTO guilds (guild_id, starting_chips, daily_chips,"
        " daily_cooldown_seconds, created_at) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO NOTHING",
        (guild_id, e.starting_chips, e.daily_chips, e.daily_cooldown_seconds, now),
    )


async def economy_in(conn: Connection, guild_id: int) -> EconomyRow:
    row = await fetch_one(
        conn,
        "SELECT starting_chips, daily_chips, daily_cooldown_seconds FROM guilds WHERE guild_id = ?",
        (guild_id,),
    )
    return NEW_GUILD_ECONOMY if row is None else EconomyRow(row[0], row[1], row[2])


async def _config_in(conn: Connection, guild_id: int, channel_id: int) -> ConfigRow | None:
    row = await fetch_one(
        conn,
        "SELECT * FROM table_configs WHERE guild_id = ? AND channel_id IN (?, ?)"
        " ORDER BY channel_id DESC LIMIT 1",
        (guild_id, channel_id, GUILD_DEFAULT_CHANNEL),
    )
    return None if row is None else ConfigRow(**{name: row[name] for name in _COLUMNS})


async def get_table_config(db: Database, guild_id: int, channel_id: int) -> ConfigRow | None:
    """The channel's row, else the guild's default row, else None (the built-in settings)."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.reading() as conn:
        return await _config_in(conn, guild_id, channel_id)


async def get_guild_table_defaults(db: Database, guild_id: int) -> ConfigRow | None:
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        return await _config_in(conn, guild_id, GUILD_DEFAULT_CHANNEL)


async def put_table_config(db: Database, guild_id: int, channel_id: int, row: ConfigRow) -> None:
    """Store a whole configuration for the channel (channel 0: the guild's defaults)."""
    check_id(guild_id, "guild id")
    if channel_id != GUILD_DEFAULT_CHANNEL:
        check_id(channel_id, "channel id")
    values = dataclasses.asdict(row)
    values["game"] = row.game or row.variant  # a row built without the 0008 columns
    columns = ", ".join(_COLUMNS)
    marks = ", ".join("?" for _ in _COLUMNS)
    updates = ", ".join(f"{c} = excluded.{c}" for c in (*_COLUMNS, "updated_at"))
    async with db.transaction() as conn:
        now = db.now()
        await ensure_guild(conn, guild_id, now)
        await conn.execute(
            f"INSERT INTO table_configs (guild_id, channel_id, {columns}, updated_at)"
            f" VALUES (?, ?, {marks}, ?)"
            f" ON CONFLICT (guild_id, channel_id) DO UPDATE SET {updates}",
            (guild_id, channel_id, *(values[c] for c in _COLUMNS), now),
        )


async def reset_table_config(db: Database, guild_id: int, channel_id: int) -> None:
    """Drop the channel's own settings (it inherits the guild's again)."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.transaction() as conn:
        await execute(
            conn,
            "DELETE FROM table_configs WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )


async def get_economy(db: Database, guild_id: int) -> EconomyRow:
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        return await economy_in(conn, guild_id)


async def put_economy(db: Database, guild_id: int, row: EconomyRow) -> None:
    check_id(guild_id, "guild id")
    async with db.transaction() as conn:
        await ensure_guild(conn, guild_id, db.now())
        await conn.execute(
            "UPDATE guilds SET starting_chips = ?, daily_chips = ?, daily_cooldown_seconds = ?"
            " WHERE guild_id = ?",
            (row.starting_chips, row.daily_chips, row.daily_cooldown_seconds, guild_id),
        )

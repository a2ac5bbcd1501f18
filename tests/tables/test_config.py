"""House settings: validation with messages, inheritance, economy settings (tables.config
over the store's rows)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dealerbot.engine import Variant
from dealerbot.store import config as config_db
from dealerbot.store.db import Database
from dealerbot.store.opening import open_database
from dealerbot.tables import changed_text, check_changes, settings
from dealerbot.tables.errors import ConfigError
from dealerbot.tables.settings import DEFAULT_TABLE_CONFIG, GuildEconomy, TableConfig

from ..store.conftest import CHANNEL, GUILD, snapshot

OTHER_CHANNEL = CHANNEL + 1


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(tmp_path / "config.sqlite3")
    try:
        yield database
    finally:
        await database.close()


def test_built_in_defaults() -> None:
    c = DEFAULT_TABLE_CONFIG
    assert (c.variant, c.ante, c.bring_in, c.small_bet, c.big_bet) == (Variant.STUD, 1, 2, 5, 10)
    assert (c.min_buyin, c.max_buyin, c.seats, c.turn_seconds, c.between_hands_seconds) == (
        100,
        1000,
        8,
        45,
        5,
    )
    assert c.stakes.big_bet == 10
    assert TableConfig.from_row(c.to_row()) == c
    assert TableConfig.from_row(None) == c


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"ante": 0}, "ante must be between 1"),
        ({"ante": 4}, "ante <= bring-in < small bet"),
        ({"bring_in": 5}, "ante <= bring-in < small bet"),
        ({"small_bet": 1_000_001}, "small bet must be between 2 and 1,000,000"),
        ({"min_buyin": 49}, "at least 10 small bets (50 chips)"),
        ({"max_buyin": 99}, "maximum buy-in must be between the minimum buy-in (100)"),
        ({"max_buyin": 5001}, "1000 small bets (5,000)"),
        ({"seats": 1}, "seats must be between 2 and 8"),
        ({"seats": 9}, "seats must be between 2 and 8"),
        ({"turn_seconds": 9}, "turn time (seconds) must be between 10 and 300"),
        ({"turn_seconds": 301}, "between 10 and 300"),
        ({"between_hands_seconds": -1}, "between 0 and 60"),
        ({"variant": "holdem"}, "unknown game 'holdem': choose 'stud'"),
        ({"ante": 1.5}, "whole number"),
        ({"ante": True}, "whole number"),
        ({"ante": "one"}, "whole number"),
        ({"colour": "red"}, "unknown setting 'colour'"),
    ],
)
async def test_bad_values_are_refused_and_change_nothing(
    db: Database, changes: dict[str, object], message: str
) -> None:
    await settings.change_table_config(db, GUILD, CHANNEL, ante=2, bring_in=3)
    before = await snapshot(db)
    with pytest.raises(ConfigError) as info:
        await settings.change_table_config(db, GUILD, CHANNEL, **changes)
    assert message.lower() in str(info.value).lower()  # the wording, as a sentence
    assert str(info.value)[0].isupper() and str(info.value).endswith(".")
    with pytest.raises(ConfigError):
        await settings.change_guild_defaults(db, GUILD, **changes)
    assert await snapshot(db) == before


async def test_inheritance_channel_then_guild_then_built_in(db: Database) -> None:
    assert await settings.table_config(db, GUILD, CHANNEL) == DEFAULT_TABLE_CONFIG
    guild = await settings.change_guild_defaults(db, GUILD, small_bet="10", min_buyin="200")
    assert (guild.small_bet, guild.min_buyin, guild.ante) == (10, 200, 1)
    assert await settings.table_config(db, GUILD, CHANNEL) == guild
    channel = await settings.change_table_config(db, GUILD, CHANNEL, variant="STUD8", seats=6)
    assert (channel.variant, channel.seats, channel.small_bet) == (Variant.STUD8, 6, 10)
    assert await settings.table_config(db, GUILD, OTHER_CHANNEL) == guild
    assert await settings.table_config(db, GUILD + 1, CHANNEL) == DEFAULT_TABLE_CONFIG
    # A channel row is a whole config: later guild changes do not leak into it.
    await settings.change_guild_defaults(db, GUILD, turn_seconds=60)
    assert (await settings.table_config(db, GUILD, CHANNEL)).turn_seconds == 45
    assert (await settings.table_config(db, GUILD, OTHER_CHANNEL)).turn_seconds == 60
    await config_db.reset_table_config(db, GUILD, CHANNEL)
    inherited = await settings.table_config(db, GUILD, CHANNEL)
    assert inherited == await settings.guild_defaults(db, GUILD)
    assert inherited.turn_seconds == 60


async def test_economy_settings(db: Database) -> None:
    assert await settings.economy(db, GUILD) == GuildEconomy(1000, 100, 86_400)
    e = await settings.change_economy(db, GUILD, starting_chips="5,000", daily_chips=250)
    assert e == GuildEconomy(5000, 250, 86_400)
    assert await settings.economy(db, GUILD) == e
    before = await snapshot(db)
    for bad in (
        {"starting_chips": -1},
        {"daily_cooldown_seconds": 10},
        {"daily_chips": 10**12 + 1},
    ):
        with pytest.raises(ConfigError):
            await settings.change_economy(db, GUILD, **bad)
    assert await snapshot(db) == before


def test_config_is_frozen() -> None:
    with pytest.raises(AttributeError):
        DEFAULT_TABLE_CONFIG.ante = 3  # type: ignore[misc]


def test_config_changes_are_checked_together_and_said_in_words() -> None:
    """All or nothing (issue 22, item 6): one refused change refuses them all, saying so."""
    config, economy = TableConfig(), GuildEconomy()
    with pytest.raises(ConfigError, match=r"^Nothing was changed: the minimum buy-in must be"):
        check_changes(config, economy, {"min_buyin": 40, "turn_seconds": 60}, {})
    new, same = check_changes(config, economy, {"small_bet": 10, "min_buyin": 100}, {})
    assert (new.small_bet, new.min_buyin, same) == (10, 100, economy)
    assert changed_text(["small_bet", "min_buyin"]) == (
        "Changed: the small bet and the minimum buy-in."
    )

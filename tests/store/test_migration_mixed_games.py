"""Migration 0008 (mixed games) on a database with settings in it: every stored table
keeps its game, gets the default rotation, and razz becomes storable."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealerbot.store import config as config_db
from dealerbot.store import migrate
from dealerbot.store.config import ConfigRow
from dealerbot.store.opening import open_database

ROW = (1, 2, 5, 100, 1000, 8, 45, 5, 30)


async def test_0008_keeps_each_tables_game_and_adds_the_default_rotation(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    async with await open_database(path, migrate_now=False) as db:
        await migrate.upgrade(db, target=7)
        async with db.transaction() as conn:
            for guild in (10, 11):
                await conn.execute(
                    "INSERT INTO guilds (guild_id, starting_chips, daily_chips,"
                    " daily_cooldown_seconds, created_at) VALUES (?, 1000, 100, 86400, 0)",
                    (guild,),
                )
            for guild, channel, variant in ((10, 0, "stud8"), (10, 5, "stud"), (11, 6, "stud8")):
                await conn.execute(
                    "INSERT INTO table_configs (guild_id, channel_id, variant, ante, bring_in,"
                    " small_bet, min_buyin, max_buyin, seats, turn_seconds,"
                    " between_hands_seconds, time_bank_seconds, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                    (guild, channel, variant, *ROW),
                )
    async with await open_database(path) as db:  # applies 0008 and later
        stud8 = await config_db.get_guild_table_defaults(db, 10)
        stud = await config_db.get_table_config(db, 10, 5)
        other = await config_db.get_table_config(db, 11, 6)
        assert stud8 is not None and stud is not None and other is not None
        assert (stud8.variant, stud8.game, stud8.games) == ("stud8", "stud8", "stud,razz,stud8")
        assert (stud.game, stud.hands_per_game, stud.choice_seconds) == ("stud", 8, 20)
        assert other.game == "stud8"
        mixed = ConfigRow("razz", *ROW, game="mix", games="razz,stud", hands_per_game=3)
        await config_db.put_table_config(db, 11, 6, mixed)
        assert await config_db.get_table_config(db, 11, 6) == mixed
        with pytest.raises(sqlite3.IntegrityError):  # what SQL can state, it states
            await config_db.put_table_config(db, 11, 6, ConfigRow("razz", *ROW, game="holdem"))

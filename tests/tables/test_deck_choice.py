"""The deck choices (issue 19): a table's ``deck`` setting and a player's own deck, their
names and refusals (the service's), stored on both backends by migration 0016."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from dealerbot.store import player_prefs as prefs_db
from dealerbot.store.db import Database
from dealerbot.store.opening import open_database
from dealerbot.tables import DEFAULT_DECK, DeckStyle, PlayerPrefs, settings
from dealerbot.tables.errors import ConfigError
from dealerbot.tables.settings import DEFAULT_TABLE_CONFIG, TableConfig, parse_deck

from ..store.conftest import CHANNEL, GUILD

USER = 4242


@pytest.fixture
async def db(db_url: str) -> AsyncIterator[Database]:
    database = await open_database(db_url)
    try:
        yield database
    finally:
        await database.close()


def test_the_three_styles_and_their_names() -> None:
    assert [d.value for d in DeckStyle] == ["classic", "four-colour", "text"]
    assert DEFAULT_TABLE_CONFIG.deck is DEFAULT_DECK is DeckStyle.CLASSIC
    assert parse_deck("Four-Color") is DeckStyle.FOUR_COLOUR  # the American spelling too
    assert parse_deck(" text ") is DeckStyle.TEXT
    assert all(style.words for style in DeckStyle)


@pytest.mark.parametrize("bad", ["paisley", "", "4", "classic deck"])
def test_a_name_that_is_no_deck_is_refused_with_the_choices(bad: str) -> None:
    with pytest.raises(ConfigError) as refused:
        DEFAULT_TABLE_CONFIG.replace(deck=bad)
    text = str(refused.value)
    assert "'classic', 'four-colour', 'text'" in text and repr(bad) in text
    with pytest.raises(ConfigError):
        TableConfig(deck=bad)  # type: ignore[arg-type]


async def test_a_tables_deck_is_stored_and_read_back(db: Database) -> None:
    changed = await settings.change_table_config(db, GUILD, CHANNEL, deck="four-colour")
    assert changed.deck is DeckStyle.FOUR_COLOUR
    read = await settings.table_config(db, GUILD, CHANNEL)
    assert read.deck is DeckStyle.FOUR_COLOUR and read == changed
    defaults = await settings.change_guild_defaults(db, GUILD, deck="text")
    assert defaults.deck is DeckStyle.TEXT
    assert (await settings.table_config(db, GUILD, CHANNEL + 1)).deck is DeckStyle.TEXT


async def test_a_stored_config_without_a_deck_reads_as_the_default(db: Database) -> None:
    await settings.change_table_config(db, GUILD, CHANNEL, ante=2)
    assert (await settings.table_config(db, GUILD, CHANNEL)).deck is DEFAULT_DECK


async def test_a_players_deck_defaults_is_set_and_keeps_his_alerts(db: Database) -> None:
    prefs = PlayerPrefs(db)
    assert await prefs.deck(USER) is DEFAULT_DECK  # no row: the default
    await prefs.set_turn_alerts(USER, False)
    assert await prefs.set_deck(USER, "four-colour") is DeckStyle.FOUR_COLOUR
    assert await prefs.deck(USER) is DeckStyle.FOUR_COLOUR
    assert await prefs.alerts_off([USER]) == {USER}  # the other setting is untouched
    await prefs.set_turn_alerts(USER, True)
    assert await prefs.deck(USER) is DeckStyle.FOUR_COLOUR
    assert await prefs_db.deck_of(db, USER + 1) is None


async def test_a_players_bad_deck_is_refused_and_nothing_is_stored(db: Database) -> None:
    prefs = PlayerPrefs(db)
    with pytest.raises(ConfigError):
        await prefs.set_deck(USER, "paisley")
    assert await prefs_db.deck_of(db, USER) is None

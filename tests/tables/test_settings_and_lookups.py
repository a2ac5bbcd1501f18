"""Service reads and writes the bot needs besides play: economy, defaults, ranks, message ids."""

from __future__ import annotations

import pytest

from dealerbot.tables import errors

from .helpers import CHANNEL, GUILD, seat_players, snapshot


async def test_economy_is_read_and_changed_through_the_service(harness):
    s = harness.service
    before = await s.economy_get(GUILD)
    changed = await s.economy_set(GUILD, daily_chips=250)
    assert changed.daily_chips == 250 and changed.starting_chips == before.starting_chips
    assert (await s.economy_get(GUILD)).daily_chips == 250


async def test_a_bad_economy_value_is_a_table_error_and_changes_nothing(harness):
    s = harness.service
    before = await snapshot(harness)
    with pytest.raises(errors.TableError):
        await s.economy_set(GUILD, daily_chips=-5)
    assert await snapshot(harness) == before


async def test_guild_defaults_follow_a_server_wide_change(harness):
    s = harness.service
    await s.guild_defaults_set(GUILD, small_bet=10, bring_in=3, ante=1, min_buyin=200)
    assert (await s.guild_defaults_get(GUILD)).small_bet == 10


async def test_rank_and_table_message_lookups(harness):
    s = harness.service
    assert await s.rank_of(GUILD, 12345) is None  # no wallet yet
    await seat_players(s, [1, 2])
    entry = await s.rank_of(GUILD, 1)
    assert entry is not None and entry.rank >= 1
    view = await s.table_view(GUILD, CHANNEL)
    assert await s.table_message(view.table_id) is None
    await s.set_table_message(view.table_id, 987654321)
    assert await s.table_message(view.table_id) == 987654321
    with pytest.raises(errors.TableError):
        await s.table_message(-1)

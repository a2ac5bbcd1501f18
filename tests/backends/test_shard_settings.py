"""SHARD_COUNT / SHARD_IDS as the settings read them, and Discord's guild -> shard rule."""

from __future__ import annotations

import pytest

from dealerbot.settings import SettingsError, load_settings
from dealerbot.tables.ownership import Shards, shard_of


@pytest.mark.parametrize(
    ("count", "ids", "expected"),
    [
        (None, None, (None, None)),
        ("4", None, (4, (0, 1, 2, 3))),
        ("8", "0-3", (8, (0, 1, 2, 3))),
        ("8", "4,5", (8, (4, 5))),
        ("8", "0-1, 6", (8, (0, 1, 6))),
        ("1", "0", (1, (0,))),
    ],
)
def test_shard_settings(count: str | None, ids: str | None, expected: tuple) -> None:
    env = {k: v for k, v in (("SHARD_COUNT", count), ("SHARD_IDS", ids)) if v is not None}
    settings = load_settings(env, env_file=None)
    assert (settings.shard_count, settings.shard_ids) == expected


def test_ids_outside_the_count_are_refused() -> None:
    with pytest.raises(SettingsError, match="outside SHARD_COUNT=4"):
        load_settings({"SHARD_COUNT": "4", "SHARD_IDS": "2-4"}, env_file=None)


def test_a_guild_s_shard_follows_discord_s_rule() -> None:
    guild = 81384788765712384  # Discord's documented example: (id >> 22) % 2 = 0
    assert shard_of(guild, 1) == 0
    assert shard_of((5 << 22) | 12345, 4) == 1
    assert Shards(4, frozenset({1, 3})).owns((5 << 22) | 1)
    assert not Shards(4, frozenset({1, 3})).owns(4 << 22)

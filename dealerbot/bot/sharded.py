"""The bot over some of Discord's shards (SHARD_COUNT / SHARD_IDS), for N processes.

:class:`ShardedDealerBot` is :class:`~dealerbot.bot.client.DealerBot` on discord.py's
``AutoShardedBot``: one gateway connection per shard in ``SHARD_IDS``, each identifying
as ``[shard_id, SHARD_COUNT]``, so Discord sends it the events of exactly the guilds on
those shards. The table service runs those guilds' tables only (and leases each table in
the database, so two processes never run the same one). With SHARD_COUNT set,
discord.py connects to DISCORD_GATEWAY_URL directly (no ``GET /gateway/bot``).

Direct messages always arrive on shard 0: dealerbot's commands are server-only, and the
direct messages it sends (your cards, turn alerts) carry no buttons, only text and a link
back to the table's channel, so no interaction ever comes from a DM.
"""

from __future__ import annotations

from typing import Any

from discord.ext import commands

from dealerbot.settings import Settings
from dealerbot.tables import TableService

from .client import DealerBot


class ShardedDealerBot(DealerBot, commands.AutoShardedBot):
    """DealerBot on the shards the settings name."""

    def __init__(self, settings: Settings, service: TableService | None, **kwargs: Any) -> None:
        assert settings.shard_count is not None and settings.shard_ids is not None
        super().__init__(
            settings,
            service,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids),
            **kwargs,
        )


def make_bot(settings: Settings, service: TableService | None, **kwargs: Any) -> DealerBot:
    """The bot the settings ask for: sharded when SHARD_COUNT is set, else one connection."""
    if settings.shard_count is None:
        return DealerBot(settings, service, **kwargs)
    return ShardedDealerBot(settings, service, **kwargs)

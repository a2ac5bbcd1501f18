"""The Discord client: settings into discord.py, the cogs, the relay, shards, a clean stop.

The process runner (:mod:`dealerbot.runner`) opens the database, builds the table
service and hands it over. ``setup_hook`` loads the cogs as extensions (each registers
its commands and its persistent buttons), reads the application's own emoji once (the
card art, for picture cards: :func:`~.markup.learn_card_emoji`), subscribes the relay to
the service, starts
the service (which resumes hands in progress and re-arms their timers) and syncs the
commands to ``DEV_GUILD_ID`` only; global sync is ``dealerbot sync``, on demand.
Without a service (``dealerbot sync``) only the commands are loaded.

With SHARD_COUNT / SHARD_IDS set, :func:`make_bot` gives :class:`ShardedDealerBot`, the
same bot on discord.py's ``AutoShardedBot``: one gateway connection per shard in
``SHARD_IDS``, each identifying as ``[shard_id, SHARD_COUNT]``, so Discord sends it the
events of exactly the guilds on those shards (N processes, one set of shards each). The
table service runs those guilds' tables only and leases each table in the database, so
two processes never run the same one. With SHARD_COUNT set, discord.py connects to
DISCORD_GATEWAY_URL directly (no ``GET /gateway/bot``). Direct messages always arrive on
shard 0: dealerbot's commands are server-only, and the DMs it sends (your cards, turn
alerts) carry no buttons, only text and a link back to the table's channel, so no
interaction ever comes from a DM.
"""

from __future__ import annotations

import gc
import logging
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from dealerbot.settings import Settings
from dealerbot.tables import ClosedBecause, TableService

from . import command_sync
from .errors import StudTree
from .markup import forget_card_emoji, learn_card_emoji, learn_command_ids
from .relay import TableRelay

EXTENSIONS = ("dealerbot.bot.cogs.stud", "dealerbot.bot.cogs.admin")

log = logging.getLogger(__name__)


def point_discord_at(settings: Settings) -> None:
    """Send discord.py's REST calls and its gateway connection where the settings say.

    A non-sharded client never asks ``GET /gateway/bot``, so the gateway URL must be
    set as well as the REST base (which also carries interaction callbacks).
    """
    discord.http.Route.BASE = settings.discord_api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)


def intents() -> discord.Intents:
    """Guilds only: slash commands and buttons need no privileged (or message) intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class DealerBot(commands.Bot):
    """discord.py client driving a table service (None: commands only, for ``sync``)."""

    def __init__(
        self,
        settings: Settings,
        service: TableService | None,
        *,
        sync_on_start: bool = True,
        guild_ready_timeout: float = 2.0,
        turn_alert_seconds: float | None = None,
        **options: Any,  # more discord.py client options (sharding: ShardedDealerBot)
    ) -> None:
        # dealerbot never joins voice: skip discord.py's warnings about voice libraries.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=StudTree,
            max_messages=None,
            chunk_guilds_at_startup=False,
            member_cache_flags=discord.MemberCacheFlags.none(),
            guild_ready_timeout=guild_ready_timeout,
            **options,
        )
        self.settings = settings
        self.service = service
        self.relay: TableRelay | None = None
        self._sync_on_start = sync_on_start
        # A turn's wait before its DM alert (TURN_ALERT_SECONDS; 0: none); see turn_alerts.py.
        self.turn_alert_seconds = (
            settings.turn_alert_seconds if turn_alert_seconds is None else turn_alert_seconds
        )
        self._shut = False
        self._frozen = False

    async def setup_hook(self) -> None:
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        if self.service is None:
            return
        self.relay = TableRelay(
            self, self.service, self.turn_alert_seconds, rest_budget=self.settings.rest_budget
        )
        await self.learn_card_emoji()
        self.service.subscribe(self.relay.on_event)
        await self.service.startup()
        log.info("tables resumed")
        if self._sync_on_start:
            await self._sync_dev_guild()

    async def learn_card_emoji(self) -> None:
        """The application's emoji, one request: where a deck's whole card art is there,
        cards are pictures; else text, and one log line says to run the sync."""
        try:
            owned = await self.fetch_application_emojis()
        except (discord.HTTPException, discord.MissingApplicationID, aiohttp.ClientError) as e:
            log.warning("cannot list the application's emoji (%s): cards show as text", e)
            learn_card_emoji([], quiet=True)
            return
        learn_card_emoji((emoji.name, emoji.id) for emoji in owned)

    async def _sync_dev_guild(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except discord.Forbidden as error:
                # The tables still run; only the command list of that server is stale.
                log.error(
                    "cannot sync commands to DEV_GUILD_ID %s (%s): is the bot in that server, "
                    "invited with the applications.commands scope? See the README",
                    guild_id,
                    error.text or error.status,
                )
                return
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                if isinstance(error, discord.HTTPException) and command_sync.refused(error):
                    await self._commands_refused(guild, error)
                    return
                # A network blip at boot must not stop the tables (issue 12): sync next start.
                log.error("cannot sync commands to DEV_GUILD_ID %s now (%s)", guild_id, error)
                return
            learn_command_ids(synced)
            log.info("synced %d commands to the development server %s", len(synced), guild_id)
        else:
            log.info("DEV_GUILD_ID is not set: run `dealerbot sync` once to publish the commands")
            try:  # the global commands' ids, for clickable command hints
                learn_command_ids(await self.tree.fetch_commands())
            except discord.HTTPException as error:
                log.info("cannot list the commands (HTTP %s): hints stay plain", error.status)

    async def _commands_refused(self, guild: discord.Object, error: discord.HTTPException) -> None:
        """Discord refused the command list (400, code 50035): a bug in dealerbot, said loudly
        with Discord's words and with what the server is left with.

        The bot keeps running. The tables in play need no slash command: their timers and
        their messages' buttons (act, my cards, leave, buy in) still work, so hands in
        progress finish and players can cash out; stopping would leave those hands to the
        next start, and a restart would be refused the same way (a crash loop that spends
        Discord's 1,000 logins a day). What no longer works is every slash command on that
        server, until a fixed dealerbot syncs.
        """
        try:
            kept: int | None = len(await self.tree.fetch_commands(guild=guild))
        except (discord.HTTPException, aiohttp.ClientError, OSError):
            kept = None
        log.error("%s", command_sync.startup_text(error, guild.id, kept))

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction: the relay keeps the token of one at a table (its requests
        then go through it, outside Discord's global limit)."""
        if self.relay is not None:
            self.relay.saw(interaction)

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        if not self._frozen:
            # What is loaded at start lives as long as the process: leaving it out of the
            # garbage collector's full scans keeps those pauses (and click answers) short.
            self._frozen = True
            gc.collect()
            gc.freeze()

    # A table whose channel is gone closes at once (its chips back to the wallets).

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if self.relay is not None:
            await self.relay.table_gone(channel.guild.id, channel.id, ClosedBecause.CHANNEL_DELETED)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Removed from the server (not an outage): its tables close, its wallets stay."""
        if self.relay is not None:
            await self.relay.table_gone(guild.id, None, ClosedBecause.BOT_REMOVED)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        if self.relay is not None:
            self.relay.guild_back(guild.id)

    async def close(self) -> None:
        """Stop timers first (no new events), let queued work out, then disconnect.

        The runner closes the database afterwards.
        """
        if self._shut:
            await super().close()
            return
        self._shut = True
        if self.service is not None:
            await self.service.shutdown()
        if self.relay is not None:
            await self.relay.close()
        forget_card_emoji()  # learnt at this bot's start, for this bot's messages
        await super().close()


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

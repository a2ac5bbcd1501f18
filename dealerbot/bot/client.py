"""The bot process: settings into discord.py, setup, running, a clean stop.

``setup_hook`` opens the database (migrations run there), starts the table service
(which resumes hands in progress and re-arms their timers), loads the cogs and the
persistent buttons, and syncs the commands to ``DEV_GUILD_ID`` only. Global sync is
``dealerbot sync``, on demand. SIGTERM and Ctrl-C stop the service's timers, let
queued messages go out briefly, close the connection and then the database; a hand
left mid-way resumes at the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import random
import signal
import sys
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import yarl
from discord.ext import commands

from dealerbot.settings import Settings
from dealerbot.store.db import Database
from dealerbot.store.errors import StoreError
from dealerbot.tables.service import TableService
from dealerbot.tables.timers import Clock

from .cogs.admin import AdminCog
from .cogs.play import PlayCog
from .cogs.wallet import WalletCog, graft
from .errors import StudTree
from .relay import TableRelay
from .views import DYNAMIC_ITEMS

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


class ClickRouter:
    """The buttons' entry points, implemented by the cogs that own each feature."""

    def __init__(self, play: PlayCog, wallet: WalletCog) -> None:
        self.on_action_click = play.on_action_click
        self.on_cards_click = play.on_cards_click
        self.on_board_click = wallet.on_board_click


class DealerBot(commands.Bot):
    """discord.py client plus the table service it drives."""

    def __init__(
        self,
        settings: Settings,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        run_service: bool = True,
        sync_on_start: bool = True,
        guild_ready_timeout: float = 2.0,
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
        )
        self.settings = settings
        self.db: Database | None = None
        self.service: TableService | None = None
        self.relay: TableRelay | None = None
        self.click_handlers: ClickRouter | None = None
        self._clock = clock
        self._rng = rng
        self._run_service = run_service
        self._sync_on_start = sync_on_start
        self._shut = False
        self._frozen = False

    async def setup_hook(self) -> None:
        play = PlayCog(self)
        wallet = WalletCog(self)
        await self.add_cog(play)
        await self.add_cog(wallet)
        group = play.app_command
        assert group is not None
        graft(wallet, group, self.tree)
        await self.add_cog(AdminCog(self))
        self.click_handlers = ClickRouter(play, wallet)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if not self._run_service:
            return
        if self._clock is not None:  # tests: timers and the store's clock move together
            self.db = await Database.open(self.settings.database_path, clock=self._clock.now)
        else:
            self.db = await Database.open(self.settings.database_path)
        self.service = TableService(self.db, clock=self._clock, rng=self._rng)
        self.relay = TableRelay(self, self.service)
        self.service.subscribe(self.relay.on_event)
        await self.service.startup()
        log.info("database %s open; tables resumed", self.settings.database_path)
        guild_id = self.settings.dev_guild_id
        if not self._sync_on_start:
            return
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
            log.info("synced %d commands to the development server %s", len(synced), guild_id)
        else:
            log.info("DEV_GUILD_ID is not set: run `dealerbot sync` once to publish the commands")

    async def on_ready(self) -> None:
        log.info("connected as %s to %d servers", self.user, len(self.guilds))
        if not self._frozen:
            # What is loaded at start lives as long as the process: leaving it out of the
            # garbage collector's full scans keeps those pauses (and click answers) short.
            self._frozen = True
            gc.collect()
            gc.freeze()

    async def close(self) -> None:
        """Stop timers first (no new events), let queued work out, then disconnect, then the DB."""
        if self._shut:
            await super().close()
            return
        self._shut = True
        if self.service is not None:
            await self.service.shutdown()
        if self.relay is not None:
            await self.relay.close()
        await super().close()
        if self.db is not None:
            await self.db.close()
            self.db = None


# --- running ----------------------------------------------------------------------------


def _failure_line(error: BaseException, settings: Settings) -> str | None:
    """One line that says what went wrong and what to do, for the errors users can fix."""
    if isinstance(error, discord.LoginFailure):
        return (
            "Discord rejected DISCORD_TOKEN: copy a new token from the Developer Portal "
            "(your application -> Bot -> Reset Token) into .env"
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "Discord refused the connection's intents; dealerbot needs no privileged intent"
    if isinstance(error, StoreError):
        return f"database {settings.database_path}: {error.message}"
    if isinstance(error, aiohttp.ClientConnectorError | discord.GatewayNotFound | OSError):
        return f"cannot reach Discord at {settings.discord_api_base}: {error}"
    if isinstance(error, discord.HTTPException):
        return f"Discord answered HTTP {error.status} ({error.text or 'no detail'})"
    return None


async def _serve(bot: DealerBot, token: str) -> None:
    """Run until the connection ends or SIGTERM/SIGINT arrives, then close cleanly."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        # Windows event loops have no signal handlers; that error is a RuntimeError.
        with contextlib.suppress(RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(bot.start(token))
    stopper = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("stopping: closing tables' timers, the connection and the database")
            await bot.close()
            await asyncio.gather(runner, return_exceptions=True)
        else:
            runner.result()
    finally:
        stopper.cancel()
        if not bot.is_closed() or bot.db is not None:
            await bot.close()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(RuntimeError):
                loop.remove_signal_handler(sig)


def run_bot(settings: Settings) -> int:
    """The ``dealerbot`` command: 0 after a clean stop, 1 with one line on a known failure."""
    token = settings.require_token()
    point_discord_at(settings)
    bot = DealerBot(settings)
    try:
        asyncio.run(_serve(bot, token))
    except KeyboardInterrupt:
        return 0
    except Exception as error:
        line = _failure_line(error, settings)
        if line is None:
            raise
        print(f"dealerbot: {line}", file=sys.stderr)
        return 1
    return 0


async def _sync(settings: Settings, guild_id: int | None, clear_guild: int | None) -> list[Any]:
    bot = DealerBot(settings, run_service=False)
    async with bot:
        await bot.login(settings.require_token())
        if clear_guild is not None:
            target = discord.Object(clear_guild)
            bot.tree.clear_commands(guild=target)
            await bot.tree.sync(guild=target)
        if guild_id is not None:
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            return await bot.tree.sync(guild=guild)
        return await bot.tree.sync()


def sync_commands(
    settings: Settings, *, guild_id: int | None = None, clear_guild: int | None = None
) -> int:
    """``dealerbot sync``: publish the slash commands globally (or to one server)."""
    point_discord_at(settings)
    try:
        synced = asyncio.run(_sync(settings, guild_id, clear_guild))
    except Exception as error:
        line = _failure_line(error, settings)
        if line is None:
            raise
        print(f"dealerbot: {line}", file=sys.stderr)
        return 1
    names = ", ".join(sorted(f"/{command.name}" for command in synced))
    where = f"to server {guild_id}" if guild_id is not None else "globally"
    print(f"synced {len(synced)} commands {where}: {names}")
    if clear_guild is not None:
        print(f"removed the server-only copies from server {clear_guild}")
    if guild_id is None:
        print("global commands can take a while to appear in every server")
    return 0

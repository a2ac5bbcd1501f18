"""The bot process: open the database, build the table service, run the bot, stop cleanly.

The Discord layer (:mod:`dealerbot.bot`) opens no database: this module builds the
:class:`~dealerbot.tables.Database` and :class:`~dealerbot.tables.TableService` and
hands the service to :class:`~dealerbot.bot.client.DealerBot`. SIGTERM and Ctrl-C close
the bot (timers, queued messages, the connection) and then the database; a hand left
mid-way resumes at the next start. Failures a user can fix end the process with one line.
``dealerbot sync`` publishes the commands without starting any table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import aiohttp
import discord

from dealerbot import perf_probe
from dealerbot.bot import command_sync
from dealerbot.bot.client import DealerBot, make_bot, point_discord_at
from dealerbot.house import HouseStyle
from dealerbot.settings import Settings
from dealerbot.tables import Clock, DatabaseError, DatabaseLock, TableService, open_database
from dealerbot.tables.ownership import Shards

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
CONNECT_RETRY_FIRST = 1.0  # seconds before the first new try when Discord is unreachable
CONNECT_RETRY_CAP = 60.0


@contextlib.asynccontextmanager
async def table_service(
    settings: Settings,
    *,
    clock: Clock | None = None,
    rng: random.Random | None = None,
    house_style: HouseStyle | None = None,
) -> AsyncIterator[TableService]:
    """The database (``settings.database``, migrated on open) and its table service
    (``house_style``: how its house players play; None: the default, tests: no delay).

    The database closes on exit; the bot stops the service's timers before that.
    """
    lock = DatabaseLock(settings.database)  # one bot per SQLite database (issue 12)
    lock.acquire()
    try:
        if clock is not None:  # tests: timers and the store's clock move together
            db = await open_database(settings.database, clock=clock.now)
        else:
            db = await open_database(settings.database)
        try:
            yield TableService(
                db, clock=clock, rng=rng, shards=shards_of(settings), house_style=house_style
            )
        finally:
            await db.close()
    finally:
        lock.release()


def shards_of(settings: Settings) -> Shards | None:
    """The shards whose guilds' tables this process runs (None: every guild)."""
    if settings.shard_count is None or settings.shard_ids is None:
        return None
    return Shards(settings.shard_count, frozenset(settings.shard_ids))


def failure_line(error: BaseException, settings: Settings) -> str | None:
    """One line that says what went wrong and what to do, for the errors users can fix."""
    if isinstance(error, discord.LoginFailure):
        return (
            "Discord rejected DISCORD_TOKEN: copy a new token from the Developer Portal "
            "(your application -> Bot -> Reset Token) into .env"
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "Discord refused the connection's intents; dealerbot needs no privileged intent"
    if isinstance(error, DatabaseError):
        if settings.database_url is not None:
            return (
                f"DATABASE_URL ({settings.database_display}): {error}; check the server, "
                "the user name and password, and the database name in DATABASE_URL"
            )
        return f"database {settings.database_path}: {error}"
    if isinstance(error, aiohttp.ClientConnectorError | discord.GatewayNotFound | OSError):
        return f"cannot reach Discord at {settings.discord_api_base}: {error}"
    if isinstance(error, discord.HTTPException):
        return f"Discord answered HTTP {error.status} ({error.text or 'no detail'})"
    return None


def unreachable(error: BaseException) -> bool:
    """Discord could not be reached (network down, DNS, 5xx): worth trying again."""
    return isinstance(
        error,
        aiohttp.ClientConnectionError
        | discord.GatewayNotFound
        | discord.DiscordServerError
        | OSError
        | TimeoutError,
    )


async def start_with_retries(
    bot: DealerBot, token: str, first: float = CONNECT_RETRY_FIRST
) -> None:
    """Log in, then connect the gateway, each tried again (the wait doubling up to a cap)
    while Discord is unreachable: a network blip at boot must not kill a service.

    The two are tried apart because login runs ``setup_hook`` (the cogs, the tables'
    resume) once. A gateway that never answered makes discord.py's own retry fail on the
    websocket it never had (``'NoneType' object has no attribute 'sequence'``); that, too,
    means "try again". Once connected, discord.py reconnects by itself. Failing connects
    send no IDENTIFY, so the retries cost none of Discord's 1,000 a day.
    """
    await _retrying(bot, lambda: bot.login(token), "Discord", first)
    await _retrying(bot, bot.connect, "Discord's gateway", first)


async def _retrying(
    bot: DealerBot, attempt: Callable[[], Awaitable[None]], what: str, first: float
) -> None:
    delay = first
    with gateway_retries_in_one_line(bot):
        while True:
            try:
                await attempt()
                return
            except Exception as error:
                never_connected = isinstance(error, AttributeError) and bot.ws is None
                if not (unreachable(error) or never_connected) or bot.is_closed():
                    raise
                where = discord.http.Route.BASE
                if what != "Discord":
                    where = str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
                reason = "no connection" if never_connected else type(error).__name__
                log.warning(
                    "cannot reach %s at %s (%s); retrying in %g s", what, where, reason, delay
                )
            await asyncio.sleep(delay)
            delay = min(delay * 2, CONNECT_RETRY_CAP)


@contextlib.contextmanager
def gateway_retries_in_one_line(bot: DealerBot) -> Iterator[None]:
    """discord.py logs each gateway reconnect with a whole traceback. While the bot has
    never connected the runner's own line says it all (the record is dropped); later
    reconnects (an outage after start) become one line with the error's name."""

    def shorten(record: logging.LogRecord) -> bool:
        if not record.getMessage().startswith("Attempting a reconnect"):
            return True
        if bot.ws is None:
            return False
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = ()
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True

    client_log = logging.getLogger("discord.client")
    client_log.addFilter(shorten)
    try:
        yield
    finally:
        client_log.removeFilter(shorten)


async def serve(bot: DealerBot, token: str, *, retry_first: float = CONNECT_RETRY_FIRST) -> None:
    """Run until the connection ends or SIGTERM/SIGINT arrives, then close the bot."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in STOP_SIGNALS:
        # Windows event loops have no signal handlers; that error is a RuntimeError.
        with contextlib.suppress(RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    runner = asyncio.create_task(start_with_retries(bot, token, retry_first))
    stopper = asyncio.create_task(stop.wait())
    try:
        done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        if stopper in done:
            log.info("stopping: closing tables' timers, the connection and the database")
            await bot.close()
            await asyncio.wait({runner}, timeout=5)
            runner.cancel()  # still waiting to try Discord again
            await asyncio.gather(runner, return_exceptions=True)
        else:
            runner.result()
    finally:
        stopper.cancel()
        await bot.close()
        for sig in STOP_SIGNALS:
            with contextlib.suppress(RuntimeError):
                loop.remove_signal_handler(sig)


async def _run(settings: Settings, token: str) -> None:
    async with perf_probe.from_env(), table_service(settings) as service:
        log.info("database %s open", settings.database_display)
        # Leases lost (the database connection that holds them dropped): the tables have
        # stopped; stop the process too, so its manager starts it again cleanly.
        service.ownership.on_lost.append(lambda: os.kill(os.getpid(), signal.SIGTERM))
        await serve(make_bot(settings, service), token)


def _one_line_or_raise(error: Exception, settings: Settings) -> int:
    line = failure_line(error, settings)
    if line is None:
        raise error
    print(f"dealerbot: {line}", file=sys.stderr)
    return 1


def run_bot(settings: Settings) -> int:
    """The ``dealerbot`` command: 0 after a clean stop, 1 with one line on a known failure."""
    token = settings.require_token()
    point_discord_at(settings)
    try:
        asyncio.run(_run(settings, token))
    except KeyboardInterrupt:
        return 0
    except Exception as error:
        return _one_line_or_raise(error, settings)
    return 0


async def _sync(settings: Settings, guild_id: int | None, clear_guild: int | None) -> list[Any]:
    bot = DealerBot(settings, None)
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
    where = f"to server {guild_id}" if guild_id is not None else "globally"
    try:
        synced = asyncio.run(_sync(settings, guild_id, clear_guild))
    except discord.HTTPException as error:
        if not command_sync.refused(error):
            return _one_line_or_raise(error, settings)
        print(f"dealerbot: {command_sync.sync_text(error, where)}", file=sys.stderr)
        return 1
    except Exception as error:
        return _one_line_or_raise(error, settings)
    names = ", ".join(sorted(f"/{command.name}" for command in synced))
    print(f"synced {len(synced)} commands {where}: {names}")
    if clear_guild is not None:
        print(f"removed the server-only copies from server {clear_guild}")
    if guild_id is None:
        print("global commands can take a while to appear in every server")
    return 0

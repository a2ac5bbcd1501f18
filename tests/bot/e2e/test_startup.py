"""Start-up edges (issue 12, points 9-10): a second bot on the same database, a bad
DATABASE_PATH, Discord unreachable at boot. One line each; a network blip is retried."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from collections.abc import Callable
from pathlib import Path

import discord
import pytest
import yarl

from dealerbot.bot.client import DealerBot
from dealerbot.runner import serve, table_service
from dealerbot.settings import Settings
from tests.bot.emulator import DiscordEmulator, discord_py_pointed_at

from .driver import Club
from .test_process import dealerbot, environment, finish

pytestmark = pytest.mark.skipif(os.name != "posix", reason="flock and signals")


def one_line(err: str, out: str) -> str:
    assert "Traceback" not in err + out
    [line] = err.strip().splitlines()
    return line


async def test_a_second_bot_on_the_same_database_refuses_to_start(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    club = Club(emulator, tmp_path / "bot.sqlite3", players=2)
    env = environment(
        emulator, tmp_path, DISCORD_TOKEN=emulator.token, DEV_GUILD_ID=str(club.guild.id)
    )
    first = await dealerbot(env, tmp_path)
    try:
        await emulator.wait_for(
            lambda: emulator.gateway.current is not None and emulator.commands(club.guild), 30
        )
        code, out, err = await finish(await dealerbot(env, tmp_path))
        assert code == 1
        line = one_line(err, out)
        assert f"in use by process {first.pid}" in line and "bot.sqlite3.lock" in line
    finally:
        first.send_signal(signal.SIGTERM)
        assert (await finish(first))[0] == 0
    code, _, _ = await finish(await dealerbot(env, tmp_path, "db", "check"))
    assert code == 0


async def test_a_missing_directory_is_one_line_and_a_failure(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    env = environment(
        emulator,
        tmp_path,
        DISCORD_TOKEN=emulator.token,
        DATABASE_PATH=str(tmp_path / "nowhere" / "bot.sqlite3"),
    )
    code, out, err = await finish(await dealerbot(env, tmp_path))
    assert code != 0
    assert "nowhere does not exist" in one_line(err, out)
    assert not (tmp_path / "nowhere").exists()


async def test_a_file_that_is_not_a_database_is_one_line_and_a_failure(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\n")
    env = environment(emulator, tmp_path, DISCORD_TOKEN=emulator.token, DATABASE_PATH=str(notes))
    code, out, err = await finish(await dealerbot(env, tmp_path))
    assert code != 0
    assert "not a SQLite database" in one_line(err, out)
    assert notes.read_text() == "shopping list\n"


class Restore(logging.Handler):
    """Points discord.py back at the emulator when the first retry is announced."""

    def __init__(self, base: str) -> None:
        super().__init__()
        self.base = base
        self.retries: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if "retrying in" in record.getMessage():
            self.retries.append(record.getMessage())
            discord.http.Route.BASE = self.base


@pytest.mark.parametrize("how", ["refused", "503"])
async def test_discord_unreachable_at_boot_is_retried(
    emulator: DiscordEmulator, tmp_path: Path, how: str
) -> None:
    club = Club(emulator, tmp_path / "bot.sqlite3", players=2)
    settings = club.settings()
    restore = Restore(emulator.api_base.rstrip("/"))
    logging.getLogger("dealerbot.runner").addHandler(restore)
    try:
        with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
            if how == "refused":
                discord.http.Route.BASE = "http://127.0.0.1:9/api/v10"  # nothing listens there
            else:
                emulator.fail_next("GET", "/users/@me", 503, times=2)
            await boot(club, settings, emulator)
    finally:
        logging.getLogger("dealerbot.runner").removeHandler(restore)
    assert restore.retries and all("cannot reach Discord" in r for r in restore.retries)
    if how == "503":
        assert len(emulator.requests("GET", "/users/@me", status=503)) == 2
        assert [r.split("retrying in ")[1] for r in restore.retries] == ["0.01 s", "0.02 s"]


async def boot(
    club: Club,
    settings: Settings,
    emulator: DiscordEmulator,
    then: Callable[[], object] | None = None,
) -> None:
    """The runner's serve() until the bot is ready, then a clean stop; with ``then``, a
    player's ``/stud join`` is answered first (and ``then`` called)."""
    async with table_service(settings, clock=club.clock, rng=club.rng) as service:
        bot = DealerBot(settings, service, guild_ready_timeout=0.05)
        running = asyncio.create_task(serve(bot, emulator.token, retry_first=0.01))
        try:
            await emulator.wait_for(lambda: emulator.gateway.current is not None, 20)
            await asyncio.wait_for(bot.wait_until_ready(), 20)
            if then is not None:
                text = await club.text(club.players[0], "join")
                assert "Traceback" not in text and text, text
                then()
        finally:
            await bot.close()
            await asyncio.wait_for(running, 10)


class GatewayBack(logging.Handler):
    """Counts the runner's gateway retries; after ``fail`` of them, the gateway is back."""

    def __init__(self, gateway: str, fail: int) -> None:
        super().__init__()
        self.gateway, self.fail = gateway, fail
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())
        if record.exc_info:
            self.lines.append("TRACEBACK")
        if len([x for x in self.lines if "gateway" in x]) >= self.fail:
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway)


async def test_the_gateway_unreachable_while_rest_works_is_retried_one_line_a_try(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """Issue 23 bug 3: REST answers, the gateway does not (a Discord incident, a proxy
    down). discord.py's own retry then fails on its missing websocket
    (``'NoneType' object has no attribute 'sequence'``); the bot must retry the gateway
    with a backoff, one log line a try, and run its tables once connected."""
    club = Club(emulator, tmp_path / "bot.sqlite3", players=2)
    settings = club.settings()
    joined: list[object] = []
    watcher = GatewayBack(emulator.gateway_url, fail=3)
    loggers = [logging.getLogger(name) for name in ("dealerbot.runner", "discord.client")]
    for logger in loggers:
        logger.addHandler(watcher)
    try:
        with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL("ws://127.0.0.1:9/")
            await boot(club, settings, emulator, then=lambda: joined.append(club.players[0]))
    finally:
        for logger in loggers:
            logger.removeHandler(watcher)
    tries = [line for line in watcher.lines if "gateway" in line]
    assert len(tries) >= 3, watcher.lines
    assert all("cannot reach Discord's gateway" in line for line in tries), watcher.lines
    assert "TRACEBACK" not in watcher.lines, watcher.lines
    assert not [line for line in watcher.lines if "Attempting a reconnect" in line]
    assert joined  # the bot answered a command once connected (see boot's ``then``)


async def test_sigterm_stops_a_bot_waiting_for_the_gateway_within_seconds(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    env = environment(
        emulator,
        tmp_path,
        DISCORD_TOKEN=emulator.token,
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9",  # nothing listens there; REST answers
        LOG_LEVEL="INFO",
    )
    proc = await dealerbot(env, tmp_path)
    assert proc.stderr is not None
    seen: list[str] = []
    try:
        while not any("cannot reach Discord's gateway" in line for line in seen):
            line = await asyncio.wait_for(proc.stderr.readline(), 30)
            assert line, seen
            seen.append(line.decode())
        proc.send_signal(signal.SIGTERM)
        started = asyncio.get_running_loop().time()
        rest = await asyncio.wait_for(proc.stderr.read(), 10)
        assert await asyncio.wait_for(proc.wait(), 10) == 0
        assert asyncio.get_running_loop().time() - started < 10
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert "Traceback" not in "".join(seen) + rest.decode()

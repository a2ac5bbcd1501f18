"""Start-up edges (issue 12, points 9-10): a second bot on the same database, a bad
DATABASE_PATH, Discord unreachable at boot. One line each; a network blip is retried."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from pathlib import Path

import discord
import pytest

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


async def boot(club: Club, settings: Settings, emulator: DiscordEmulator) -> None:
    """The runner's serve() until the bot is ready, then a clean stop."""
    async with table_service(settings, clock=club.clock, rng=club.rng) as service:
        bot = DealerBot(settings, service, guild_ready_timeout=0.05)
        running = asyncio.create_task(serve(bot, emulator.token, retry_first=0.01))
        try:
            await emulator.wait_for(lambda: emulator.gateway.current is not None, 20)
            await asyncio.wait_for(bot.wait_until_ready(), 20)
        finally:
            await bot.close()
            await asyncio.wait_for(running, 10)

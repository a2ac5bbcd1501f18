"""``dealerbot`` as a process against the emulator: token errors, SIGTERM, ``sync``."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from dealerbot.store import hands as hands_db
from dealerbot.store.opening import open_database
from tests.bot.emulator import DiscordEmulator

from .driver import Club

REPO = Path(__file__).resolve().parents[3]


def environment(emu: DiscordEmulator, tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DEV_GUILD"))}
    env.update(
        DISCORD_API_BASE=emu.api_base,
        DISCORD_GATEWAY_URL=emu.gateway_url,
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        PYTHONPATH=str(REPO),
        LOG_LEVEL="WARNING",
    )
    env.update(extra)
    return env


async def dealerbot(env: dict[str, str], cwd: Path, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dealerbot",
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


async def finish(proc: asyncio.subprocess.Process) -> tuple[int, str, str]:
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_a_rejected_token_gives_one_clear_line(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    env = environment(emulator, tmp_path, DISCORD_TOKEN="not-the-token")
    code, out, err = await finish(await dealerbot(env, tmp_path))
    assert code == 1
    assert "Traceback" not in err + out
    assert err.strip().splitlines() == [
        "dealerbot: Discord rejected DISCORD_TOKEN: copy a new token from the Developer "
        "Portal (your application -> Bot -> Reset Token) into .env"
    ]
    assert emulator.requests("GET", "/users/@me", status=401)  # it asked the emulator


async def test_a_missing_token_gives_one_clear_line(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    code, out, err = await finish(await dealerbot(environment(emulator, tmp_path), tmp_path))
    assert code != 0
    assert "Traceback" not in err + out
    [line] = err.strip().splitlines()
    assert line.startswith("dealerbot: DISCORD_TOKEN is not set")


async def test_sigterm_mid_hand_stops_cleanly_and_leaves_the_hand_to_resume(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    club = Club(emulator, tmp_path / "bot.sqlite3", players=2)
    env = environment(
        emulator, tmp_path, DISCORD_TOKEN=emulator.token, DEV_GUILD_ID=str(club.guild.id)
    )
    proc = await dealerbot(env, tmp_path)
    try:
        await emulator.wait_for(
            lambda: emulator.gateway.current is not None and emulator.commands(club.guild), 30
        )
        for player in club.players:
            rec = await emulator.slash_command(
                club.guild, club.channel, player, "stud", subcommand="join"
            )
            await rec.response(timeout=10)
        rec = await emulator.slash_command(
            club.guild, club.channel, club.players[0], "stud", subcommand="start"
        )
        assert (await rec.response(timeout=10)).content.startswith("Dealing hand #1")
        await emulator.wait_for(lambda: club.action_message(), 10)
    except BaseException:
        proc.kill()
        raise
    proc.send_signal(signal.SIGTERM)
    code, out, err = await finish(proc)
    assert code == 0, err
    assert "Traceback" not in err + out
    async with await open_database(tmp_path / "bot.sqlite3") as db:
        [hand] = await hands_db.hands_in_progress(db)
        assert hand.number == 1


async def test_sync_publishes_the_commands_globally(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    env = environment(emulator, tmp_path, DISCORD_TOKEN=emulator.token)
    code, out, err = await finish(await dealerbot(env, tmp_path, "sync"))
    assert code == 0, err
    assert "synced 2 commands globally: /stud, /stud-admin" in out
    names = sorted(c["name"] for c in emulator.commands())
    assert names == ["stud", "stud-admin"]
    [stud] = [c for c in emulator.commands() if c["name"] == "stud"]
    subs = sorted(o["name"] for o in stud["options"])
    assert subs == sorted(
        [
            "join",
            "leave",
            "start",
            "sitout",
            "sitin",
            "addchips",
            "cards",
            "table",
            "rules",
            "balance",
            "leaderboard",
            "daily",
            "verify",
            "alerts",
            "deck",
            "history",
            "hand",
            "stats",
        ]
    )

"""Discord refuses the command list (400, code 50035; issue 16 part 1, the bot's side).

One bad field refuses the whole bulk overwrite, so nothing is registered. The bot says so
plainly, as a bug in dealerbot to report, with Discord's path and message: at start (the
``DEV_GUILD_ID`` sync, an ERROR that says the server has NO slash commands; the bot keeps
running for the tables in play) and in ``dealerbot sync`` (exit code 1, nothing published).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from dealerbot.tables import events as ev
from tests.bot.emulator import DiscordEmulator, discord_py_pointed_at

from .driver import Club, action_buttons, passive
from .test_process import dealerbot, environment, finish

# Discord's answer to an option range past 2**53-1 (its JSON error format; the path is the
# field's place in the bulk overwrite's array).
PATH = "0.options.2.options.0.max_value"
MESSAGE = "int value should be less than or equal to 9007199254740991."
REFUSAL = {
    "message": "Invalid Form Body",
    "code": 50035,
    "errors": {
        "0": {
            "options": {
                "2": {
                    "options": {
                        "0": {
                            "max_value": {
                                "_errors": [{"code": "NUMBER_TYPE_MAX", "message": MESSAGE}]
                            }
                        }
                    }
                }
            }
        }
    },
}
GUILD_SYNC = "/applications/*/guilds/*/commands"


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "dealerbot.bot.client" and r.levelno == logging.ERROR
    ]


async def test_a_refused_sync_at_start_says_the_server_has_no_commands(
    emulator: DiscordEmulator, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
        club = Club(emulator, tmp_path / "bot.sqlite3", players=2)
        emulator.fail_next("PUT", GUILD_SYNC, 400, body=REFUSAL)
        with caplog.at_level(logging.INFO):
            await club.start_bot()
        try:
            [said] = refusals(caplog)
            assert said.startswith(f"dealerbot has NO slash commands on server {club.guild.id}")
            assert "(HTTP 400, code 50035: Invalid Form Body)" in said
            assert "This is a bug in dealerbot" in said and "report it" in said
            assert f"  Discord: In {PATH}: {MESSAGE}" in said.splitlines()
            assert "discord.py: In group 'stud'" in said  # the path read as the command
            assert "keeps running" in said and " now " not in said
            assert emulator.commands(club.guild) == []
            assert club.bot.is_ready() and not club.bot.is_closed()
        finally:
            await club.stop_bot()


async def test_after_a_refused_sync_the_table_in_play_still_deals(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    """Why the bot keeps running: a hand in progress is played out with its buttons."""
    await club.seat(club.players[:2])
    await club.start_hand()
    await club.wait_turn()
    await club.stop_bot()
    before = len(club.emu.commands(club.guild))
    club.emu.fail_next("PUT", GUILD_SYNC, 400, body=REFUSAL)
    with caplog.at_level(logging.INFO):
        await club.start_bot()
    [said] = refusals(caplog)
    assert said.startswith(
        f"dealerbot's slash commands were NOT updated on server {club.guild.id} (DEV_GUILD_ID): "
        f"it keeps the {before} commands of an earlier sync"
    )
    assert f"In {PATH}: {MESSAGE}" in said
    message, user = await club.wait_turn()
    answer = await club.click(message, passive(action_buttons(message)), club.member(user))
    assert answer.type == 7  # the button still answers
    await club.play_hand(passive)
    await club.settle()
    [ended] = club.recorder.of(ev.HandEnded)
    assert not ended.cancelled


async def test_a_refused_dealerbot_sync_says_it_is_a_bug_and_fails(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    env = environment(emulator, tmp_path, DISCORD_TOKEN=emulator.token)
    emulator.fail_next("PUT", "/applications/*/commands", 400, body=REFUSAL)
    code, out, err = await finish(await dealerbot(env, tmp_path, "sync"))
    assert code == 1
    assert "Traceback" not in err + out and "synced" not in out
    lines = err.strip().splitlines()
    assert lines[0] == (
        "dealerbot: Discord refused the slash commands globally (HTTP 400, code 50035: "
        "Invalid Form Body); nothing was published: the commands there stay as they were."
    )
    assert (
        lines[1]
        == "This is a bug in dealerbot, not in your setup: please report it with these lines."
    )
    assert f"  Discord: In {PATH}: {MESSAGE}" in lines
    assert emulator.commands() == []
    assert emulator.requests("PUT", f"/applications/{emulator.application_id}/commands", status=400)

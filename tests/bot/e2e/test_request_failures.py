"""Failed requests never loop: a 4xx is dropped after one try, a 5xx backs off, a lost DM
points the player at "My cards" (issue 12, points 3 and 4)."""

from __future__ import annotations

import logging
from types import SimpleNamespace

import discord
import pytest

from dealerbot.bot.table_channel import (
    RETRY_CAP,
    ChannelGone,
    ChannelUnavailable,
    Failure,
    backoff,
    classify,
)
from dealerbot.bot.table_messages import TableMessenger

from .driver import Club, age_tokens, message_text, passive


def http_error(status: int, code: int = 0, kind: type = discord.HTTPException) -> Exception:
    response = SimpleNamespace(status=status, reason="test")
    return kind(response, {"code": code, "message": f"error {code}"})


def messenger(club: Club) -> TableMessenger:
    relay = club.bot.relay
    assert relay is not None
    return relay.messenger(club.guild.id, club.channel.id)


async def time_passes(club: Club, seconds: float) -> None:
    service = club.bot.service
    assert service is not None
    await club.clock.advance(seconds)
    await service.wait_idle()
    await club.settle()


def test_every_answer_has_a_bounded_reaction() -> None:
    assert classify(ChannelGone("x")) is Failure.GONE
    assert classify(ChannelUnavailable("x")) is Failure.UNAVAILABLE
    assert classify(http_error(400, 50035)) is Failure.REFUSED
    assert classify(http_error(404, 10014, discord.NotFound)) is Failure.REFUSED
    assert classify(http_error(429)) is Failure.TRANSIENT
    assert classify(http_error(503, kind=discord.DiscordServerError)) is Failure.TRANSIENT
    assert classify(TimeoutError()) is Failure.TRANSIENT
    delays = [backoff(n) for n in range(1, 12)]
    assert delays[:4] == [3.0, 6.0, 12.0, 24.0]
    assert delays == sorted(delays) and delays[-1] == RETRY_CAP
    assert backoff(10_000) == RETRY_CAP


async def test_a_400_on_the_table_edit_is_logged_once_and_not_retried(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()
    message, _ = await club.wait_turn()
    path = f"/channels/{club.channel.id}/messages/*"
    age_tokens(club)  # no token is fresh: the edit goes by REST
    club.emu.fail_next("PATCH", path, 400, code=50035, message="Invalid Form Body", times=100)
    with caplog.at_level(logging.WARNING, logger="dealerbot"):
        await time_passes(club, 46)  # the turn clock runs out: the table message is edited
    refused = club.emu.requests("PATCH", f"/messages/{message['id']}", status=400)
    assert len(refused) == 1
    table = messenger(club)
    assert table._retry is None and table.task is None  # nothing scheduled: no loop
    lines = [r.getMessage() for r in caplog.records if "table edit failed" in r.getMessage()]
    assert len(lines) == 1 and "Invalid Form Body" in lines[0] and "dropped" in lines[0]


async def test_a_5xx_on_the_table_edit_backs_off_then_succeeds(club: Club) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()
    message, _ = await club.wait_turn()
    age_tokens(club)  # no token is fresh: the edit goes by REST
    club.emu.fail_next("PATCH", f"/channels/{club.channel.id}/messages/*", 503)
    await time_passes(club, 46)
    table = messenger(club)
    assert table.failures == 1 and table._retry is not None  # one retry waiting, not a loop
    assert len(club.emu.requests("PATCH", f"/messages/{message['id']}", status=503)) == 1
    table._retry.cancel()  # the retry's time has come
    table._retry = None
    table.kick()
    await club.settle()
    assert table.failures == 0
    assert "time runs out" in message_text(club.emu.message(message["id"]))


async def test_a_dm_discord_py_gave_up_on_points_the_player_at_my_cards(club: Club) -> None:
    unlucky = club.players[1]
    dm = club.emu.dm_channel(unlucky)
    club.emu.fail_next("POST", f"/channels/{dm.id}/messages", 429, via=False)
    await club.seat(club.players[:2])
    await club.start_hand()
    await club.play_hand(passive)  # he clicks: told privately, at his first click
    await club.settle()
    notices = [m for m in club.public_messages() if f"<@{unlucky.id}>" in (m.get("content") or "")]
    assert notices == []
    told = [m for m in club.emu.ephemeral_messages(unlucky) if "My cards" in str(m)]
    assert len(told) == 1 and "did not deliver" in str(told[0])  # not "allow direct messages"

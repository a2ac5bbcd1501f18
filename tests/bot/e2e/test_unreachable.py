"""Discord out of reach (issue 21): every request fails at once; the bot says so in one
log line per kind of request a minute, never a traceback per request, and goes on."""

from __future__ import annotations

import logging
from collections import Counter

import discord.http
import pytest

from .driver import Club
from .test_faults import time_passes

DEAD = "http://127.0.0.1:9/api/v10"  # the discard port: nothing listens there


async def test_discord_out_of_reach_is_told_once_a_minute_per_kind(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    await club.seat(club.players[:4])
    await club.start_hand()
    await club.wait_turn()
    base = discord.http.Route.BASE
    discord.http.Route.BASE = DEAD
    try:
        with caplog.at_level(logging.INFO, logger="dealerbot"):
            for _ in range(6):  # time banks and timeouts: table edits, alerts, the next deal
                await time_passes(club, 80)
    finally:
        discord.http.Route.BASE = base
    records = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert records, "nothing said about the failed requests"
    assert not [r for r in records if r.exc_info], "a traceback for a failed request"
    said = [r.getMessage() for r in records]
    failed = Counter(line.split(" failed (")[0] for line in said if " failed (" in line)
    assert failed and all(n == 1 for n in failed.values()), failed
    assert len(records) <= 6, [r.getMessage() for r in records]

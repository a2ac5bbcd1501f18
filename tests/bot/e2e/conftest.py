"""Fixtures for the end-to-end bot tests: the emulator plus a club with the bot connected.

Every test with a club ends with the audit: whatever Discord did to the bot (faults,
refusals, deleted channels), every chip is still accounted for (issue 12).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from dealerbot.store.audit import audit
from tests.bot.emulator import DiscordEmulator, discord_py_pointed_at

from .driver import Club


@pytest.fixture
async def club(emulator: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Club]:
    """Eight players and an admin in one guild, the bot connected on a fresh database."""
    with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
        club = Club(emulator, tmp_path / "dealerbot.sqlite3")
        await club.start_bot()
        try:
            yield club
            await audit_clean(club)
        finally:
            await club.stop_bot()


async def audit_clean(club: Club) -> None:
    """The audit of the club's database, when a bot is running (a test may stop it)."""
    if club.running is None or club.bot.service is None:
        return
    await club.settle()
    report = await audit(club.bot.service.db)
    assert report.ok, report.render()

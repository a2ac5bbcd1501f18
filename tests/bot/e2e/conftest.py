"""Fixtures for the end-to-end bot tests: the emulator plus a club with the bot connected."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

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
        finally:
            await club.stop_bot()

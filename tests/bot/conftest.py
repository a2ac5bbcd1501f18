"""Fixtures for bot tests: a fresh Discord emulator per test."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.bot.emulator import DiscordEmulator


@pytest.fixture
async def emulator() -> AsyncIterator[DiscordEmulator]:
    """A started emulator on 127.0.0.1 (random port), stopped after the test."""
    emu = DiscordEmulator()
    await emu.start()
    try:
        yield emu
    finally:
        await emu.stop()

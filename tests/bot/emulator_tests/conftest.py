"""Fixtures for the emulator's own tests: a world and a connected demo bot."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import discord
import pytest

from tests.bot.emulator import (
    DiscordEmulator,
    discord_py_pointed_at,
)

from .demo_bot import DemoBot, ErrorCollector, World, build_bot


@pytest.fixture
def world(emulator: DiscordEmulator) -> World:
    guild = emulator.add_guild("Stud Club")
    table = emulator.add_text_channel(guild, "table-1")
    alice = emulator.add_member(guild, "alice")
    bob = emulator.add_member(guild, "bob", dm_blocked=True)
    boss = emulator.add_member(guild, "boss", admin=True)
    return World(emulator, guild, table, alice, bob, boss)


@pytest.fixture
async def bot(world: World) -> AsyncIterator[DemoBot]:
    emu = world.emu
    collector = ErrorCollector()
    logging.getLogger("discord").addHandler(collector)
    with discord_py_pointed_at(emu.api_base, emu.gateway_url):
        demo = build_bot()
        task = asyncio.create_task(demo.client.start(emu.token))
        try:
            await asyncio.wait_for(demo.ready.wait(), timeout=10)
            target = discord.Object(world.guild.id)
            demo.tree.copy_global_to(guild=target)
            await demo.tree.sync(guild=target)
            await demo.tree.sync()  # global too, for DMs
            yield demo
        finally:
            await demo.client.close()
            await asyncio.wait_for(task, timeout=10)
            logging.getLogger("discord").removeHandler(collector)
    assert [r.getMessage() for r in collector.records] == []

"""The emulator against a real discord.py client: the gateway.

Resume, reconnect, member chunking over zlib-stream, privileged intents.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
import pytest

from tests.bot.emulator import (
    discord_py_pointed_at,
)

from .demo_bot import DemoBot, World

# ----- gateway ----------------------------------------------------------------------------


async def test_gateway_drop_then_resume_replays_missed_interaction(
    world: World, bot: DemoBot
) -> None:
    emu = world.emu
    session_before = emu.gateway.current
    assert session_before is not None
    emu.hold_reconnects()
    await emu.drop_connection()
    assert not emu.gateway.connected
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="hello")
    emu.release_reconnects()
    await asyncio.wait_for(bot.resumed.wait(), timeout=10)
    resp = await rec.response(timeout=5)
    assert resp.content == "hello alice x1"
    assert emu.gateway.current is session_before
    assert emu.gateway.identify_count == 1 and emu.gateway.resume_count == 1
    [resume] = emu.gateway.received(6)
    assert resume.d["session_id"] == session_before.id
    replayed = [f for f in emu.gateway_frames if f.t == "INTERACTION_CREATE"]
    assert len(replayed) == 1 and replayed[0].time > resume.time
    assert any(c.path == "/gateway/resume" for c in emu.gateway.connections)


async def test_abrupt_drop_also_resumes(world: World, bot: DemoBot) -> None:
    emu = world.emu
    await emu.drop_connection(abrupt=True)
    await asyncio.wait_for(bot.resumed.wait(), timeout=10)
    rec = await emu.slash_command(world.guild, world.table, world.bob, "demo", subcommand="hello")
    assert (await rec.response(timeout=5)).content == "hello bob x1"


async def test_reconnect_opcode_and_resumable_invalid_session(world: World, bot: DemoBot) -> None:
    # (A non-resumable op 9 makes discord.py sleep 5 s before re-identifying: not tested.)
    emu = world.emu
    emu.send_reconnect()
    await asyncio.wait_for(bot.resumed.wait(), timeout=10)
    assert emu.gateway.resume_count == 1
    bot.resumed.clear()
    emu.invalidate_session(resumable=True)
    await asyncio.wait_for(bot.resumed.wait(), timeout=10)
    assert (emu.gateway.identify_count, emu.gateway.resume_count) == (1, 2)
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="hello")
    assert (await rec.response(timeout=5)).type == 4


async def test_members_intent_chunking_over_zlib_stream(world: World) -> None:
    emu = world.emu
    emu.allowed_privileged_intents = 1 << 1  # GUILD_MEMBERS granted to the application
    emu.gateway.compress = True
    intents = discord.Intents.default()
    intents.members = True
    ready = asyncio.Event()
    with discord_py_pointed_at(emu.api_base, emu.gateway_url):
        client = discord.Client(intents=intents, guild_ready_timeout=0.1)
        client.event(_setter("on_ready", ready))
        task = asyncio.create_task(client.start(emu.token))
        try:
            await asyncio.wait_for(ready.wait(), timeout=10)
            guild = client.get_guild(world.guild.id)
            assert guild is not None and guild.chunked
            assert sorted(m.name for m in guild.members) == ["alice", "bob", "boss", "dealerbot"]
            assert any(c.compressor is not None for c in emu.gateway.connections)
            late = emu.add_member(world.guild, "carol")
            await emu.wait_for(lambda: guild.get_member(late.id) is not None)
        finally:
            await client.close()
            await asyncio.wait_for(task, timeout=10)


def _setter(name: str, event: asyncio.Event) -> Any:
    async def handler() -> None:
        event.set()

    handler.__name__ = name
    return handler


async def test_privileged_intents_are_refused(world: World) -> None:
    emu = world.emu
    with discord_py_pointed_at(emu.api_base, emu.gateway_url):
        client = discord.Client(intents=discord.Intents.all())
        with pytest.raises(discord.PrivilegedIntentsRequired):
            await asyncio.wait_for(client.start(emu.token), timeout=10)
        await client.close()

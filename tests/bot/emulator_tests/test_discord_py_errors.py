"""The emulator against a real discord.py client: errors as Discord gives them.

Each one must reach discord.py as the matching exception (or retry, for a 429).
"""

from __future__ import annotations

import asyncio
import io

import aiohttp
import discord
import pytest

from .demo_bot import DemoBot, World, table_channel

# ----- errors as Discord gives them ----------------------------------------------------


async def test_dm_to_blocked_user_is_forbidden_50007(world: World, bot: DemoBot) -> None:
    emu = world.emu
    bob = await bot.client.fetch_user(world.bob.id)
    with pytest.raises(discord.Forbidden) as caught:
        await bob.send("your cards")
    assert caught.value.code == 50007
    assert [r.status for r in emu.requests("POST", "/users/@me/channels")] == [200]
    assert emu.dm_messages(world.bob) == []
    alice = await bot.client.fetch_user(world.alice.id)
    await alice.send("your cards: Ah Kd")
    assert [m["content"] for m in emu.dm_messages(world.alice)] == ["your cards: Ah Kd"]


async def test_missing_permissions_50013_but_interactions_still_answer(
    world: World, bot: DemoBot
) -> None:
    emu = world.emu
    emu.set_bot_channel_access(world.table, can_send=False)
    channel = table_channel(bot, world)
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("table")
    assert caught.value.code == 50013
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="hello")
    assert (await rec.response(timeout=5)).type == 4
    assert not int(rec.payload["app_permissions"]) & (1 << 11)


async def test_injected_429_on_edit_is_retried(world: World, bot: DemoBot) -> None:
    emu = world.emu
    channel = table_channel(bot, world)
    msg = await channel.send("v1")
    emu.fail_next("PATCH", f"/channels/{world.table.id}/messages/*", status=429, retry_after=0.05)
    edited = await msg.edit(content="v2")
    assert edited.content == "v2"
    patches = emu.requests("PATCH", f"/messages/{msg.id}")
    assert [r.status for r in patches] == [429, 200]
    assert patches[0].injected and patches[0].response["retry_after"] == 0.05
    assert [m["content"] for m in emu.channel_messages(world.table)] == ["v2"]


async def test_injected_403_reaches_discord_py_as_forbidden(world: World, bot: DemoBot) -> None:
    emu = world.emu
    channel = table_channel(bot, world)
    emu.fail_next("POST", "/channels/*/messages", status=403, code=50001, message="Missing Access")
    with pytest.raises(discord.Forbidden) as caught:
        await channel.send("x")
    assert caught.value.code == 50001
    assert emu.invalid_request_count == 1
    await channel.send("y")
    assert [m["content"] for m in emu.channel_messages(world.table)] == ["y"]


async def test_moderator_delete_makes_edit_not_found(world: World, bot: DemoBot) -> None:
    emu = world.emu
    channel = table_channel(bot, world)
    msg = await channel.send("table state")
    await emu.wait_for(lambda: msg.id in bot.seen_messages)
    emu.delete_message(msg.id)
    with pytest.raises(discord.NotFound) as caught:
        await msg.edit(content="new state")
    assert caught.value.code == 10008
    await emu.wait_for(lambda: msg.id in bot.raw_deletes)
    assert emu.channel_messages(world.table) == []
    assert emu.stored_message(msg.id).deleted_by == "moderator"


async def test_late_answer_gets_unknown_interaction_10062(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="late")
    await asyncio.wait_for(bot.late_started.wait(), timeout=5)
    rec.expire()  # as if the 3 s had passed
    bot.gate.set()
    await emu.wait_for(lambda: bot.late_errors, timeout=5)
    [error] = bot.late_errors
    assert isinstance(error, discord.NotFound)
    assert error.code == 10062
    assert rec.callback is None
    assert [r.code for r in rec.rejected] == [10062]


async def test_shrunk_interaction_timeout(world: World, bot: DemoBot) -> None:
    emu = world.emu
    emu.interaction_timeout = 0.0  # every answer is late
    bot.gate.set()
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="late")
    await emu.wait_for(lambda: bot.late_errors, timeout=5)
    assert bot.late_errors[0].code == 10062
    assert rec.callback is None


async def test_second_callback_and_early_followup_raw(world: World, bot: DemoBot) -> None:
    emu = world.emu
    bot.gate.set()
    emu.interaction_timeout = 60.0
    # discord.py refuses a double response locally, so speak HTTP directly.
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="hello")
    await rec.response(timeout=5)
    url = f"{emu.api_base}/interactions/{rec.id}/{rec.token}/callback?with_response=1"
    async with (
        aiohttp.ClientSession() as http,
        http.post(url, json={"type": 4, "data": {"content": "again"}}) as resp,
    ):
        assert resp.status == 400
        assert resp.headers["Content-Type"] == "application/json"
        body = await resp.json()
    assert body["code"] == 40060
    assert body["message"] == "Interaction has already been acknowledged."
    assert [r.code for r in rec.rejected] == [40060]
    assert rec.callback is not None and rec.callback.content == "hello alice x1"


async def test_webhook_rules_raw(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="late")
    hook = f"{emu.api_base}/webhooks/{emu.application_id}/{rec.token}"
    async with aiohttp.ClientSession() as http:
        # A follow-up before any callback: Discord knows no such webhook yet.
        async with http.post(f"{hook}?wait=true", json={"content": "early"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10015)
        bot.gate.set()
        await rec.response(timeout=5)
        async with http.post(f"{hook}?wait=true", json={"content": "in time"}) as resp:
            assert resp.status == 200
        rec.expire(16 * 60)  # past the 15-minute follow-up window
        async with http.patch(f"{hook}/messages/@original", json={"content": "x"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (401, 50027)
    assert [r.code for r in rec.rejected] == [10015, 50027]
    assert [m["content"] for m in rec.followups()] == ["in time"]


async def test_file_upload_becomes_attachment(world: World, bot: DemoBot) -> None:
    emu = world.emu
    channel = table_channel(bot, world)
    sent = await channel.send("hand", file=discord.File(io.BytesIO(b"Ah Kd"), "hand.txt"))
    assert [a.filename for a in sent.attachments] == ["hand.txt"]
    [stored] = emu.channel_messages(world.table)
    assert stored["attachments"][0]["size"] == 5
    async with aiohttp.ClientSession() as http, http.get(sent.attachments[0].url) as resp:
        assert await resp.read() == b"Ah Kd"

"""The emulator against a real discord.py client: login and interaction responses.

A tiny bot (demo_bot.py) answers through discord.py's own HTTP and gateway code, so these
tests prove the emulator speaks the protocol discord.py expects.
"""

from __future__ import annotations

import pytest

from .demo_bot import EPHEMERAL, LOADING, DemoBot, World

# ----- connection and registration --------------------------------------------------


async def test_login_ready_and_guild_create(world: World, bot: DemoBot) -> None:
    emu = world.emu
    client = bot.client
    assert client.user is not None and client.user.id == emu.bot_user.id
    assert client.application_id == emu.application_id
    guild = client.get_guild(world.guild.id)
    assert guild is not None
    assert guild.member_count == len(world.guild.members) == 4  # three players + the bot
    assert [c.name for c in guild.text_channels] == ["table-1"]
    assert guild.me is not None
    paths = [(r.method, r.path) for r in emu.requests()]
    assert ("GET", "/users/@me") in paths
    assert ("GET", "/oauth2/applications/@me") in paths
    assert ("GET", "/gateway/bot") not in paths  # non-sharded clients go straight to the gateway
    assert emu.unknown_routes == []
    [demo_cmd] = emu.commands(world.guild)
    assert demo_cmd["name"] == "demo"
    assert sorted(o["name"] for o in demo_cmd["options"]) == [
        "ask",
        "counter",
        "hello",
        "late",
        "menu",
        "progress",
        "slow",
    ]
    assert [c["name"] for c in emu.commands()] == ["demo"]


# ----- interaction responses ------------------------------------------------------------


async def test_ephemeral_reply(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(
        world.guild, world.table, world.alice, "demo", subcommand="hello", options={"times": 3}
    )
    assert rec.payload["data"]["guild_id"] == str(world.guild.id)
    assert rec.payload["data"]["options"] == [
        {"name": "hello", "type": 1, "options": [{"name": "times", "type": 4, "value": 3}]}
    ]
    resp = await rec.response(timeout=5)
    assert resp.type == 4
    assert resp.ephemeral
    assert resp.content == "hello alice x3"
    assert emu.channel_messages(world.table) == []
    [shown] = emu.ephemeral_messages(world.alice)
    assert shown["content"] == "hello alice x3"
    assert shown["flags"] & EPHEMERAL


async def test_defer_then_followups(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="slow")
    resp = await rec.response(timeout=5)
    assert resp.type == 5
    first, second = await rec.wait_followups(2, timeout=5)
    # The first follow-up replaced the public "thinking…" placeholder and stayed public.
    assert first["id"] == str(rec.original_message_id)
    assert first["content"] == "done"
    assert not first["flags"] & (LOADING | EPHEMERAL)
    # The second one is a new message and honours its ephemeral flag.
    assert second["content"] == "second"
    assert second["flags"] & EPHEMERAL
    assert [m["content"] for m in emu.channel_messages(world.table)] == ["done"]


async def test_dynamic_button_click_edits_message(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(
        world.guild, world.table, world.alice, "demo", subcommand="counter"
    )
    assert (await rec.response(timeout=5)).type == 4
    message_id = rec.original_message_id
    assert message_id is not None
    click = await emu.click(message_id, "demo:count:0", world.bob)
    resp = await click.response(timeout=5)
    assert resp.type == 7
    assert click.payload["message"]["id"] == str(message_id)
    [msg] = emu.channel_messages(world.table)
    assert msg["content"] == "count=1"
    assert msg["components"][0]["components"][0]["custom_id"] == "demo:count:1"
    again = await emu.click(message_id, "demo:count:1", world.alice)
    await again.response(timeout=5)
    assert emu.message(message_id)["content"] == "count=2"
    with pytest.raises(ValueError, match="no component"):
        await emu.click(message_id, "demo:count:0", world.alice)


async def test_plain_view_is_tied_to_the_response_message(world: World, bot: DemoBot) -> None:
    emu = world.emu
    menus = []
    for tag in ("A", "B"):
        rec = await emu.slash_command(
            world.guild, world.table, world.alice, "demo", subcommand="menu", options={"tag": tag}
        )
        await rec.response(timeout=5)
        assert rec.original_message_id is not None
        menus.append(rec.original_message_id)
    click = await emu.click(menus[0], "demo:menu:ok", world.boss)
    resp = await click.response(timeout=5)
    assert (resp.type, resp.content, resp.ephemeral) == (4, "menu A ok by boss", True)


async def test_deferred_update_then_edit_original(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(
        world.guild, world.table, world.alice, "demo", subcommand="menu", options={"tag": "T"}
    )
    await rec.response(timeout=5)
    menu_id = rec.original_message_id
    assert menu_id is not None
    click = await emu.click(menu_id, "demo:menu:later", world.bob)
    assert (await click.response(timeout=5)).type == 6
    await emu.wait_for(lambda: emu.message(menu_id)["content"] == "menu T updated later")
    assert click.original_message_id == menu_id
    picked = await emu.select(menu_id, "demo:menu:pick", world.bob, ["stud8"])
    assert (await picked.response(timeout=5)).content == "picked stud8"
    with pytest.raises(ValueError, match="not among the options"):
        await emu.select(menu_id, "demo:menu:pick", world.bob, ["holdem"])


async def test_edit_original_and_followup_edits(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(
        world.guild, world.table, world.alice, "demo", subcommand="progress"
    )
    await rec.wait_followups(2, timeout=5)
    original = rec.original()
    assert original is not None
    assert (original["content"], original["flags"] & EPHEMERAL) == ("step 2", EPHEMERAL)
    assert [m["content"] for m in rec.followups()] == ["f1 edited", "original says step 2"]
    assert [kind for kind, _ in rec.events] == ["callback", "edit", "followup", "edit", "followup"]


async def test_slash_command_in_dms(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(None, None, world.alice, "demo", subcommand="hello")
    assert "guild_id" not in rec.payload and rec.payload["context"] == 1
    assert rec.payload["user"]["id"] == str(world.alice.id)
    resp = await rec.response(timeout=5)
    assert resp.content == "hello alice x1"


async def test_admin_only_command_hidden_unless_forced(world: World, bot: DemoBot) -> None:
    emu = world.emu
    # Pretend the bot registered /demo as admin-only (as `default_permissions` would).
    emu.commands_store.listing(world.guild.id)[0]["default_member_permissions"] = str(1 << 5)
    with pytest.raises(PermissionError):
        await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="hello")
    rec = await emu.slash_command(world.guild, world.table, world.boss, "demo", subcommand="hello")
    assert (await rec.response(timeout=5)).type == 4
    forced = await emu.slash_command(
        world.guild, world.table, world.alice, "demo", subcommand="hello", force=True
    )
    assert (await forced.response(timeout=5)).type == 4
    member = forced.payload["member"]
    assert not int(member["permissions"]) & (1 << 5)
    assert int(rec.payload["member"]["permissions"]) & (1 << 5)


async def test_modal_shown_then_submitted(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(world.guild, world.table, world.alice, "demo", subcommand="ask")
    shown = await rec.response(timeout=5)
    assert shown.type == 9 and shown.data["title"] == "Sit down"
    with pytest.raises(ValueError, match="takes 1 to 6 characters"):
        await emu.submit_modal(rec, {"demo:buyin:amount": "1234567"})
    with pytest.raises(ValueError, match="required"):
        await emu.submit_modal(rec, {"demo:buyin:note": "hi"})
    submit = await emu.submit_modal(rec, {"demo:buyin:amount": "250"})
    answer = await submit.response(timeout=5)
    assert answer.ephemeral and answer.content == "buy-in 250 note=''"
    assert submit.payload["type"] == 5 and submit.user_id == world.alice.id
    with pytest.raises(ValueError, match="already submitted"):
        await emu.submit_modal(rec, {"demo:buyin:amount": "1"})
    emu.assert_nothing_refused()


async def test_modal_from_a_button_carries_the_message(world: World, bot: DemoBot) -> None:
    emu = world.emu
    rec = await emu.slash_command(
        world.guild, world.table, world.alice, "demo", subcommand="menu", options={"tag": "M"}
    )
    await rec.response(timeout=5)
    assert rec.original_message_id is not None
    click = await emu.click(rec.original_message_id, "demo:menu:sit", world.bob)
    assert (await click.response(timeout=5)).type == 9
    submit = await emu.submit_modal(click, {"demo:buyin:amount": "40", "demo:buyin:note": "hi"})
    answer = await submit.response(timeout=5)
    assert answer.content == "buy-in 40 note='hi'"
    assert submit.payload["message"]["id"] == str(rec.original_message_id)
    assert submit.user_id == world.bob.id

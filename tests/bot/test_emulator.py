"""The Discord emulator against a real discord.py client.

A tiny bot defined here connects to the emulator through discord.py's own HTTP and
gateway code, so these tests prove the emulator speaks the protocol discord.py expects
(and that its error behaviour reaches discord.py as the matching exceptions).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.bot.emulator import (
    Channel,
    DiscordEmulator,
    Guild,
    Member,
    discord_py_pointed_at,
)

EPHEMERAL = 64
LOADING = 128


class CountButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"demo:count:(?P<n>\d+)"
):
    """A stateless counter button: its count lives in its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}",
                custom_id=f"demo:count:{n}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> CountButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class MenuView(discord.ui.View):
    """A plain (non-persistent) view. Two menus share the custom_id, so a click reaches
    the right view only if discord.py tied each view to the message id the callback
    response reported (`interaction.response_message_id`)."""

    def __init__(self, tag: str) -> None:
        super().__init__(timeout=60)
        self.tag = tag

    @discord.ui.button(label="OK", custom_id="demo:menu:ok")
    async def ok(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_message(
            f"menu {self.tag} ok by {interaction.user.name}", ephemeral=True
        )

    @discord.ui.button(label="Later", custom_id="demo:menu:later")
    async def later(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.defer()  # type 6: deferred update of this message
        await interaction.edit_original_response(content=f"menu {self.tag} updated later")

    @discord.ui.select(
        custom_id="demo:menu:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("stud", "stud8")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


@dataclass
class DemoBot:
    """discord.Client + CommandTree with a `demo` group exercising each response path."""

    client: discord.Client
    tree: app_commands.CommandTree[discord.Client]
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    resumed: asyncio.Event = field(default_factory=asyncio.Event)
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    late_started: asyncio.Event = field(default_factory=asyncio.Event)
    late_errors: list[discord.HTTPException] = field(default_factory=list)
    raw_deletes: list[int] = field(default_factory=list)
    seen_messages: list[int] = field(default_factory=list)


def build_bot() -> DemoBot:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.1)
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    bot = DemoBot(client=client, tree=tree)
    demo = app_commands.Group(name="demo", description="Emulator demo commands")

    @demo.command(name="hello", description="Ephemeral greeting")
    async def hello(interaction: discord.Interaction[Any], times: int = 1) -> None:
        await interaction.response.send_message(
            f"hello {interaction.user.name} x{times}", ephemeral=True
        )

    @demo.command(name="slow", description="Defer, then follow up")
    async def slow(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(thinking=True)
        # Asks for ephemeral, but the first follow-up inherits the defer's visibility.
        await interaction.followup.send("done", ephemeral=True)
        await interaction.followup.send("second", ephemeral=True)

    @demo.command(name="counter", description="Message with a dynamic button")
    async def counter(interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CountButton(0))
        await interaction.response.send_message("count=0", view=view)

    @demo.command(name="menu", description="Message with a plain view")
    async def menu(interaction: discord.Interaction[Any], tag: str) -> None:
        await interaction.response.send_message(f"menu {tag}", view=MenuView(tag))

    @demo.command(name="progress", description="Respond, edit, follow up, edit that")
    async def progress(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("step 1", ephemeral=True)
        await interaction.edit_original_response(content="step 2")
        followup = await interaction.followup.send("f1", wait=True)
        await followup.edit(content="f1 edited")
        original = await interaction.original_response()
        await interaction.followup.send(f"original says {original.content}")

    @demo.command(name="late", description="Answers only when the test says so")
    async def late(interaction: discord.Interaction[Any]) -> None:
        bot.late_started.set()
        await bot.gate.wait()
        try:
            await interaction.response.send_message("too late?")
        except discord.HTTPException as exc:
            bot.late_errors.append(exc)

    tree.add_command(demo)
    client.add_dynamic_items(CountButton)

    @client.event
    async def on_ready() -> None:
        bot.ready.set()

    @client.event
    async def on_resumed() -> None:
        bot.resumed.set()

    @client.event
    async def on_raw_message_delete(payload: discord.RawMessageDeleteEvent) -> None:
        bot.raw_deletes.append(payload.message_id)

    @client.event
    async def on_message(message: discord.Message) -> None:
        bot.seen_messages.append(message.id)

    return bot


class _ErrorCollector(logging.Handler):
    """Collects ERROR records from discord.py (a payload it failed to parse, say)."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class World:
    emu: DiscordEmulator
    guild: Guild
    table: Channel
    alice: Member
    bob: Member
    boss: Member


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
    collector = _ErrorCollector()
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


def table_channel(bot: DemoBot, world: World) -> discord.TextChannel:
    channel = bot.client.get_channel(world.table.id)
    assert isinstance(channel, discord.TextChannel)
    return channel


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


# ----- raw REST contract ------------------------------------------------------------------


async def test_rest_contract_without_a_bot(emulator: DiscordEmulator) -> None:
    guild = emulator.add_guild()
    channel = emulator.add_text_channel(guild, "t")
    auth = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession(headers=auth) as http:
        async with http.get(f"{emulator.api_base}/users/@me") as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
            for header in ("Limit", "Remaining", "Reset", "Reset-After", "Bucket"):
                assert f"X-RateLimit-{header}" in resp.headers
            assert (await resp.json())["id"] == str(emulator.bot_user.id)
        async with http.get(f"{emulator.api_base}/no/such/route") as resp:
            assert resp.status == 404
            assert await resp.json() == {"message": "404: Not Found", "code": 0}
        rows = [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": f"b{i}"}]}
            for i in range(6)
        ]
        url = f"{emulator.api_base}/channels/{channel.id}/messages"
        async with http.post(url, json={"content": "x", "components": rows}) as resp:
            assert resp.status == 400
            body = await resp.json()
            assert body["code"] == 50035 and "components" in body["errors"]
        async with http.post(url, json={"content": ""}) as resp:
            assert (await resp.json())["code"] == 50006
        async with http.get(f"{url}/12345") as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10008)
        async with http.get(f"{emulator.api_base}/channels/999") as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10003)
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{emulator.api_base}/users/@me") as resp,
    ):
        assert resp.status == 401
    assert ("GET", "/no/such/route") in emulator.unknown_routes
    assert [r.status for r in emulator.requests("GET", "/users/@me")] == [200, 401]


async def test_route_limit_gives_real_429(emulator: DiscordEmulator) -> None:
    guild = emulator.add_guild()
    channel = emulator.add_text_channel(guild, "t")
    emulator.set_route_limit("POST", "/channels/{channel_id}/messages", limit=2, window=60.0)
    url = f"{emulator.api_base}/channels/{channel.id}/messages"
    statuses = []
    remaining = []
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {emulator.token}"}) as http:
        for n in range(3):
            async with http.post(url, json={"content": str(n)}) as resp:
                statuses.append(resp.status)
                remaining.append(resp.headers.get("X-RateLimit-Remaining"))
                body = await resp.json()
    assert statuses == [200, 200, 429]
    assert remaining == ["1", "0", "0"]
    assert body["global"] is False and body["retry_after"] > 0
    assert len(emulator.channel_messages(channel)) == 2

"""A tiny discord.py bot, and the world it plays in, for testing the emulator against
discord.py's own HTTP and gateway code."""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from tests.bot.emulator import (
    Channel,
    DiscordEmulator,
    Guild,
    Member,
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

    @discord.ui.button(label="Sit", custom_id="demo:menu:sit")
    async def sit(
        self, interaction: discord.Interaction[Any], button: discord.ui.Button[Any]
    ) -> None:
        await interaction.response.send_modal(BuyInModal())

    @discord.ui.select(
        custom_id="demo:menu:pick",
        options=[discord.SelectOption(label=x, value=x) for x in ("stud", "stud8")],
    )
    async def pick(
        self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]
    ) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class BuyInModal(discord.ui.Modal, title="Sit down"):
    """A modal as the table's Sit down button will show: one amount, then an answer."""

    amount: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Buy-in", custom_id="demo:buyin:amount", min_length=1, max_length=6
    )
    note: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Note", custom_id="demo:buyin:note", required=False
    )

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"buy-in {self.amount.value} note={self.note.value!r}", ephemeral=True
        )


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

    @demo.command(name="ask", description="Answer with a modal")
    async def ask(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_modal(BuyInModal())

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


class ErrorCollector(logging.Handler):
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


def table_channel(bot: DemoBot, world: World) -> discord.TextChannel:
    channel = bot.client.get_channel(world.table.id)
    assert isinstance(channel, discord.TextChannel)
    return channel

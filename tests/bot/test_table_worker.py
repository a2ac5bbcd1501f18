"""The table message's worker against a scripted channel (no Discord, no emulator): it
never loses a change that came while a request was in flight, whatever became of it."""

from __future__ import annotations

import asyncio
import dataclasses
from types import SimpleNamespace
from typing import Any

import discord

from dealerbot.bot.table_channel import Hub
from dealerbot.bot.table_messages import TableMessenger
from dealerbot.tables import events as ev

from .table_values import CHANNEL, GUILD, playing


def refused(status: int = 400, code: int = 50035) -> discord.HTTPException:
    """What discord.py raises for a 4xx that Discord will never accept as sent."""
    response = SimpleNamespace(status=status, reason="Bad Request")
    return discord.HTTPException(response, {"code": code, "message": "Invalid Form Body"})  # type: ignore[arg-type]


class ScriptedChannel:
    """A channel whose requests the test holds and fails at will; it keeps every edit."""

    def __init__(self) -> None:
        self.posts: list[dict[str, Any]] = []
        self.edits: list[dict[str, Any]] = []
        self.hold: asyncio.Event | None = None  # set: the next edit waits for it
        self.fail_next: Exception | None = None
        self.editing = asyncio.Event()  # an edit is in flight (held)

    async def send(self, **kwargs: Any) -> Any:
        self.posts.append(kwargs)
        return SimpleNamespace(id=1000 + len(self.posts))

    def get_partial_message(self, message_id: int) -> Any:
        async def edit(**kwargs: Any) -> None:
            if self.hold is not None:
                hold, self.hold = self.hold, None
                self.editing.set()
                await hold.wait()
            if self.fail_next is not None:
                error, self.fail_next = self.fail_next, None
                raise error
            self.edits.append({"message_id": message_id, **kwargs})

        return SimpleNamespace(edit=edit)


class ScriptedHub(Hub):
    def __init__(self, channel: ScriptedChannel) -> None:
        async def remember(table_id: int, message_id: int | None) -> None:
            return None

        async def lookup(table_id: int) -> int | None:
            return None

        super().__init__(None, remember, lookup)  # type: ignore[arg-type]
        self.scripted = channel

    def channel(self, channel_id: int, guild_id: int) -> Any:
        return self.scripted

    def knows(self, channel_id: int) -> bool:
        return True


def pot_shown(call: dict[str, Any]) -> str:
    [embed] = call["embeds"]
    return next(str(f.value) for f in embed.fields if f.name == "Pot")


async def settle(messenger: TableMessenger) -> None:
    for _ in range(50):
        task = messenger.task
        if task is None:
            return
        await asyncio.wait({task}, timeout=1)


async def test_a_change_during_a_refused_edit_is_still_shown() -> None:
    """An edit Discord refuses (a 4xx: dropped, never retried) must not take with it the
    change that came while it was in flight: the worker plans again instead of stopping."""
    channel = ScriptedChannel()
    messenger = TableMessenger(ScriptedHub(channel), GUILD, CHANNEL)
    first = playing(pot=12)
    messenger.on_event(ev.TableChanged(GUILD, CHANNEL, first))
    await settle(messenger)
    assert len(channel.posts) == 1

    held = channel.hold = asyncio.Event()
    channel.fail_next = refused()
    messenger.on_event(ev.TableChanged(GUILD, CHANNEL, dataclasses.replace(first, pot=20)))
    await asyncio.wait_for(channel.editing.wait(), 5)  # the edit to pot 20 is in flight
    messenger.on_event(ev.TableChanged(GUILD, CHANNEL, dataclasses.replace(first, pot=30)))
    held.set()  # the edit goes on, to its refusal
    await settle(messenger)

    assert [pot_shown(edit) for edit in channel.edits] == ["30"]

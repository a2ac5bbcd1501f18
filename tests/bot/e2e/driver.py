"""A test driver for the real bot against the Discord emulator: players, commands, clicks.

Everything goes through discord.py and the emulator's wire protocol; the driver reads
only what a player could see (channel messages, DMs, ephemeral answers), plus service
events captured by a subscriber where a test needs the truth (the dealt cards).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from dealerbot.bot.client import DealerBot, point_discord_at
from dealerbot.bot.table_plan import TOKEN_LIFE
from dealerbot.runner import table_service
from dealerbot.settings import Settings
from dealerbot.tables import FakeClock
from dealerbot.tables import events as ev
from tests.bot.emulator import CallbackRecord, Channel, DiscordEmulator, Guild, Member

JSON = dict[str, Any]
DEFERRED = 5
MODAL = 9
TURN_MENTION = re.compile(r"<@(\d+)>")


@dataclass
class Recorder:
    """Every service event, in order (a test's view of the truth)."""

    events: list[ev.TableEvent] = field(default_factory=list)

    async def __call__(self, event: ev.TableEvent) -> None:
        self.events.append(event)

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


@dataclass
class Running:
    bot: DealerBot
    task: asyncio.Task[None]
    recorder: Recorder
    resources: contextlib.AsyncExitStack


class Club:
    """One guild with a table channel, players and an admin, and the bot connected to it."""

    def __init__(self, emu: DiscordEmulator, db_path: Path, players: int = 8) -> None:
        self.emu = emu
        self.db_path = db_path
        self.guild: Guild = emu.add_guild("Stud Club")
        self.channel: Channel = emu.add_text_channel(self.guild, "stud-table")
        self.players: list[Member] = [
            emu.add_member(self.guild, f"player{i}") for i in range(players)
        ]
        self.admin: Member = emu.add_member(self.guild, "boss", admin=True)
        self.clock = FakeClock(start=2_000_000_000.0)
        self.rng = random.Random(1234)
        self.running: Running | None = None

    # --- the bot ---------------------------------------------------------------------

    def settings(self) -> Settings:
        return Settings(
            discord_token=self.emu.token,
            database_path=self.db_path,
            log_level="INFO",
            dev_guild_id=self.guild.id,
            discord_api_base=self.emu.api_base,
            discord_gateway_url=self.emu.gateway_url,
        )

    async def start_bot(self) -> DealerBot:
        settings = self.settings()
        point_discord_at(settings)
        resources = contextlib.AsyncExitStack()
        service = await resources.enter_async_context(
            table_service(settings, clock=self.clock, rng=self.rng)
        )
        bot = DealerBot(settings, service, guild_ready_timeout=0.05)
        recorder = Recorder()
        task = asyncio.create_task(bot.start(self.emu.token))
        waiter = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({task, waiter}, timeout=15, return_when="FIRST_COMPLETED")
        if waiter not in done:
            waiter.cancel()
            await bot.close()
            await resources.aclose()
            if task.done():
                task.result()
            raise TimeoutError("the bot did not become ready")
        service.subscribe(recorder)
        self.running = Running(bot, task, recorder, resources)
        return bot

    async def stop_bot(self) -> None:
        running = self.running
        if running is None:
            return
        self.running = None
        await running.bot.close()
        await asyncio.wait_for(asyncio.gather(running.task, return_exceptions=True), 10)
        await running.resources.aclose()

    @property
    def bot(self) -> DealerBot:
        assert self.running is not None
        return self.running.bot

    @property
    def recorder(self) -> Recorder:
        assert self.running is not None
        return self.running.recorder

    # --- commands ------------------------------------------------------------------------

    async def command(
        self,
        user: Member,
        sub: str,
        *,
        group: str = "stud",
        channel: Channel | None = None,
        in_dm: bool = False,
        force: bool = False,
        **options: Any,
    ) -> JSON:
        """Run ``/group sub`` and return the answer the user sees (after any defer)."""
        rec = await self.emu.slash_command(
            None if in_dm else self.guild,
            None if in_dm else (channel or self.channel),
            user,
            group,
            subcommand=sub,
            options=options or None,
            force=force,
        )
        response = await rec.response(timeout=10)
        if response.type == DEFERRED:
            [answer] = await rec.wait_followups(1, timeout=10)
            return answer
        return _as_message(response)

    async def text(self, user: Member, sub: str, **kwargs: Any) -> str:
        answer = await self.command(user, sub, **kwargs)
        return message_text(answer)

    async def seat(self, players: Sequence[Member], buy_in: int | None = None) -> None:
        for player in players:
            options = {"buy_in": buy_in} if buy_in is not None else {}
            text = await self.text(player, "join", **options)
            assert "You sit in seat" in text, text

    # --- the table ------------------------------------------------------------------------

    def public_messages(self, *, include_deleted: bool = False) -> list[JSON]:
        return self.emu.channel_messages(self.channel, include_deleted=include_deleted)

    def action_message(self) -> JSON | None:
        """The channel message that carries action buttons, if any."""
        for message in reversed(self.public_messages()):
            if action_buttons(message):
                return message
        return None

    async def wait_turn(self, within: float = 10) -> tuple[JSON, int]:
        """The table message with buttons and the user id of the player to act."""

        def ready() -> tuple[JSON, int] | None:
            message = self.action_message()
            if message is None:
                return None
            user = to_act(message)
            return (message, user) if user is not None else None

        return await self.emu.wait_for(ready, within)

    async def click(self, message: JSON, custom_id: str, user: Member | int) -> CallbackRecord:
        rec = await self.emu.click(message["id"], custom_id, user)
        return await rec.response(timeout=10)

    def member(self, user_id: int) -> Member:
        for member in [*self.players, self.admin]:
            if member.id == user_id:
                return member
        raise LookupError(user_id)

    async def join_by_button(
        self, message: JSON, member: Member, amount: str | None = None
    ) -> CallbackRecord:
        """Press **Join…** on ``message`` and send its form as a player would: the buy-in
        filled in by default (``amount`` None), or another amount typed over it."""
        join = next(b for b in buttons(message) if b.get("label") == "Join…")
        shown = await self.emu.click(message["id"], join["custom_id"], member)
        assert (await shown.response()).type == MODAL, "Join… opens the buy-in form"
        assert shown.callback is not None
        [field] = [
            c for row in shown.callback.data["components"] for c in row.get("components") or []
        ]
        typed = field.get("value") if amount is None else amount
        assert typed, "the form comes with the default buy-in filled in"
        return await (await self.emu.submit_modal(shown, {field["custom_id"]: typed})).response()

    async def play_hand(
        self, choose: Any = None, *, max_actions: int = 200
    ) -> list[CallbackRecord]:
        """Click through one hand until its message has no more action buttons."""
        choose = choose or passive
        answers: list[CallbackRecord] = []
        for _ in range(max_actions):
            found = self.action_message()
            if found is None:
                return answers
            message, user = await self.wait_turn()
            buttons = action_buttons(message)
            custom_id = choose(buttons)
            answers.append(await self.click(message, custom_id, user))
            await self.settle()
        raise AssertionError("the hand did not end")

    async def settle(self) -> None:
        """Let queued messages and DMs go out (the bot's background work)."""
        bot = self.bot
        assert bot.relay is not None
        for _ in range(200):
            busy = bot.relay.pending()
            if not busy:
                return
            await asyncio.wait(busy, timeout=5)
        raise AssertionError("background work did not settle")

    async def start_hand(self, starter: Member | None = None) -> None:
        text = await self.text(starter or self.players[0], "start")
        assert text.startswith("Dealing hand"), text
        await self.settle()


# --- reading messages --------------------------------------------------------------------


def _as_message(response: CallbackRecord) -> JSON:
    data = dict(response.data)
    data.setdefault("flags", response.flags)
    return data


def message_text(message: JSON) -> str:
    """Content plus every embed's title, description, fields and footer."""
    parts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        parts.append(embed.get("title") or "")
        parts.append(embed.get("description") or "")
        for f in embed.get("fields") or []:
            parts.append(f"{f.get('name')}: {f.get('value')}")
        parts.append((embed.get("footer") or {}).get("text") or "")
    return "\n".join(p for p in parts if p)


RESULT_TITLE = re.compile(r"hand #\d+ — (?!cancelled)")


def is_result(message: JSON) -> bool:
    """A hand's result: its title names the hand and, after a dash, who won."""
    return any(RESULT_TITLE.search(e.get("title") or "") for e in message.get("embeds") or [])


def buttons(message: JSON) -> list[JSON]:
    found = []
    for row in message.get("components") or []:
        for comp in row.get("components") or []:
            if comp.get("type") == 2:
                found.append(comp)
    return found


def action_buttons(message: JSON) -> dict[str, str]:
    """verb -> custom_id of the action buttons (not "My cards")."""
    out = {}
    for comp in buttons(message):
        cid = comp.get("custom_id", "")
        parts = cid.split(":")
        if len(parts) == 5 and parts[0] == "stud" and parts[1].isdigit():
            out[parts[4]] = cid
    return out


def to_act(message: JSON) -> int | None:
    for embed in message.get("embeds") or []:
        for f in embed.get("fields") or []:
            if f.get("name") == "To act":
                found = TURN_MENTION.search(f.get("value") or "")
                if found:
                    return int(found.group(1))
    return None


def passive(buttons: dict[str, str]) -> str:
    """Check or call to the end (showdown every time); forced bets when they are all."""
    for verb in ("check", "call", "bring_in", "complete", "bet"):
        if verb in buttons:
            return buttons[verb]
    return next(iter(buttons.values()))


def folder(buttons: dict[str, str]) -> str:
    for verb in ("fold", "check"):
        if verb in buttons:
            return buttons[verb]
    return next(iter(buttons.values()))


def aggressive(buttons: dict[str, str]) -> str:
    for verb in ("raise", "bet", "complete", "call", "check", "bring_in"):
        if verb in buttons:
            return buttons[verb]
    return next(iter(buttons.values()))


def random_chooser(rng: random.Random) -> Any:
    def choose(buttons: dict[str, str]) -> str:
        verbs = sorted(buttons)
        weights = [0.3 if v == "fold" else 1.0 for v in verbs]
        return buttons[rng.choices(verbs, weights)[0]]

    return choose


def discord_error(exc: BaseException) -> discord.HTTPException | None:
    return exc if isinstance(exc, discord.HTTPException) else None


def age_tokens(club: Club, seconds: float | None = None) -> None:
    """Make the bot's clock run ahead, so every interaction token it holds is too old to use
    (``seconds`` ahead; default: a token's whole life): its table requests go by REST."""
    relay = club.bot.relay
    assert relay is not None
    ahead = TOKEN_LIFE if seconds is None else seconds
    relay.hub.clock = lambda: time.time() + ahead

"""What every cog and click shares: the bot's service and relay, the checks a command makes
before it acts, one command at a time per member, and the repost cooldown."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from dealerbot.tables import CHIPS, TableService

from ..client import DealerBot
from ..errors import Reply, UserError, answer
from ..relay import TableRelay

NEEDED_IN_CHANNEL = ("view_channel", "send_messages", "embed_links")
STARTING_UP = "The dealer is still starting up; try again in a moment."


def check_can_post(interaction: discord.Interaction[Any]) -> None:
    """Refuse early when the bot could not show the table in this channel."""
    perms = interaction.app_permissions
    missing = [name for name in NEEDED_IN_CHANNEL if not getattr(perms, name, False)]
    if missing:
        names = ", ".join(name.replace("_", " ").title() for name in missing)
        raise UserError(
            f"I cannot show a table in this channel: I need {names} here. "
            "Ask a server admin to allow it, or play in another channel."
        )


def display_name(user: discord.abc.User) -> str:
    """As Discord has it: the table service cleans and cuts names, in one place."""
    return str(getattr(user, "display_name", None) or user.name)


def check_amount(amount: int | None, what: str) -> None:
    """Amounts Discord did not bound (or a crafted request): whole, positive, sane."""
    if amount is None:
        return
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise UserError(f"The {what} must be a whole number of chips.")
    if amount <= 0:
        raise UserError(f"The {what} must be more than zero.")
    if amount > CHIPS.high:
        raise UserError(f"The {what} must be at most {CHIPS.high:,} chips.")


def is_admin(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server (or Administrator) in this channel: what ``/stud-admin`` needs."""
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


# --- a click's way to the bot (a click has no cog: discord.py hands it the client) --------


def bot_of(interaction: discord.Interaction[Any]) -> DealerBot:
    client = interaction.client
    if not isinstance(client, DealerBot):
        raise TypeError("the /stud buttons need a DealerBot")
    return client


def service_of(interaction: discord.Interaction[Any]) -> TableService:
    service = bot_of(interaction).service
    if service is None:
        raise UserError(STARTING_UP)
    return service


def relay_of(interaction: discord.Interaction[Any]) -> TableRelay:
    relay = bot_of(interaction).relay
    if relay is None:
        raise UserError(STARTING_UP)
    return relay


class Cooldown:
    """At most one use per key every ``seconds``, by the clock the caller passes: what keeps
    ``/stud table`` to one post per channel every ``TABLE_REPOST_COOLDOWN`` seconds."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._last: dict[int, float] = {}

    def take(self, key: int, now: float) -> None:
        """Use it now, or refuse with how long to wait."""
        wait = self._last.get(key, -math.inf) + self.seconds - now
        if wait > 0:
            raise UserError(
                f"The table was posted here moments ago; try again in {math.ceil(wait)} s."
            )
        self._last[key] = now


class CogBase:
    """Access to the bot's service and relay, and a guard against doubled commands."""

    def __init__(self, bot: DealerBot) -> None:
        self.bot = bot
        self._busy: set[tuple[int, int]] = set()

    @property
    def service(self) -> TableService:
        if self.bot.service is None:
            raise UserError(STARTING_UP)
        return self.bot.service

    @property
    def relay(self) -> TableRelay:
        if self.bot.relay is None:
            raise UserError(STARTING_UP)
        return self.bot.relay

    async def run(
        self,
        interaction: discord.Interaction[Any],
        work: Callable[[], Awaitable[Reply]],
        *,
        ephemeral: bool = True,
    ) -> None:
        """Answer a command; a second one from the same user in the same place waits its turn
        by being refused (it would otherwise race the first)."""
        key = (interaction.user.id, interaction.channel_id or 0)
        if key in self._busy:
            await answer(
                interaction,
                _refuse("Your previous command here is still being handled; one at a time."),
            )
            return
        self._busy.add(key)
        try:
            await answer(interaction, work, ephemeral=ephemeral)
        finally:
            self._busy.discard(key)


def _refuse(text: str) -> Callable[[], Awaitable[Reply]]:
    async def work() -> Reply:
        return Reply(text)

    return work

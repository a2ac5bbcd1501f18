"""Refusals, and turning every failure into a short, private answer; logging what is a bug.

User-caused refusals (:class:`UserError` here, :class:`~dealerbot.tables.TableError`
from the service) are shown as they are, ephemeral. Anything else is logged with the
command and ids (never cards) and the user gets a generic apology.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from dealerbot.tables import TableError

log = logging.getLogger(__name__)

DEFER_AFTER = 1.5  # seconds of work before a command is deferred (Discord allows 3)
APOLOGY = "Something went wrong on my side; please try again in a moment."


class UserError(Exception):
    """A refusal the Discord layer itself gives (wrong place, missing permission, ...)."""


def place(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """(guild id, channel id) of a command run in a server channel; DMs are refused."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise UserError("Use this command in a server channel, not in direct messages.")
    return interaction.guild_id, interaction.channel_id


@dataclass(slots=True)
class Reply:
    """A command's answer; ephemeral unless said otherwise."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    ephemeral: bool = True
    files: tuple[discord.File, ...] = ()  # attachments (a hand history, a proof document)

    def kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "ephemeral": self.ephemeral}
        if self.embed is not None:
            kwargs["embed"] = self.embed
        if self.view is not None:
            kwargs["view"] = self.view
        if self.files:
            kwargs["files"] = list(self.files)
        return kwargs


def user_message(error: BaseException) -> str | None:
    """The text to show for a user-caused error, or None for a bug."""
    if isinstance(error, UserError | TableError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        return "You need the Manage Server permission for this."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Use this command in a server channel, not in direct messages."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use this command here."
    if isinstance(error, app_commands.TransformerError):
        low = getattr(error.transformer, "_min", None)
        high = getattr(error.transformer, "_max", None)
        if low is not None or high is not None:
            return f"{error.value} is not allowed: use a number from {low} to {high}."
        return "I could not read that input; please check the values and try again."
    if isinstance(error, app_commands.CommandSignatureMismatch):
        return "I could not read that input; please check the values and try again."
    return None


async def send(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Answer, or follow up when the interaction was already answered or deferred."""
    if interaction.response.is_done():
        kwargs = reply.kwargs()
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**reply.kwargs())


async def answer(
    interaction: discord.Interaction[Any],
    work: Callable[[], Awaitable[Reply]],
    *,
    ephemeral: bool = True,
) -> None:
    """Run a command's work and answer within Discord's 3 seconds, deferring if it is slow."""
    task = asyncio.ensure_future(work())
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    try:
        reply = await task
    except Exception as error:
        text = user_message(error)
        if text is None:
            log_failure(interaction, error)
            text = APOLOGY
        reply = Reply(text)
    try:
        await send(interaction, reply)
    except discord.HTTPException as error:
        log.warning(
            "could not answer interaction %s in channel %s: HTTP %s code %s",
            interaction.id,
            interaction.channel_id,
            error.status,
            error.code,
        )


async def answer_failure(interaction: discord.Interaction[Any], error: Exception) -> None:
    """A button click that failed: say why privately (or apologise and log a bug)."""
    text = user_message(error)
    if text is None:
        log_failure(interaction, error)
        text = APOLOGY
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as failure:
        log.info("could not answer a click (HTTP %s code %s)", failure.status, failure.code)


def log_failure(interaction: discord.Interaction[Any], error: BaseException) -> None:
    name = interaction.command.qualified_name if interaction.command is not None else "component"
    log.error(
        "%s failed (guild %s, channel %s, user %s)",
        name,
        interaction.guild_id,
        interaction.channel_id,
        interaction.user.id,
        exc_info=error,
    )


class StudTree(app_commands.CommandTree[Any]):
    """The command tree: checks and conversion failures become private answers."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        text = user_message(original) or user_message(error)
        if text is None:
            log_failure(interaction, original)
            text = APOLOGY
        try:
            await send(interaction, Reply(text))
        except discord.HTTPException:
            log.warning("could not report an error to interaction %s", interaction.id)

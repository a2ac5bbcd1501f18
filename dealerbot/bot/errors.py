"""Answering an interaction: the :class:`Reply`, deferring slow work, refusals, and every
failure turned into a short, private answer; the command tree's checks; logging what is a bug.

User-caused refusals (:class:`UserError` here, :class:`~dealerbot.tables.TableError`
from the service) are shown as they are, ephemeral. A command the bot does not know (the
client's list is older than the bot's) or an option of the wrong type (a modified client)
is refused with a WARNING and no traceback. Anything else is logged with the command and
ids (never cards) and the user gets a generic apology.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from dealerbot.tables import TableElsewhereError, TableError

log = logging.getLogger(__name__)

DEFER_AFTER = 1.5  # seconds of work before a command is deferred (Discord allows 3)
APOLOGY = "Something went wrong on my side; please try again in a moment."
OUT_OF_DATE = "This command is out of date: an admin should run `dealerbot sync`."
# What each option type must hold (app_commands.AppCommandOptionType values).
VALUE_TYPES: dict[int, tuple[type, ...]] = {3: (str,), 4: (int,), 5: (bool,), 10: (int, float)}
ENTITY_TYPES = frozenset({6, 7, 8, 9})  # user, channel, role, mentionable: snowflakes
TYPE_WORDS = {3: "text", 4: "a whole number", 5: "true or false", 10: "a number"}


class StaleCommand(app_commands.AppCommandError):
    """The interaction does not fit the command the bot has (stale or modified client)."""


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
    buttons: discord.ui.View | None = None  # a stopped layout: dynamic items answer
    ephemeral: bool = True
    files: tuple[discord.File, ...] = ()  # attachments (a hand history, a proof document)

    def kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "ephemeral": self.ephemeral}
        if self.embed is not None:
            kwargs["embed"] = self.embed
        if self.buttons is not None:
            kwargs["view"] = self.buttons
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
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return OUT_OF_DATE
    if isinstance(error, StaleCommand):
        return str(error)
    return None


def _fits(kind: int, value: object, resolved: dict[str, Any]) -> bool:
    if kind in ENTITY_TYPES:
        key = str(value)
        return key.isdigit() and any(key in group for group in resolved.values())
    types = VALUE_TYPES.get(kind)
    if types is None or isinstance(value, bool) != (kind == 5):
        return types is None
    return isinstance(value, types)


def mistyped_option(
    command: app_commands.Command[Any, ..., Any], options: list[Any], resolved: dict[str, Any]
) -> str | None:
    """The refusal for the first option whose type or value is not the command's, or None."""
    params = {param.display_name: param for param in command.parameters}
    for option in options:
        param = params.get(option.get("name"))
        if param is None:
            return f"`{option.get('name')}` is not an option of this command. {OUT_OF_DATE}"
        kind = param.type.value
        if option.get("type") != kind or not _fits(kind, option.get("value"), resolved):
            what = TYPE_WORDS.get(kind, f"a {param.type.name}")
            return f"The option `{param.display_name}` takes {what}. {OUT_OF_DATE}"
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
    except TableElsewhereError:
        log.info("interaction %s: its table is run by another process", interaction.id)
        return  # that process answers (sharding: client.ShardedDealerBot)
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
    if isinstance(error, TableElsewhereError):
        log.info("interaction %s: its table is run by another process", interaction.id)
        return  # that process answers (sharding: client.ShardedDealerBot)
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

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """Refuse option values that are not of the command's types (discord.py passes them
        through unconverted) before the command runs."""
        data: Any = interaction.data
        if interaction.type is not discord.InteractionType.application_command or not data:
            return True
        if data.get("type", 1) != 1:
            return True
        try:
            command, options = self._get_app_command_options(data)
        except app_commands.AppCommandError:
            return True  # the tree raises it again and on_error answers
        if isinstance(command, app_commands.Command):
            refusal = mistyped_option(command, options, data.get("resolved") or {})
            if refusal is not None:
                raise StaleCommand(refusal)
        return True

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableElsewhereError):
            log.info("interaction %s: its table is run by another process", interaction.id)
            return  # that process answers (sharding: client.ShardedDealerBot)
        text = user_message(original) or user_message(error)
        if text is None:
            log_failure(interaction, original)
            text = APOLOGY
        elif isinstance(
            error,
            StaleCommand | app_commands.CommandNotFound | app_commands.CommandSignatureMismatch,
        ):
            data: Any = interaction.data or {}
            log.warning(
                "refused /%s from user %s in channel %s: %s",
                *(_command_path(data), interaction.user.id, interaction.channel_id, error),
            )
        try:
            await send(interaction, Reply(text))
        except discord.HTTPException:
            log.warning("could not report an error to interaction %s", interaction.id)


def _command_path(data: dict[str, Any]) -> str:
    """``stud teleport``: the command and subcommands an interaction names."""
    names = [str(data.get("name"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        names.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return " ".join(names)

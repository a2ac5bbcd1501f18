"""Clicks and forms no registered handler takes: answered privately instead of dropped.

discord.py gives a component click to each dynamic item whose template matches the id and
that finds the component on the clicked message; a click nothing takes (a button from an
older version of the bot, a forged id) it drops without an answer, which the player sees
as "This interaction failed". This cog's listener sees every interaction and answers
those: whether a click is taken is decided from its id and its message alone, exactly as
discord.py decides it, so the answer never races the dynamic item that does take it.

Forms are routed here too: the Buy in… form is sent as a layout (like the buttons) and
answered from its id by :func:`.seat_buttons.submit_buy_in`; any other form is stray.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

import discord
from discord.ext import commands

from .. import mentions
from ..buttons import BUYIN_FORM_TEMPLATE
from ..discord_limits import CUSTOM_ID
from .seat_buttons import raw_data, submit_buy_in

log = logging.getLogger(__name__)

Click = type[discord.ui.DynamicItem[Any]]
BUYIN_FORM = re.compile(BUYIN_FORM_TEMPLATE)


def stray_text() -> str:
    return (
        "This button belongs to an old table message: use the newest one, or "
        f"{mentions.command('stud table')}."
    )


def stray_form_text() -> str:
    return (
        "This form belongs to an old table message: press **Buy in…** on the newest one, "
        f"or use {mentions.command('stud join')}."
    )


def carries(message: discord.Message, kind: object, custom_id: str) -> bool:
    """The clicked message carries this component (discord.py looks it up the same way)."""
    layout = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    view = layout.from_message(message, timeout=None)  # read only: never stored
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in view.walk_children()
    )


class StrayClicks(commands.Cog):
    """The answer of last resort for clicks and forms nothing else answers."""

    def __init__(self, clicks: Iterable[Click]) -> None:
        self.templates = tuple(click.__discord_ui_compiled_template__ for click in clicks)

    def taken(self, interaction: discord.Interaction[Any], custom_id: str) -> bool:
        """A registered dynamic item takes this click (its id and its message fit)."""
        if not any(template.fullmatch(custom_id) for template in self.templates):
            return False
        message = interaction.message
        kind = raw_data(interaction).get("component_type")
        return message is not None and carries(message, kind, custom_id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        custom_id = str(raw_data(interaction).get("custom_id", ""))
        if interaction.type is discord.InteractionType.component:
            if not self.taken(interaction, custom_id):
                await answer_stray(interaction, custom_id, stray_text())
        elif interaction.type is discord.InteractionType.modal_submit:
            form = BUYIN_FORM.fullmatch(custom_id)
            if form is not None:
                await submit_buy_in(interaction, form)
            else:
                await answer_stray(interaction, custom_id, stray_form_text())


async def answer_stray(interaction: discord.Interaction[Any], custom_id: str, text: str) -> None:
    log.info(
        "stray interaction %r from user %s in channel %s",
        custom_id[:CUSTOM_ID],
        interaction.user.id,
        interaction.channel_id,
    )
    if interaction.response.is_done():
        return
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:  # expired or answered elsewhere: nothing to undo
        log.warning("could not answer stray interaction %r: %s", custom_id[:CUSTOM_ID], error)


async def register(bot: commands.Bot, *clicks: Click) -> None:
    """The buttons' dynamic items, and behind them the answer for what none of them takes
    (one list, so the fallback always knows every registered button)."""
    bot.add_dynamic_items(*clicks)
    await bot.add_cog(StrayClicks(clicks))

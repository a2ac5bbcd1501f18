"""What the ``/stud`` buttons do: dynamic items matched by id, registered by the cog.

Each class matches one id template of :mod:`..buttons` and rebuilds the click from the
id alone (so buttons survive restarts). Action clicks go to the table's messenger, which
checks them, runs them and answers with the new table; "My cards" and the leaderboard
pages ask the table service.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from dealerbot.tables import TableService

from .. import render
from ..buttons import ACTION_TEMPLATE, BOARD_TEMPLATE, CARDS_TEMPLATE, board_buttons
from ..client import DealerBot
from ..errors import UserError, answer_failure, place
from ..relay import TableRelay

Button = discord.ui.Button[Any]


def _bot(interaction: discord.Interaction[Any]) -> DealerBot:
    client = interaction.client
    if not isinstance(client, DealerBot):
        raise TypeError("the /stud buttons need a DealerBot")
    return client


def _service(interaction: discord.Interaction[Any]) -> TableService:
    service = _bot(interaction).service
    if service is None:
        raise UserError("The dealer is still starting up; try again in a moment.")
    return service


def _relay(interaction: discord.Interaction[Any]) -> TableRelay:
    relay = _bot(interaction).relay
    if relay is None:
        raise UserError("The dealer is still starting up; try again in a moment.")
    return relay


def _button(item: discord.ui.Item[Any]) -> Button:
    if not isinstance(item, discord.ui.Button):
        raise TypeError(f"a /stud id on a {type(item).__name__}, not a button")
    return item


async def leaderboard_page(
    service: TableService, guild_id: int, viewer: int, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the leaderboard with the viewer's own rank and the paging buttons."""
    board = await service.leaderboard(guild_id, max(page, 1))
    own = await service.rank_of(guild_id, viewer)
    return render.leaderboard_embed(board, viewer, own), board_buttons(board)


def own_leaderboard(interaction: discord.Interaction[Any]) -> bool:
    """The clicked message is a leaderboard shown to the clicker (his /stud leaderboard)."""
    message = interaction.message
    if message is None or not message.embeds or message.embeds[0].title != "Leaderboard":
        return False
    meta = message.interaction_metadata
    return meta is not None and meta.user.id == interaction.user.id


class ActionClick(discord.ui.DynamicItem[Button], template=ACTION_TEMPLATE):
    """An action button: ``stud:<table>:<hand>:<seq>:<verb>``."""

    def __init__(self, item: Button, table_id: int, hand_id: int, seq: int, act: str) -> None:
        super().__init__(item)
        self.table_id, self.hand_id, self.seq, self.act = table_id, hand_id, seq, act

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionClick:
        where = int(match["table"]), int(match["hand"]), int(match["seq"])
        return cls(_button(item), *where, match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The table messenger checks the click, runs it and answers with the new table."""
        try:
            guild_id, channel_id = place(interaction)
            service = _service(interaction)
            messenger = _relay(interaction).messenger(guild_id, channel_id)
            where = (self.table_id, self.hand_id, self.seq)
            await messenger.answer_action(interaction, service, where, self.act)
            owed = _relay(interaction).private_notice(interaction.user.id)
            if owed is not None and interaction.response.is_done():
                await interaction.followup.send(owed, ephemeral=True)
        except Exception as error:
            await answer_failure(interaction, error)


class CardsClick(discord.ui.DynamicItem[Button], template=CARDS_TEMPLATE):
    """ "My cards": the clicker's own cards, ephemeral."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CardsClick:
        return cls(_button(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            view = await _service(interaction).my_cards(guild_id, channel_id, interaction.user.id)
            text = render.private_player_text(view)
            _relay(interaction).private_notice(interaction.user.id)  # he is looking already
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.send_message(text, ephemeral=True)


class BoardClick(discord.ui.DynamicItem[Button], template=BOARD_TEMPLATE):
    """Leaderboard paging: the target page is in the id; the clicker's rank is looked up."""

    def __init__(self, item: Button, page: int) -> None:
        super().__init__(item)
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardClick:
        return cls(_button(item), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Turn the page in place (an update of the clicked message, not a new one), only
        on a leaderboard the clicker asked for (a forged id on another message is refused)."""
        try:
            guild_id, _ = place(interaction)
            if not own_leaderboard(interaction):
                raise UserError("That is not your leaderboard: use `/stud leaderboard`.")
            service = _service(interaction)
            embed, view = await leaderboard_page(service, guild_id, interaction.user.id, self.page)
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.edit_message(embed=embed, view=view)


STUD_CLICKS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ActionClick, CardsClick, BoardClick)

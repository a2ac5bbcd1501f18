"""Dealer's choice buttons on the table message: ``stud:game:<table>:<game>``.

Everyone sees them; the table service accepts the press of the player on the button
only, and anyone else is told privately who chooses. A dynamic item matched by id, so a
prompt posted before a restart still answers (the pick is then offered again)."""

from __future__ import annotations

import re
from typing import Any

import discord

from dealerbot.tables import Variant

from ..buttons import GAME_TEMPLATE
from ..errors import UserError, answer_failure, place
from ..render_games import short_title
from .stud_buttons import _button, _relay, _service

Button = discord.ui.Button[Any]


class GameClick(discord.ui.DynamicItem[Button], template=GAME_TEMPLATE):
    """``stud:game:<table>:<game>``: the button player's pick of the next game."""

    def __init__(self, item: Button, table_id: int, game: str) -> None:
        super().__init__(item)
        self.table_id, self.game = table_id, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameClick:
        return cls(_button(item), int(match["table"]), match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            service = _service(interaction)
            view = await service.table_view(guild_id, channel_id)
            if view.table_id != self.table_id:
                raise UserError("That table is closed; the current one is further down.")
            await service.choose_game(guild_id, channel_id, interaction.user.id, self.game)
            _relay(interaction).messenger(guild_id, channel_id).retry_now()
        except Exception as error:
            await answer_failure(interaction, error)
            return
        title = short_title(Variant(self.game))
        await interaction.response.send_message(
            f"You chose {title}: the next hand is dealt now.", ephemeral=True
        )


GAME_CLICKS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (GameClick,)

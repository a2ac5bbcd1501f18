"""``/stud balance``, ``/stud leaderboard`` (paged buttons) and ``/stud daily``.

These commands join the ``/stud`` group of the play cog (see :func:`graft`), so players
see one command family; the feature still lives in its own cog.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables.errors import DailyNotReadyError

from .. import render
from ..errors import APOLOGY, Reply, log_failure, user_message
from ..views import board_buttons
from .common import CogBase, place


class WalletCog(CogBase, commands.Cog):
    """Wallets and the leaderboard of a server."""

    @app_commands.command(name="balance", description="Your chips (or another member's)")
    @app_commands.describe(member="Whose balance to show (default: yours)")
    async def balance(
        self, interaction: discord.Interaction[Any], member: discord.User | None = None
    ) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            target = member or interaction.user
            if target.bot:
                return Reply("Bots do not play.")
            wallet = await self.service.balance(guild_id, target.id)
            rank = await self.service.rank_of(guild_id, target.id)
            own = target.id == interaction.user.id
            return Reply(render.balance_text(target.id, wallet, rank, own))

        await self.run(interaction, work)

    @app_commands.command(name="leaderboard", description="The richest players of this server")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            embed, view = await self._board(guild_id, interaction.user.id, 1)
            return Reply(embed=embed, view=view)

        await self.run(interaction, work)

    @app_commands.command(name="daily", description="Claim your daily chip bonus")
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            try:
                claim = await self.service.daily(guild_id, interaction.user.id)
            except DailyNotReadyError as error:
                if error.retry_at is None:
                    raise
                return Reply(
                    "You already claimed today's bonus; the next one is ready "
                    f"{render.timestamp(error.retry_at)}."
                )
            return Reply(
                f"You claimed **{claim.amount}** chips; your wallet holds {claim.wallet.chips}. "
                f"Next bonus {render.timestamp(claim.next_claim_at)}."
            )

        await self.run(interaction, work)

    async def _board(
        self, guild_id: int, viewer: int, page: int
    ) -> tuple[discord.Embed, discord.ui.View]:
        board = await self.service.leaderboard(guild_id, page)
        own = await self.service.rank_of(guild_id, viewer)
        return render.leaderboard_embed(board, viewer, own), board_buttons(board)

    async def on_board_click(self, interaction: discord.Interaction[Any], page: int) -> None:
        """Turn the page in place (an update of the clicked message, not a new one)."""
        try:
            guild_id, _ = place(interaction)
            embed, view = await self._board(guild_id, interaction.user.id, max(page, 1))
        except Exception as error:
            text = user_message(error)
            if text is None:
                log_failure(interaction, error)
                text = APOLOGY
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.edit_message(embed=embed, view=view)


def graft(
    cog: commands.Cog, group: app_commands.Group, tree: app_commands.CommandTree[Any]
) -> None:
    """Move a plain cog's slash commands under another cog's group (``/stud balance``)."""
    for command in cog.get_app_commands():
        tree.remove_command(command.name)
        group.add_command(command)

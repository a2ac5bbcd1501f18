"""``/stud`` for players at a table, and the table's buttons (actions, "My cards")."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables.errors import NoTableError

from .. import render
from ..errors import APOLOGY, Reply, UserError, log_failure, user_message
from ..table_messages import ChannelUnavailable
from .common import MAX_CHIPS, CogBase, check_amount, check_can_post, display_name, place

log = logging.getLogger(__name__)

Chips = app_commands.Range[int, 1, MAX_CHIPS]


@app_commands.guild_only()
class PlayCog(CogBase, commands.GroupCog, group_name="stud", group_description="Seven Card Stud"):
    """Seats, hands and private cards at this channel's table."""

    # --- seats ---------------------------------------------------------------------

    @app_commands.command(name="join", description="Sit down at this channel's table")
    @app_commands.describe(buy_in="Chips to bring from your wallet (default: the table minimum)")
    async def join(
        self, interaction: discord.Interaction[Any], buy_in: Chips | None = None
    ) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_amount(buy_in, "buy-in")
            check_can_post(interaction)
            view = await self.service.join(
                guild_id, channel_id, interaction.user.id, display_name(interaction.user), buy_in
            )
            self.relay.messenger(guild_id, channel_id).retry_now()
            text = f"You sit in seat {view.seat + 1} with {view.stack} chips."
            if view.table.hand_id is not None:
                text += " You are dealt in from the next hand."
            return Reply(text)

        await self.run(interaction, work)

    @app_commands.command(
        name="leave", description="Leave the table; your chips go back to your wallet"
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            outcome = await self.service.leave(guild_id, channel_id, interaction.user.id)
            if outcome.left_now:
                return Reply(f"You left the table; {outcome.cashed_out} chips went to your wallet.")
            return Reply("You will leave when this hand ends; your chips then go to your wallet.")

        await self.run(interaction, work)

    @app_commands.command(name="sitout", description="Sit out the next hands (keep your seat)")
    async def sitout(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            view = await self.service.sit_out(guild_id, channel_id, interaction.user.id)
            text = "You sit out from the next hand; `/stud sitin` to play again."
            if view.hand_id is not None:
                text = "You finish this hand, then sit out; `/stud sitin` to play again."
            return Reply(text)

        await self.run(interaction, work)

    @app_commands.command(name="sitin", description="Be dealt in again")
    async def sitin(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            await self.service.sit_in(guild_id, channel_id, interaction.user.id)
            self.relay.messenger(guild_id, channel_id).retry_now()
            return Reply("You are dealt in from the next hand.")

        await self.run(interaction, work)

    @app_commands.command(name="addchips", description="Add chips from your wallet (between hands)")
    @app_commands.describe(amount="Chips to move from your wallet to the table")
    async def addchips(self, interaction: discord.Interaction[Any], amount: Chips) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_amount(amount, "amount")
            view = await self.service.add_chips(guild_id, channel_id, interaction.user.id, amount)
            return Reply(f"Added {amount} chips; you have {view.stack} at the table.")

        await self.run(interaction, work)

    # --- hands ---------------------------------------------------------------------

    @app_commands.command(name="start", description="Deal a hand now")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_can_post(interaction)
            self.relay.messenger(guild_id, channel_id).retry_now()
            view = await self.service.start(guild_id, channel_id)
            return Reply(f"Dealing hand #{view.hand_number}.")

        await self.run(interaction, work)

    @app_commands.command(
        name="cards", description="See your cards in this hand (only you see them)"
    )
    async def cards(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            view = await self.service.my_cards(guild_id, channel_id, interaction.user.id)
            return Reply(render.private_player_text(view))

        await self.run(interaction, work)

    @app_commands.command(
        name="table", description="Post the table again at the bottom of the channel"
    )
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_can_post(interaction)
            view = await self.service.table_view(guild_id, channel_id)
            messenger = self.relay.messenger(guild_id, channel_id)
            if messenger.view is None:
                messenger.view = view
            try:
                await messenger.repost()
            except ChannelUnavailable as error:
                raise UserError(
                    "I cannot post in this channel (missing permissions); "
                    "ask a server admin to let me send messages and embeds here."
                ) from error
            return Reply("The table is posted below.")

        await self.run(interaction, work)

    @app_commands.command(
        name="rules", description="The game and stakes of this table, and the rules"
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            config = await self.service.config_get(guild_id, channel_id)
            try:
                await self.service.table_view(guild_id, channel_id)
                has_table = True
            except NoTableError:
                has_table = False
            return Reply(embed=render.rules_embed(config, has_table))

        await self.run(interaction, work)

    # --- buttons -------------------------------------------------------------------------

    async def on_action_click(
        self, interaction: discord.Interaction[Any], table_id: int, hand_id: int, seq: int, act: str
    ) -> None:
        try:
            await self._action_click(interaction, table_id, hand_id, seq, act)
        except Exception as error:
            await self._click_failed(interaction, error)

    async def _action_click(
        self, interaction: discord.Interaction[Any], table_id: int, hand_id: int, seq: int, act: str
    ) -> None:
        guild_id, channel_id = place(interaction)
        user_id = interaction.user.id
        messenger = self.relay.messenger(guild_id, channel_id)
        view = messenger.view
        if view is None:
            view = await self.service.table_view(guild_id, channel_id)
            messenger.view = view
        if view.table_id != table_id or view.hand_id != hand_id:
            raise UserError("That hand is over; the current table is further down.")
        if view.seq != seq:
            raise UserError("That button is out of date; use the newest one.")
        if user_id != view.to_act_user:
            seat = view.seat_of(user_id)
            if seat is None or not seat.in_hand:
                raise UserError("You are not in this hand.")
            waiting = next((s.name for s in view.seats if s.to_act), "another player")
            raise UserError(f"It is not your turn; {render.name_text(waiting)} is to act.")
        service = self.service
        await messenger.run_click(
            interaction, lambda: service.act(guild_id, channel_id, user_id, hand_id, seq, act)
        )

    async def on_cards_click(self, interaction: discord.Interaction[Any], table_id: int) -> None:
        try:
            guild_id, channel_id = place(interaction)
            view = await self.service.my_cards(guild_id, channel_id, interaction.user.id)
            text = render.private_player_text(view)
        except Exception as error:
            await self._click_failed(interaction, error)
            return
        await interaction.response.send_message(text, ephemeral=True)

    async def _click_failed(self, interaction: discord.Interaction[Any], error: Exception) -> None:
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

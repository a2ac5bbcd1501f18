"""``/stud``: the players' command group, and its seat, hand and wallet commands.

One :class:`commands.GroupCog`; its other subcommands join it as mixins (alerts, history,
verify, stats). Loading this extension also registers the buttons of the table message
(:mod:`.clicks`) and of the leaderboard (:mod:`.stud_stats`), and behind them the answer
to a click none of them takes.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables import DailyNotReadyError, NoTableError, TableView

from .. import answers
from ..answers import add_chips_text, leave_text
from ..client import DealerBot
from ..errors import Reply, UserError, place
from ..markup import timestamp
from ..table_channel import ChannelUnavailable
from . import clicks
from .base import CogBase, Cooldown, check_amount, check_can_post, display_name, is_admin
from .clicks import TABLE_CLICKS
from .options import Chips
from .stud_alerts import AlertCommands
from .stud_history import HistoryCommands
from .stud_stats import STATS_CLICKS, StatsCommands
from .stud_verify import VerifyCommands


@app_commands.guild_only()
class StudCog(
    AlertCommands,
    HistoryCommands,
    VerifyCommands,
    StatsCommands,
    CogBase,
    commands.GroupCog,
    group_name="stud",
    group_description="Seven Card Stud, Stud Hi/Lo and Razz, fixed limit: one game or mixed",
):
    """Seats, hands and private cards at this channel's table; wallets and ranks."""

    def __init__(self, bot: DealerBot) -> None:
        super().__init__(bot)
        self.reposts = Cooldown(bot.settings.table_repost_cooldown)  # /stud table spam

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
            return Reply(leave_text(outcome))

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

    @app_commands.command(
        name="addchips", description="Add chips from your wallet (during a hand: before the next)"
    )
    @app_commands.describe(amount="Chips to move from your wallet to the table")
    async def addchips(self, interaction: discord.Interaction[Any], amount: Chips) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_amount(amount, "amount")
            view = await self.service.add_chips(guild_id, channel_id, interaction.user.id, amount)
            return Reply(add_chips_text(amount, view))

        await self.run(interaction, work)

    # --- hands ---------------------------------------------------------------------

    @app_commands.command(name="start", description="Deal a hand now")
    async def start(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_can_post(interaction)
            self.relay.messenger(guild_id, channel_id).retry_now()
            admin = is_admin(interaction)  # else only a seated player may deal (issue 12)
            view = await self.service.start(guild_id, channel_id, interaction.user.id, admin=admin)
            choice = view.games.choice if view.games is not None else None
            if view.hand_id is None and choice is not None:  # dealer's choice comes first
                return Reply(answers.choosing_text(choice))
            return Reply(f"Dealing hand #{view.hand_number}.")

        await self.run(interaction, work)

    @app_commands.command(
        name="cards", description="See your cards in this hand (only you see them)"
    )
    async def cards(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            view = await self.service.my_cards(guild_id, channel_id, interaction.user.id)
            faces = await self.relay.decks.faces(interaction.user.id)
            return Reply(answers.private_player_text(view, faces))

        await self.run(interaction, work)

    @app_commands.command(
        name="table", description="Post the table again at the bottom of the channel"
    )
    async def table(self, interaction: discord.Interaction[Any]) -> None:
        async def work() -> Reply:
            guild_id, channel_id = place(interaction)
            check_can_post(interaction)
            view = await self.service.table_view(guild_id, channel_id)
            self.reposts.take(channel_id, self.service.clock.now())
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
            view: TableView | None
            try:
                view = await self.service.table_view(guild_id, channel_id)
            except NoTableError:
                view = None
            faces = await self.relay.decks.faces(interaction.user.id)
            house = await self.service.house.rules(guild_id, channel_id)
            return Reply(embed=answers.rules_embed(config, view is not None, view, faces, house))

        await self.run(interaction, work)

    # --- wallet and ranks ---------------------------------------------------------------

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
            return Reply(answers.balance_text(target.id, wallet, rank, own))

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
                    f"{timestamp(error.retry_at)}."
                )
            return Reply(
                f"You claimed **{claim.amount}** chips; your wallet holds {claim.wallet.chips}. "
                f"Next bonus {timestamp(claim.next_claim_at)}."
            )

        await self.run(interaction, work)


async def setup(bot: commands.Bot) -> None:
    """Extension entry point: the ``/stud`` group and the buttons its messages carry."""
    if not isinstance(bot, DealerBot):
        raise TypeError("the /stud cog needs a DealerBot")
    await bot.add_cog(StudCog(bot))
    await clicks.register(bot, *TABLE_CLICKS, *STATS_CLICKS)

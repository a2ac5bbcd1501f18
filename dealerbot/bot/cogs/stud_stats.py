"""``/stud stats`` and ``/stud leaderboard``: a player's numbers, the two boards, their paging.

A mixin of the ``/stud`` group cog (its commands join the group through the cog's class).
The leaderboard's paging buttons carry the board, the period, the page, the player the
message was made for and the (score, user id) of the row the page turns from (so a deep
page seeks instead of walking an OFFSET; a button without it pages by number). A click by
that player turns the page in place; anyone else gets the page as a new private answer, so
nobody edits another player's message. Leaderboards posted before those ids carry
``stud:board:<page>:<dir>`` (:class:`NumberedBoardClick`): they still page, for their owner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables import (
    BoardSeek,
    LeaderboardPage,
    StatsPeriod,
    TableService,
    Variant,
    WinningsPage,
    parse_period,
    shown_name,
)

from .. import answers
from ..discord_limits import CUSTOM_ID
from ..errors import Reply, UserError, answer_failure, place
from ..markup import name_text
from .base import CogBase, service_of
from .clicks import as_button

Button = discord.ui.Button[Any]
BOARDS_TEMPLATE = (
    r"stud:lb:(?P<by>chips|winnings):(?P<period>day|week|month|all):(?P<owner>\d{1,20})"
    r":(?P<page>\d{1,6}):(?P<dir>prev|next)(?::(?P<score>-?\d{1,20}):(?P<user>\d{1,20}))?"
)  # the seek (score and user id of the row to page from) is absent on buttons made before it

NUMBERED_BOARD_TEMPLATE = r"stud:board:(?P<page>\d{1,6}):(?P<dir>prev|next)"
"""The paging id of leaderboards posted before ``stud:lb:``: the chips board by page number."""

BoardPage = LeaderboardPage | WinningsPage

PERIODS = [
    app_commands.Choice(name="today (UTC)", value="today"),
    app_commands.Choice(name="this week (UTC, from Monday)", value="week"),
    app_commands.Choice(name="this month (UTC)", value="month"),
    app_commands.Choice(name="all time", value="all"),
]
VARIANTS = [app_commands.Choice(name=v.title, value=v.value) for v in Variant]
BOARDS = [
    app_commands.Choice(name="chips (wallet and tables, now)", value="chips"),
    app_commands.Choice(name="winnings at the tables in a period", value="winnings"),
]


def board_buttons(
    by: str,
    period: StatsPeriod,
    owner: int,
    page: BoardPage,
    scores: Sequence[int],
) -> discord.ui.View:
    """Previous/next: each id names the page it shows and the row it seeks from (the shown
    page's first row for previous, its last for next; ``scores`` are the entries' scores),
    so a deep page is no longer than the first. A layout: the dynamic item answers."""
    entries = page.entries
    layout = discord.ui.View(timeout=None)
    for target, direction, label, disabled, at in (
        (max(page.page - 1, 1), "prev", "◀ Previous", page.start <= 0, 0),
        (min(page.page + 1, max(page.pages, 1)), "next", "Next ▶", page.at_end, -1),
    ):
        custom_id = f"stud:lb:{by}:{period.value}:{owner}:{target}:{direction}"
        if entries:
            seek = f"{custom_id}:{scores[at]}:{entries[at].user_id}"
            custom_id = seek if len(seek) <= CUSTOM_ID else custom_id
        layout.add_item(
            discord.ui.Button(
                label=label,
                custom_id=custom_id,
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
    layout.stop()
    return layout


async def board_page(
    service: TableService,
    guild_id: int,
    viewer: int,
    by: str,
    period: StatsPeriod,
    page: int,
    *,
    after: BoardSeek | None = None,
    before: BoardSeek | None = None,
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the chips board (today's) or of the winnings board for ``period``: by
    number, or the page after/before a row of the page the button was on."""
    if by == "chips":
        board = await service.leaderboard(guild_id, max(page, 1), after=after, before=before)
        own = await service.rank_of(guild_id, viewer)
        embed = answers.leaderboard_embed(board, viewer, own)
        worths = [e.net_worth for e in board.entries]
        return embed, board_buttons(by, period, viewer, board, worths)
    winnings = await service.stats.winnings(
        guild_id, period, max(page, 1), after=after, before=before
    )
    mine = await service.stats.winnings_rank(guild_id, viewer, period)
    embed = answers.winnings_embed(winnings, viewer, mine)
    nets = [e.net for e in winnings.entries]
    return embed, board_buttons(by, period, viewer, winnings, nets)


class StatsCommands(CogBase, commands.Cog):
    """The stats and leaderboard subcommands of ``/stud``."""

    @app_commands.command(name="stats", description="A player's hands, chips and play")
    @app_commands.describe(
        member="Whose stats (default: yours)",
        variant="Only this game (default: every game)",
        period="today, this week, this month (UTC) or all time (default)",
        share="Post it in the channel for everyone (default: only you see it)",
    )
    @app_commands.choices(variant=VARIANTS, period=PERIODS)
    async def stats(
        self,
        interaction: discord.Interaction[Any],
        member: discord.User | None = None,
        variant: str | None = None,
        period: str | None = None,
        share: bool = False,
    ) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            target = member or interaction.user
            if target.bot:
                return Reply("Bots do not play.")
            game = None
            if variant is not None:
                try:
                    game = Variant(variant)
                except ValueError:
                    raise UserError("Choose a game from the list.") from None
            report = await self.service.stats.report(
                guild_id, target.id, period=parse_period(period), variant=game
            )
            name = shown_name(getattr(target, "display_name", None) or target.name, target.id)
            embed = answers.stats_embed(report, name_text(name))  # escaped as a seat's name
            return Reply(embed=embed, ephemeral=not share)

        await self.run(interaction, work, ephemeral=not share)

    @app_commands.command(
        name="leaderboard", description="The richest players, or the biggest winners at the tables"
    )
    @app_commands.describe(
        by="chips: wallet and tables now (default); winnings: net chips won at the tables",
        period="For winnings: today, this week, this month (UTC) or all time (default: week)",
    )
    @app_commands.choices(by=BOARDS, period=PERIODS)
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        by: str | None = None,
        period: str | None = None,
    ) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            board = by or "chips"
            if board not in ("chips", "winnings"):
                raise UserError("Rank by chips or by winnings.")
            if board == "chips" and period not in (None, "today"):
                raise UserError(
                    "The chips board is always today's; use `by: winnings` to rank a period."
                )
            chosen = parse_period(period or "week")
            embed, buttons = await board_page(
                self.service, guild_id, interaction.user.id, board, chosen, 1
            )
            return Reply(embed=embed, buttons=buttons)

        await self.run(interaction, work)


def asked_by(message: discord.Message | None, user_id: int) -> bool:
    """The message is a leaderboard that answered this user's own command."""
    if message is None or not answers.is_leaderboard(message):
        return False
    meta = message.interaction_metadata
    return meta is not None and meta.user.id == user_id


class BoardsClick(discord.ui.DynamicItem[Button], template=BOARDS_TEMPLATE):
    """Leaderboard paging for the board, period and player named in the id."""

    def __init__(
        self,
        item: Button,
        by: str,
        period: StatsPeriod,
        owner: int,
        page: int,
        seek: tuple[str, BoardSeek] | None = None,
    ) -> None:
        super().__init__(item)
        self.by, self.period, self.owner, self.page = by, period, owner, page
        self.seek = seek  # ("prev" | "next", the row the page turns from)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardsClick:
        period = StatsPeriod(match["period"])
        seek = None
        if match["score"] is not None:
            seek = (match["dir"], BoardSeek(int(match["score"]), int(match["user"])))
        owner, page = int(match["owner"]), int(match["page"])
        return cls(as_button(item), match["by"], period, owner, page, seek)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The owner's own leaderboard turns the page in place; otherwise a new answer."""
        try:
            guild_id, _ = place(interaction)
            viewer = interaction.user.id
            direction, row = self.seek if self.seek is not None else ("", None)
            embed, buttons = await board_page(
                service_of(interaction), guild_id, viewer, self.by, self.period, self.page,
                after=row if direction == "next" else None,
                before=row if direction == "prev" else None,
            )  # fmt: skip
        except Exception as error:
            await answer_failure(interaction, error)
            return
        if viewer == self.owner and asked_by(interaction.message, viewer):
            await interaction.response.edit_message(embed=embed, view=buttons)
        else:
            await interaction.response.send_message(embed=embed, view=buttons, ephemeral=True)


def numbered_board_buttons(page: LeaderboardPage) -> discord.ui.View:
    """Previous/next of a chips board by page number (``stud:board:<page>:<dir>``)."""
    last = max(page.pages, 1)
    layout = discord.ui.View(timeout=None)
    for target, direction, label, disabled in (
        (max(page.page - 1, 1), "prev", "◀ Previous", page.page <= 1),
        (min(page.page + 1, last), "next", "Next ▶", page.page >= last),
    ):
        layout.add_item(
            discord.ui.Button(
                label=label,
                custom_id=f"stud:board:{target}:{direction}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
    layout.stop()  # a layout only: the registered dynamic items answer the clicks
    return layout


def own_numbered_board(interaction: discord.Interaction[Any]) -> bool:
    """The clicked message is a chips board shown to the clicker (his /stud leaderboard)."""
    message = interaction.message
    if message is None or not message.embeds or message.embeds[0].title != "Leaderboard":
        return False
    meta = message.interaction_metadata
    return meta is not None and meta.user.id == interaction.user.id


class NumberedBoardClick(discord.ui.DynamicItem[Button], template=NUMBERED_BOARD_TEMPLATE):
    """Paging of a chips board by number: the target page is in the id; the clicker's rank
    is looked up."""

    def __init__(self, item: Button, page: int) -> None:
        super().__init__(item)
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> NumberedBoardClick:
        return cls(as_button(item), int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Turn the page in place (an update of the clicked message, not a new one), only
        on a leaderboard the clicker asked for (a forged id on another message is refused)."""
        try:
            guild_id, _ = place(interaction)
            if not own_numbered_board(interaction):
                raise UserError("That is not your leaderboard: use `/stud leaderboard`.")
            service = service_of(interaction)
            board = await service.leaderboard(guild_id, max(self.page, 1))
            own = await service.rank_of(guild_id, interaction.user.id)
            embed = answers.leaderboard_embed(board, interaction.user.id, own)
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.edit_message(embed=embed, view=numbered_board_buttons(board))


STATS_CLICKS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (BoardsClick, NumberedBoardClick)

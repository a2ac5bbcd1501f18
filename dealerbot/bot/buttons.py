"""Buttons that survive restarts: each ``custom_id`` carries all the state a click needs.

Nothing is kept in a View object: a click is decoded from its id (table, hand, action
number, verb) by discord.py's :class:`~discord.ui.DynamicItem` machinery, and its
callback asks the bot's table messenger or the table service. So the buttons on a
message posted before a restart keep working after it. The ``/stud`` extension
registers these items (:data:`STUD_BUTTONS`) when it loads.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

import discord

from dealerbot.tables import ActionKind, LeaderboardPage, TableService
from dealerbot.tables import events as ev

from . import render
from .errors import UserError, answer_failure, place

if TYPE_CHECKING:
    from .client import DealerBot
    from .relay import TableRelay

ACTION_TEMPLATE = (
    r"stud:(?P<table>\d{1,19}):(?P<hand>\d{1,19}):(?P<seq>\d{1,9}):(?P<act>[a-z_]{1,12})"
)
CARDS_TEMPLATE = r"stud:cards:(?P<table>\d{1,19})"
BOARD_TEMPLATE = r"stud:board:(?P<page>\d{1,6}):(?P<dir>prev|next)"
CARDS_EMOJI = "\U0001f0cf"  # 🃏, in Discord's emoji set; U+1F0A0 is refused (50035)

_STYLES = {
    ActionKind.FOLD: discord.ButtonStyle.danger,
    ActionKind.CHECK: discord.ButtonStyle.success,
    ActionKind.CALL: discord.ButtonStyle.success,
}
_KINDS = frozenset(kind.value for kind in ActionKind)


def _bot(interaction: discord.Interaction[Any]) -> DealerBot:
    return cast("DealerBot", interaction.client)


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


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
    """One legal action of the player to act: ``stud:<table>:<hand>:<seq>:<verb>``."""

    def __init__(
        self, table_id: int, hand_id: int, seq: int, act: str, label: str = "", *, row: int = 0
    ) -> None:
        style = discord.ButtonStyle.primary
        if act in _KINDS:
            style = _STYLES.get(ActionKind(act), style)
        super().__init__(
            discord.ui.Button(
                label=(label or act)[:80],
                custom_id=f"stud:{table_id}:{hand_id}:{seq}:{act}",
                style=style,
                row=row,
            )
        )
        self.table_id, self.hand_id, self.seq, self.act = table_id, hand_id, seq, act

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ActionButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]), match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The table messenger checks the click, runs it and answers with the new table."""
        try:
            guild_id, channel_id = place(interaction)
            messenger = _relay(interaction).messenger(guild_id, channel_id)
            service = _service(interaction)
            await messenger.answer_action(
                interaction, service, (self.table_id, self.hand_id, self.seq), self.act
            )
        except Exception as error:
            await answer_failure(interaction, error)


class CardsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CARDS_TEMPLATE):
    """ "My cards": the clicker's own cards, ephemeral (the fallback for blocked DMs)."""

    def __init__(self, table_id: int, *, row: int = 1) -> None:
        super().__init__(
            discord.ui.Button(
                label="My cards",
                emoji=CARDS_EMOJI,
                custom_id=f"stud:cards:{table_id}",
                style=discord.ButtonStyle.secondary,
                row=row,
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> CardsButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            service = _service(interaction)
            view = await service.my_cards(guild_id, channel_id, interaction.user.id)
            text = render.private_player_text(view)
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.send_message(text, ephemeral=True)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD_TEMPLATE):
    """Leaderboard paging: the target page is in the id; the clicker's rank is looked up."""

    def __init__(self, page: int, direction: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label="◀ Previous" if direction == "prev" else "Next ▶",
                custom_id=f"stud:board:{page}:{direction}",
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
            )
        )
        self.page, self.direction = page, direction

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> BoardButton:
        return cls(int(match["page"]), match["dir"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Turn the page in place (an update of the clicked message, not a new one)."""
        try:
            guild_id, _ = place(interaction)
            service = _service(interaction)
            embed, view = await leaderboard_page(service, guild_id, interaction.user.id, self.page)
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.edit_message(embed=embed, view=view)


STUD_BUTTONS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    ActionButton,
    CardsButton,
    BoardButton,
)


def table_buttons(table_id: int, turn: ev.Turn | None, *, in_hand: bool) -> discord.ui.View | None:
    """Buttons for exactly the legal actions of the player to act, plus "My cards"."""
    if not in_hand:
        return None
    view = discord.ui.View(timeout=None)
    if turn is not None:
        for option in turn.options[:5]:
            view.add_item(
                ActionButton(table_id, turn.hand_id, turn.seq, option.kind.value, option.label)
            )
    view.add_item(CardsButton(table_id, row=1 if turn is not None and turn.options else 0))
    return view


def board_buttons(page: LeaderboardPage) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    last = max(page.pages, 1)
    view.add_item(BoardButton(max(page.page - 1, 1), "prev", disabled=page.page <= 1))
    view.add_item(BoardButton(min(page.page + 1, last), "next", disabled=page.page >= last))
    return view


async def leaderboard_page(
    service: TableService, guild_id: int, viewer: int, page: int
) -> tuple[discord.Embed, discord.ui.View]:
    """One page of the leaderboard with the viewer's own rank and the paging buttons."""
    board = await service.leaderboard(guild_id, max(page, 1))
    own = await service.rank_of(guild_id, viewer)
    return render.leaderboard_embed(board, viewer, own), board_buttons(board)

"""Buttons that survive restarts: each ``custom_id`` carries all the state a click needs.

Nothing is kept in a View object: a click is decoded from its id (table, hand, action
number, verb) and handed to the bot's handlers, which ask the table service. So the
buttons on a message posted before a restart keep working after it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

import discord

from dealerbot.engine.events import ActionKind
from dealerbot.tables import events as ev

if TYPE_CHECKING:
    from dealerbot.store.leaderboard import LeaderboardPage

ACTION_TEMPLATE = (
    r"stud:(?P<table>\d{1,19}):(?P<hand>\d{1,19}):(?P<seq>\d{1,9}):(?P<act>[a-z_]{1,12})"
)
CARDS_TEMPLATE = r"stud:cards:(?P<table>\d{1,19})"
BOARD_TEMPLATE = r"stud:board:(?P<page>\d{1,6}):(?P<dir>prev|next)"

_STYLES = {
    ActionKind.FOLD: discord.ButtonStyle.danger,
    ActionKind.CHECK: discord.ButtonStyle.success,
    ActionKind.CALL: discord.ButtonStyle.success,
}


class ClickHandlers(Protocol):
    """What the bot offers the buttons (implemented by the play cog)."""

    async def on_action_click(
        self, interaction: discord.Interaction[Any], table_id: int, hand_id: int, seq: int, act: str
    ) -> None: ...

    async def on_cards_click(
        self, interaction: discord.Interaction[Any], table_id: int
    ) -> None: ...

    async def on_board_click(self, interaction: discord.Interaction[Any], page: int) -> None: ...


def handlers(interaction: discord.Interaction[Any]) -> ClickHandlers:
    found = getattr(interaction.client, "click_handlers", None)
    if found is None:
        raise RuntimeError("the bot has no click handlers")
    return found  # type: ignore[no-any-return]


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
        await handlers(interaction).on_action_click(
            interaction, self.table_id, self.hand_id, self.seq, self.act
        )


_KINDS = frozenset(kind.value for kind in ActionKind)


class CardsButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CARDS_TEMPLATE):
    """ "My cards": the clicker's own cards, ephemeral (the fallback for blocked DMs)."""

    def __init__(self, table_id: int, *, row: int = 1) -> None:
        super().__init__(
            discord.ui.Button(
                label="My cards",
                emoji="🃏",  # in Discord's emoji set; U+1F0A0 is refused (50035)
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
        await handlers(interaction).on_cards_click(interaction, self.table_id)


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
        await handlers(interaction).on_board_click(interaction, self.page)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
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

"""The buttons' look and ids: each ``custom_id`` carries all the state a click needs.

A button's id says everything (table, hand, action number, verb; or a leaderboard
page), so a click on a message posted before a restart still works after it. This
module only lays buttons out; what a click does lives with the ``/stud`` cog
(:mod:`.cogs.stud_buttons`), whose :class:`~discord.ui.DynamicItem` classes match these
ids. The views built here are layouts: stopped before sending, so discord.py keeps no
per-message state for them and dispatches clicks to those dynamic items alone.
"""

from __future__ import annotations

from typing import Any

import discord

from dealerbot.tables import ActionKind, LeaderboardPage
from dealerbot.tables import events as ev

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


def action_button(
    table_id: int, hand_id: int, seq: int, act: str, label: str = "", *, row: int = 0
) -> discord.ui.Button[Any]:
    """One legal action of the player to act: ``stud:<table>:<hand>:<seq>:<verb>``."""
    style = discord.ButtonStyle.primary
    if act in _KINDS:
        style = _STYLES.get(ActionKind(act), style)
    return discord.ui.Button(
        label=(label or act)[:80],
        custom_id=f"stud:{table_id}:{hand_id}:{seq}:{act}",
        style=style,
        row=row,
    )


def cards_button(table_id: int, *, row: int = 1) -> discord.ui.Button[Any]:
    """ "My cards": the clicker's own cards, ephemeral (the fallback for blocked DMs)."""
    return discord.ui.Button(
        label="My cards",
        emoji=CARDS_EMOJI,
        custom_id=f"stud:cards:{table_id}",
        style=discord.ButtonStyle.secondary,
        row=row,
    )


def board_button(page: int, direction: str, *, disabled: bool = False) -> discord.ui.Button[Any]:
    """Leaderboard paging: the target page is in the id."""
    return discord.ui.Button(
        label="◀ Previous" if direction == "prev" else "Next ▶",
        custom_id=f"stud:board:{page}:{direction}",
        style=discord.ButtonStyle.secondary,
        disabled=disabled,
    )


def _layout(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()  # a layout only: the registered dynamic items answer the clicks
    return view


def table_buttons(table_id: int, turn: ev.Turn | None, *, in_hand: bool) -> discord.ui.View | None:
    """Buttons for exactly the legal actions of the player to act, plus "My cards"."""
    if not in_hand:
        return None
    actions = []
    if turn is not None:
        actions = [
            action_button(table_id, turn.hand_id, turn.seq, option.kind.value, option.label)
            for option in turn.options[:5]
        ]
    return _layout(*actions, cards_button(table_id, row=1 if actions else 0))


def board_buttons(page: LeaderboardPage) -> discord.ui.View:
    last = max(page.pages, 1)
    return _layout(
        board_button(max(page.page - 1, 1), "prev", disabled=page.page <= 1),
        board_button(min(page.page + 1, last), "next", disabled=page.page >= last),
    )

"""The table message's buttons: their look, their layout and their ids.

A button's id says everything a click needs (table, hand, action number, verb), so a
click on a message posted before a restart still works after it. This module only lays
buttons out; what a click does lives in :mod:`.cogs.clicks`, whose
:class:`~discord.ui.DynamicItem` classes match these ids (the leaderboard's own paging
buttons are its cog's, :mod:`.cogs.stud_stats`). The views built here are layouts:
stopped before sending, so discord.py keeps no per-message state for them and
dispatches clicks to those dynamic items alone.
"""

from __future__ import annotations

from typing import Any

import discord

from dealerbot.tables import ActionKind, TablePhase, TableView, Variant
from dealerbot.tables import events as ev

from .discord_limits import BUTTON_LABEL, BUTTONS_PER_ROW
from .games_text import short_title
from .table_embeds import busted

ACTION_TEMPLATE = (
    r"stud:(?P<table>\d{1,19}):(?P<hand>\d{1,19}):(?P<seq>\d{1,9}):(?P<act>[a-z_]{1,12})"
)
CARDS_TEMPLATE = r"stud:cards:(?P<table>\d{1,19})"
SEAT_TEMPLATE = r"stud:(?P<verb>sit|buyin|away|leave|rebuy):(?P<table>\d{1,19})"
HAND_TEMPLATE = r"stud:(?P<verb>file|proof):(?P<hand>\d{1,19})"
GAME_TEMPLATE = r"stud:game:(?P<table>\d{1,19}):(?P<game>[a-z0-9]{1,12})"
# The Buy in… form: one per table and player (discord.py would let one open form replace
# another with the same id), answered from its id alone (so it survives a restart).
BUYIN_FORM_TEMPLATE = r"stud:buyin-form:(?P<table>\d{1,19}):(?P<user>\d{1,20})"
SEAT_BUTTONS = {
    "sit": ("Sit down", discord.ButtonStyle.primary),
    "buyin": ("Buy in…", discord.ButtonStyle.secondary),
    "away": ("Sit out / in", discord.ButtonStyle.secondary),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "rebuy": ("Rebuy", discord.ButtonStyle.primary),
}
JOIN = "Join…"  # the one seat button for a free seat: the buy-in form, default filled in
HAND_BUTTONS = {"file": ("Hand file", "\U0001f4c4"), "proof": ("Proof", "\U0001f50f")}  # 📄 🔏
REBUY_QUEUED = "Rebuy queued"  # every busted player has his rebuy queued for the next deal
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
        label=(label or act)[:BUTTON_LABEL],
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


def _layout(*items: discord.ui.Item[Any]) -> discord.ui.View:
    layout = discord.ui.View(timeout=None)
    for item in items:
        layout.add_item(item)
    layout.stop()  # a layout only: the registered dynamic items answer the clicks
    return layout


def seat_button(
    table_id: int, verb: str, *, row: int, label: str | None = None
) -> discord.ui.Button[Any]:
    """A seat button (``stud:<verb>:<table>``): sit down, buy in, sit out/in, leave, rebuy."""
    shown, style = SEAT_BUTTONS[verb]
    return discord.ui.Button(
        label=label or shown, custom_id=f"stud:{verb}:{table_id}", style=style, row=row
    )


def buyin_form_id(table_id: int, user_id: int) -> str:
    """The id of one player's Buy in… form (at most 56 characters; Discord allows 100)."""
    return f"stud:buyin-form:{table_id}:{user_id}"


def game_button(table_id: int, game: Variant, *, row: int) -> discord.ui.Button[Any]:
    """Dealer's choice (``stud:game:<table>:<game>``): only the button player's press counts."""
    return discord.ui.Button(
        label=short_title(game),
        custom_id=f"stud:game:{table_id}:{game.value}",
        style=discord.ButtonStyle.primary,
        row=row,
    )


def table_buttons(view: TableView, turn: ev.Turn | None) -> discord.ui.View | None:
    """What fits the moment: a dealer's-choice pick's games first, else the actions of the
    player to act; then grey My cards (in a hand), Sit out / in and Leave; one Join… (the
    buy-in form, the default filled in) only while a seat is free; Rebuy while someone is
    busted (it reads "Rebuy queued" once every busted player's rebuy waits for the deal).
    """
    if view.status is TablePhase.CLOSED:
        return None
    open_table = view.status is not TablePhase.CLOSING  # a closing table seats no one
    table_id = view.table_id
    items: list[discord.ui.Item[Any]] = []
    choice = view.games.choice if view.games is not None else None
    if open_table and choice is not None:
        items = [game_button(table_id, game, row=0) for game in choice.options[:BUTTONS_PER_ROW]]
    elif turn is not None:
        items = [
            action_button(table_id, turn.hand_id, turn.seq, option.kind.value, option.label)
            for option in turn.options[:BUTTONS_PER_ROW]
        ]
    row = 1 if items else 0
    if view.hand_id is not None:
        items.append(cards_button(table_id, row=row))
    if open_table and view.seats:
        items += [seat_button(table_id, "away", row=row), seat_button(table_id, "leave", row=row)]
    if open_table and len(view.seats) < view.stakes.seats:
        items.append(seat_button(table_id, "buyin", row=row, label=JOIN))
    items += rebuy_buttons(view, row=row + 1)
    return _layout(*items) if items else None


def rebuy_buttons(view: TableView, *, row: int) -> list[discord.ui.Item[Any]]:
    """Rebuy while someone is busted at an open table (none, or one button)."""
    broke = [seat for seat in view.seats if busted(seat)]
    if view.status is not TablePhase.WAITING and view.status is not TablePhase.PLAYING:
        return []
    if not broke:
        return []
    queued = REBUY_QUEUED if all(seat.queued > 0 for seat in broke) else None
    return [seat_button(view.table_id, "rebuy", row=row, label=queued)]


def hand_button(verb: str, hand_id: int, *, row: int = 0) -> discord.ui.Button[Any]:
    """``stud:<file|proof>:<hand>``: a finished hand's file or proof, privately."""
    label, emoji = HAND_BUTTONS[verb]
    return discord.ui.Button(
        label=label,
        emoji=emoji,
        custom_id=f"stud:{verb}:{hand_id}",
        style=discord.ButtonStyle.secondary,
        row=row,
    )


def result_buttons(
    view: TableView | None, hand_id: int, *, finished: bool = True
) -> discord.ui.View | None:
    """The result between hands: Sit out / in and Rebuy (while someone is busted) for the
    table as it is now, then the hand's file and proof (no id to type; none for a hand
    called off, which has neither)."""
    items: list[discord.ui.Item[Any]] = []
    if view is not None and view.status in (TablePhase.WAITING, TablePhase.PLAYING) and view.seats:
        items.append(seat_button(view.table_id, "away", row=0))
        items += rebuy_buttons(view, row=0)
    if finished:
        items += [hand_button("file", hand_id), hand_button("proof", hand_id)]
    return _layout(*items) if items else None

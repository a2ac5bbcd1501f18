"""Every click on the table message, its Buy in… form, and the answer to a click nothing takes.

Each button is a dynamic item matched by its id (the templates of :mod:`..buttons`) and
rebuilt from the id alone, so a button on a message posted before a restart still works:

- an action (``stud:<table>:<hand>:<seq>:<verb>``) goes to the table's messenger, which
  checks it, runs it and answers with the new table;
- **My cards** (``stud:cards:<table>``) answers the clicker's own cards, ephemeral;
- the seat buttons (``stud:<sit|buyin|away|leave|rebuy>:<table>``) answer privately with
  what happened (the table message itself is updated by its messenger); what is not
  allowed is refused with a reason and changes nothing;
- **Buy in…** opens a form whose id names the table and the player
  (``stud:buyin-form:<table>:<user>``), so two players' forms open at once are two forms;
  its submission is answered from the id (:func:`submit_buy_in`), before or after a restart;
- dealer's choice (``stud:game:<table>:<game>``): everyone sees the buttons, the table
  service accepts the press of the player on the button only;
- a result's **Hand file** and **Proof** (``stud:<file|proof>:<hand>``) answer as
  ``/stud hand`` and ``/stud verify`` do, privately.

discord.py gives a click to each dynamic item whose template matches the id and that
finds the component on the clicked message; a click nothing takes (a button of an older
bot, a forged id) it drops without an answer, which the player sees as "This interaction
failed". :class:`StrayClicks` sees every interaction and answers those, deciding from the
id and the message alone exactly as discord.py does, so it never races the item that
takes the click. Forms come through it too: the Buy in… form is sent as a stopped layout
(like the buttons), so nothing else would answer it.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Iterable
from typing import Any, cast

import discord
from discord.ext import commands

from dealerbot.tables import TableService, TableView, Variant

from .. import answers
from ..buttons import (
    ACTION_TEMPLATE,
    BUYIN_FORM_TEMPLATE,
    CARDS_TEMPLATE,
    GAME_TEMPLATE,
    HAND_TEMPLATE,
    JOIN,
    SEAT_TEMPLATE,
    buyin_form_id,
)
from ..discord_limits import CUSTOM_ID, TEXT_INPUT_LABEL
from ..errors import UserError, answer, answer_failure, place
from ..games_text import short_title
from ..markup import command_hint
from .base import display_name, relay_of, service_of
from .stud_history import hand_reply
from .stud_verify import verify_reply

log = logging.getLogger(__name__)

Button = discord.ui.Button[Any]
Click = type[discord.ui.DynamicItem[Any]]
AMOUNT_FIELD = "amount"  # the Buy in… form's one text input
TABLE_GONE = "That table is closed; the current one is further down."
BUYIN_FORM = re.compile(BUYIN_FORM_TEMPLATE)


def as_button(item: discord.ui.Item[Any]) -> Button:
    """The clicked component, which a ``stud:`` id only ever names on a button."""
    if not isinstance(item, discord.ui.Button):
        raise TypeError(f"a /stud id on a {type(item).__name__}, not a button")
    return item


def raw_data(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The interaction's ``data`` as sent (ids, component type, a form's fields)."""
    return cast(dict[str, Any], interaction.data or {})


async def current_table(interaction: discord.Interaction[Any], table_id: int) -> TableView:
    """The table of this channel, if it is still the one the clicked message showed."""
    guild_id, channel_id = place(interaction)
    view = await service_of(interaction).table_view(guild_id, channel_id)
    if view.table_id != table_id:
        raise UserError(TABLE_GONE)
    return view


# --- the hand: actions and My cards ------------------------------------------------------


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
        return cls(as_button(item), *where, match["act"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """The table messenger checks the click, runs it and answers with the new table."""
        try:
            guild_id, channel_id = place(interaction)
            service = service_of(interaction)
            messenger = relay_of(interaction).messenger(guild_id, channel_id)
            where = (self.table_id, self.hand_id, self.seq)
            await messenger.answer_action(interaction, service, where, self.act)
            owed = relay_of(interaction).owed_reminder(interaction.user.id)
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
        return cls(as_button(item))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            mine = await service_of(interaction).my_cards(guild_id, channel_id, interaction.user.id)
            faces = await relay_of(interaction).decks.faces(interaction.user.id)
            text = answers.private_player_text(mine, faces)
            owed = relay_of(interaction).owed_reminder(interaction.user.id)
            if owed is not None:  # why his cards did not come by DM, and what he can do
                text += f"\n{owed}"
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.send_message(text, ephemeral=True)


# --- the seats: Sit down, Buy in…, Sit out / in, Leave, Rebuy -----------------------------


def join_hint() -> str:
    return (
        f"You are not seated at this table: press **{JOIN}** (or use "
        f"{command_hint('stud join')}) to play from the next hand."
    )


def parse_amount(text: str, low: int, high: int) -> int:
    """A buy-in typed in the form: a whole number within the table's range."""
    cleaned = text.strip().replace(",", "").replace("_", "")
    if not cleaned.isdecimal():  # isdigit() takes "²", which int() refuses
        raise UserError(f"The buy-in must be a whole number of chips ({low} to {high}).")
    digits = "".join(str(unicodedata.decimal(char)) for char in cleaned).lstrip("0")
    if len(digits) > len(str(high)):  # past the range; int() refuses 4,300 digits and more
        raise UserError(f"The buy-in at this table is {low} to {high} chips.")
    amount = int(digits or "0")
    if not low <= amount <= high:  # the table's range lies within the chip bound
        raise UserError(f"The buy-in at this table is {low} to {high} chips (you asked {amount}).")
    return amount


class BuyInModal(discord.ui.Modal):
    """Another buy-in than the default: one number. A layout only, like the buttons:
    stopped before it is sent, so discord.py keeps no form (one per id, which two players'
    forms would share) and :func:`submit_buy_in` answers it from its id."""

    def __init__(self, view: TableView, user_id: int) -> None:
        super().__init__(title="Sit down", custom_id=buyin_form_id(view.table_id, user_id))
        self.low, self.high = view.stakes.min_buy_in, view.stakes.max_buy_in
        self.amount: discord.ui.TextInput[BuyInModal] = discord.ui.TextInput(
            label=f"Chips to bring ({self.low}–{self.high})"[:TEXT_INPUT_LABEL],
            custom_id=AMOUNT_FIELD,
            default=str(self.low),
            min_length=1,
            max_length=len(f"{self.high:,}"),  # the largest buy-in, written with commas
        )
        self.add_item(self.amount)
        self.stop()


def form_value(interaction: discord.Interaction[Any], custom_id: str) -> str:
    """What was typed in a submitted form's field (inside an action row or a label)."""
    nodes: list[Any] = list(raw_data(interaction).get("components") or [])
    while nodes:
        node = nodes.pop()
        if not isinstance(node, dict):
            continue
        if node.get("custom_id") == custom_id and isinstance(node.get("value"), str):
            return str(node["value"])
        nodes.extend(node.get("components") or [])
        nodes.append(node.get("component"))
    return ""


async def submit_buy_in(interaction: discord.Interaction[Any], match: re.Match[str]) -> None:
    """A Buy in… form sent back: the table and player from its id, the number typed."""
    try:
        guild_id, channel_id = place(interaction)
        if int(match["user"]) != interaction.user.id:
            raise UserError("That form is another player's: press **Buy in…** for your own.")
        view = await current_table(interaction, int(match["table"]))
        stakes = view.stakes
        amount = parse_amount(
            form_value(interaction, AMOUNT_FIELD), stakes.min_buy_in, stakes.max_buy_in
        )
        name = display_name(interaction.user)
        service = service_of(interaction)
        joined = await service.join(guild_id, channel_id, interaction.user.id, name, amount)
        relay_of(interaction).messenger(guild_id, channel_id).retry_now()
    except Exception as error:
        await answer_failure(interaction, error)
        return
    await interaction.response.send_message(answers.joined_text(joined), ephemeral=True)


class SeatClick(discord.ui.DynamicItem[Button], template=SEAT_TEMPLATE):
    """``stud:<sit|buyin|away|leave|rebuy>:<table>``."""

    def __init__(self, item: Button, verb: str, table_id: int) -> None:
        super().__init__(item)
        self.verb, self.table_id = verb, table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatClick:
        return cls(as_button(item), match["verb"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            view = await current_table(interaction, self.table_id)
            if self.verb == "buyin":
                await interaction.response.send_modal(BuyInModal(view, interaction.user.id))
                return
            service = service_of(interaction)
            text = await self.run(interaction, service, view, guild_id, channel_id)
        except Exception as error:
            await answer_failure(interaction, error)
            return
        await interaction.response.send_message(text, ephemeral=True)

    async def run(
        self,
        interaction: discord.Interaction[Any],
        service: TableService,
        view: TableView,
        guild_id: int,
        channel_id: int,
    ) -> str:
        user_id = interaction.user.id
        seat = view.seat_of(user_id)
        if self.verb == "sit":
            name = display_name(interaction.user)
            joined = await service.join(guild_id, channel_id, user_id, name, None)
            relay_of(interaction).messenger(guild_id, channel_id).retry_now()
            return answers.joined_text(joined)
        if seat is None:
            raise UserError(join_hint())
        if self.verb == "leave":
            return answers.leave_text(await service.leave(guild_id, channel_id, user_id))
        if self.verb == "away":
            if seat.sitting_out:
                await service.sit_in(guild_id, channel_id, user_id)
                return "You are dealt in again from the next hand."
            await service.sit_out(guild_id, channel_id, user_id)
            if seat.in_hand:
                return "You finish this hand, then sit out; press **Sit out / in** to come back."
            return "You sit out from the next hand; press **Sit out / in** to come back."
        # rebuy: the service decides (busted, one queued rebuy per bust) and says why not
        added = await service.rebuy(guild_id, channel_id, user_id)
        return answers.add_chips_text(added.table.stakes.min_buy_in, added)


# --- dealer's choice ---------------------------------------------------------------------


class GameClick(discord.ui.DynamicItem[Button], template=GAME_TEMPLATE):
    """``stud:game:<table>:<game>``: the button player's pick of the next game. Anyone else
    is told privately who chooses; a prompt posted before a restart still answers (the
    pick is then offered again)."""

    def __init__(self, item: Button, table_id: int, game: str) -> None:
        super().__init__(item)
        self.table_id, self.game = table_id, game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameClick:
        return cls(as_button(item), int(match["table"]), match["game"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            await current_table(interaction, self.table_id)
            service = service_of(interaction)
            await service.choose_game(guild_id, channel_id, interaction.user.id, self.game)
            relay_of(interaction).messenger(guild_id, channel_id).retry_now()
        except Exception as error:
            await answer_failure(interaction, error)
            return
        title = short_title(Variant(self.game))
        await interaction.response.send_message(
            f"You chose {title}: the next hand is dealt now.", ephemeral=True
        )


# --- a finished hand: its file and its proof ----------------------------------------------


class HandClick(discord.ui.DynamicItem[Button], template=HAND_TEMPLATE):
    """``stud:<file|proof>:<hand>`` on a result: what ``/stud hand id:`` and ``/stud verify
    id:`` answer, privately, without an id to type (the service's rules and refusals)."""

    def __init__(self, item: Button, verb: str, hand_id: int) -> None:
        super().__init__(item)
        self.verb, self.hand_id = verb, hand_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandClick:
        return cls(as_button(item), match["verb"], int(match["hand"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = service_of(interaction)
        if self.verb == "file":
            await answer(interaction, lambda: hand_reply(service, interaction, self.hand_id))
        else:
            await answer(interaction, lambda: verify_reply(service, interaction, self.hand_id))


TABLE_CLICKS: tuple[Click, ...] = (ActionClick, CardsClick, SeatClick, GameClick, HandClick)


# --- what no button takes ----------------------------------------------------------------


def stray_text() -> str:
    return (
        "This button belongs to an old table message: use the newest one, or "
        f"{command_hint('stud table')}."
    )


def stray_form_text() -> str:
    return (
        "This form belongs to an old table message: press **Buy in…** on the newest one, "
        f"or use {command_hint('stud join')}."
    )


def carries(message: discord.Message, kind: object, custom_id: str) -> bool:
    """The clicked message carries this component (discord.py looks it up the same way)."""
    kind_of_layout = discord.ui.LayoutView if message.flags.components_v2 else discord.ui.View
    layout = kind_of_layout.from_message(message, timeout=None)  # read only: never stored
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in layout.walk_children()
    )


class StrayClicks(commands.Cog):
    """The answer of last resort for clicks and forms nothing else answers."""

    def __init__(self, clicks: Iterable[Click]) -> None:
        self.templates = tuple(click.__discord_ui_compiled_template__ for click in clicks)

    def taken(self, interaction: discord.Interaction[Any], custom_id: str) -> bool:
        """A registered dynamic item takes this click (its id and its message fit)."""
        if not any(template.fullmatch(custom_id) for template in self.templates):
            return False
        message = interaction.message
        kind = raw_data(interaction).get("component_type")
        return message is not None and carries(message, kind, custom_id)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        custom_id = str(raw_data(interaction).get("custom_id", ""))
        if interaction.type is discord.InteractionType.component:
            if not self.taken(interaction, custom_id):
                await answer_stray(interaction, custom_id, stray_text())
        elif interaction.type is discord.InteractionType.modal_submit:
            form = BUYIN_FORM.fullmatch(custom_id)
            if form is not None:
                await submit_buy_in(interaction, form)
            else:
                await answer_stray(interaction, custom_id, stray_form_text())


async def answer_stray(interaction: discord.Interaction[Any], custom_id: str, text: str) -> None:
    log.info(
        "stray interaction %r from user %s in channel %s",
        custom_id[:CUSTOM_ID],
        interaction.user.id,
        interaction.channel_id,
    )
    if interaction.response.is_done():
        return
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:  # expired or answered elsewhere: nothing to undo
        log.warning("could not answer stray interaction %r: %s", custom_id[:CUSTOM_ID], error)


async def register(bot: commands.Bot, *clicks: Click) -> None:
    """The buttons' dynamic items, and behind them the answer for what none of them takes
    (one list, so the fallback always knows every registered button)."""
    bot.add_dynamic_items(*clicks)
    await bot.add_cog(StrayClicks(clicks))

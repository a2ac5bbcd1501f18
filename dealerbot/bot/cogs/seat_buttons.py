"""The table message's seat buttons: Sit down, Buy in…, Sit out / in, Leave, Rebuy.

Each is a dynamic item matched by id (``stud:<verb>:<table>``), so it works on a message
posted before a restart. A click answers privately with what happened (the table
message itself is updated by its messenger); what is not allowed is refused with a
reason and changes nothing. The words are shared with the ``/stud`` commands. The Buy in…
form is the same: its id names the table and the player
(``stud:buyin-form:<table>:<user>``), so two players' forms open at once are two forms, and
its submission is answered from the id (:func:`submit_buy_in`, routed by
:mod:`.stray_buttons`), before or after a restart alike.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any, cast

import discord

from dealerbot.tables import LeaveOutcome, PlayerView, TableService, TableView

from .. import mentions
from ..buttons import SEAT_TEMPLATE, buyin_form_id
from ..discord_limits import TEXT_INPUT_LABEL
from ..errors import UserError, answer_failure, place
from .base import display_name
from .stud_buttons import _button, _relay, _service

Button = discord.ui.Button[Any]
AMOUNT_FIELD = "amount"  # the form's one text input
TABLE_GONE = "That table is closed; the current one is further down."


def joined_text(view: PlayerView) -> str:
    text = f"You sit down with {view.stack} chips."
    if view.table.hand_id is not None:
        text += " You are dealt in from the next hand."
    return text


def leave_text(outcome: LeaveOutcome) -> str:
    """What leaving does, said as it is done (the dealer plays out a hand in progress)."""
    if outcome.left_now:
        text = f"You left the table; {outcome.cashed_out} chips went to your wallet."
    else:
        text = (
            "You leave when this hand ends. Until then the dealer plays your hand for you: "
            "it checks when it can and folds to any bet. Your chips then go to your wallet."
        )
    if outcome.dropped_top_up:  # it was for this seat's next deal, which he will not play
        text += f" Your queued {outcome.dropped_top_up} chips stay in your wallet."
    return text


def join_hint() -> str:
    return (
        f"You are not seated at this table: press **Sit down** (or use "
        f"{mentions.command('stud join')}) to play from the next hand."
    )


def add_chips_text(amount: int, view: PlayerView) -> str:
    """Added now, or (during a hand) queued: the chips move just before the next deal."""
    if view.table.hand_id is not None:
        return (
            f"Queued: {amount} chips join your stack before the next deal "
            "(nothing leaves your wallet until this hand is over)."
        )
    return f"Added {amount} chips; you have {view.stack} at the table."


def parse_amount(text: str, low: int, high: int) -> int:
    """A buy-in typed in the modal: a whole number within the table's range."""
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


def raw_data(interaction: discord.Interaction[Any]) -> dict[str, Any]:
    """The interaction's ``data`` as sent (ids, component type, a form's fields)."""
    return cast(dict[str, Any], interaction.data or {})


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
        service = _service(interaction)
        view = await service.table_view(guild_id, channel_id)
        if view.table_id != int(match["table"]):
            raise UserError(TABLE_GONE)
        stakes = view.stakes
        amount = parse_amount(
            form_value(interaction, AMOUNT_FIELD), stakes.min_buy_in, stakes.max_buy_in
        )
        name = display_name(interaction.user)
        joined = await service.join(guild_id, channel_id, interaction.user.id, name, amount)
        _relay(interaction).messenger(guild_id, channel_id).retry_now()
    except Exception as error:
        await answer_failure(interaction, error)
        return
    await interaction.response.send_message(joined_text(joined), ephemeral=True)


class SeatClick(discord.ui.DynamicItem[Button], template=SEAT_TEMPLATE):
    """``stud:<sit|buyin|away|leave|rebuy>:<table>``."""

    def __init__(self, item: Button, verb: str, table_id: int) -> None:
        super().__init__(item)
        self.verb, self.table_id = verb, table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SeatClick:
        return cls(_button(item), match["verb"], int(match["table"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            guild_id, channel_id = place(interaction)
            service = _service(interaction)
            view = await service.table_view(guild_id, channel_id)
            if view.table_id != self.table_id:
                raise UserError(TABLE_GONE)
            if self.verb == "buyin":
                await interaction.response.send_modal(BuyInModal(view, interaction.user.id))
                return
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
            _relay(interaction).messenger(guild_id, channel_id).retry_now()
            return joined_text(joined)
        if seat is None:
            raise UserError(join_hint())
        if self.verb == "leave":
            return leave_text(await service.leave(guild_id, channel_id, user_id))
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
        return add_chips_text(added.table.stakes.min_buy_in, added)


SEAT_CLICKS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SeatClick,)

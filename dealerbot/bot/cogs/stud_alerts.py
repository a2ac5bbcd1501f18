"""A player's own settings: ``/stud alerts on|off`` (a DM when his turn has waited a
while) and ``/stud deck style:`` (how his DMs and private answers draw cards).

A mixin of the ``/stud`` group cog. Each setting is the player's (all servers), stored by
the table service, whose deck styles and words these are; the relay's
:class:`~..turn_alerts.TurnAlerts` and :class:`~..relay.PlayerDecks` learn it at once.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables import Card, DeckStyle

from ..errors import Reply
from ..markup import cards_shown, faces_for
from .base import CogBase
from .options import DECK_CHOICES

CHOICES = [
    app_commands.Choice(name="on: a DM when your turn has waited a few seconds", value="on"),
    app_commands.Choice(name="off: no turn alerts", value="off"),
]


SAMPLE = "As Kh Qd Jc 10s"  # five cards, one of each suit and colour


def deck_text(style: DeckStyle, sample: str) -> str:
    """The confirmation, with a sample drawn as he will now see his cards."""
    text = f"Your cards in DMs and private answers: {style.value} ({style.words}): {sample}"
    if style is not DeckStyle.TEXT and sample.startswith("`"):
        text += "\nThe card pictures are not uploaded yet, so you see text cards for now."
    return text + "\nThe table's own message keeps the server's deck."


def alerts_text(on: bool, delay: float) -> str:
    if not on:
        return "Turn alerts are off: the table message is the only place that shows your turn."
    if delay <= 0:
        return "Turn alerts are on for you, but this dealer sends none (its operator chose so)."
    return (
        f"Turn alerts are on: when your turn has waited {delay:g} seconds, "
        "I send you one direct message with a link to the table."
    )


class AlertCommands(CogBase, commands.Cog):
    """The alert subcommand of ``/stud`` (a Cog only for typing: never loaded alone)."""

    @app_commands.command(name="alerts", description="Turn alerts by DM on or off for you")
    @app_commands.describe(setting="on or off")
    @app_commands.choices(setting=CHOICES)
    async def alerts(
        self, interaction: discord.Interaction[Any], setting: app_commands.Choice[str]
    ) -> None:
        async def work() -> Reply:
            if setting.value not in ("on", "off"):
                return Reply("Choose on or off.")
            on = setting.value == "on"
            relay = self.relay
            await self.service.prefs.set_turn_alerts(interaction.user.id, on)
            relay.alerts.remember(interaction.user.id, on)
            return Reply(alerts_text(on, relay.alerts.delay))

        await self.run(interaction, work)

    @app_commands.command(name="deck", description="How your DMs and private answers draw cards")
    @app_commands.describe(style="classic, four-colour or text")
    @app_commands.choices(style=DECK_CHOICES)
    async def deck(
        self, interaction: discord.Interaction[Any], style: app_commands.Choice[str]
    ) -> None:
        async def work() -> Reply:
            chosen = await self.service.prefs.set_deck(interaction.user.id, style.value)
            self.relay.decks.remember(interaction.user.id, chosen)
            sample = [Card.parse(card) for card in SAMPLE.split()]
            return Reply(deck_text(chosen, cards_shown(sample, faces_for(chosen))))

        await self.run(interaction, work)

"""``/stud alerts on|off``: whether a player gets a DM when his turn has waited a while.

A mixin of the ``/stud`` group cog. The setting is the player's (all servers), stored by
the table service; the relay's :class:`~..turn_alerts.TurnAlerts` learns it at once.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from ..errors import Reply
from .base import CogBase

CHOICES = [
    app_commands.Choice(name="on: a DM when your turn has waited a few seconds", value="on"),
    app_commands.Choice(name="off: no turn alerts", value="off"),
]


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

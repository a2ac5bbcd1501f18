"""``/stud verify``: the proof of a fair deal for a finished hand, privately, as a file.

A mixin of the ``/stud`` group cog (its command joins the group through the cog's class).
The service decides which cards the asker may see opened and checks every proof against
the commitment shown when the hand started; this layer attaches the JSON document and
says the verdict in one line.
"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables import ProofAnswer

from ..errors import Reply, place
from .base import CogBase
from .options import HandId

CHECK_HINT = "Check it yourself: `dealerbot verify {name}` (or the few lines in the README)."


def proof_reply(answer: ProofAnswer) -> Reply:
    """The verdict line, what the file opens, and the file (none for an old-scheme hand)."""
    where = f"Hand {answer.hand_id} (#{answer.number} at <#{answer.channel_id}>)"
    if answer.document is None:
        return Reply(f"{where}: {answer.verdict}")
    opened = f"{answer.cards} cards opened: every public card of the hand"
    if answer.own_down_cards:
        opened += f" and your {answer.own_down_cards} down cards"
    lines = [
        f"{where} — {answer.verdict}",
        f"{opened}; nobody's unshown down cards, no undealt card.",
        CHECK_HINT.format(name=answer.filename),
    ]
    file = discord.File(io.BytesIO(answer.document.encode()), filename=answer.filename)
    return Reply("\n".join(lines), files=(file,))


class VerifyCommands(CogBase, commands.Cog):
    """The verify subcommand of ``/stud`` (a Cog only for typing: never loaded alone)."""

    @app_commands.command(name="verify", description="Proof that a finished hand was dealt fairly")
    @app_commands.rename(hand_id="id")
    @app_commands.describe(hand_id="The hand id (the result message shows it)")
    async def verify(
        self,
        interaction: discord.Interaction[Any],
        hand_id: HandId,
    ) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            answer = await self.service.proofs.verify(guild_id, interaction.user.id, hand_id)
            return proof_reply(answer)

        await self.run(interaction, work)

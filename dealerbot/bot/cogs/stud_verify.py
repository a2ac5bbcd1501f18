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

from dealerbot.tables import ProofAnswer, TableService

from ..errors import Reply, place
from .base import CogBase
from .options import HandId
from .stud_history import channel_names

TITLE = "Proof that the cards were fixed before the deal"


def proof_reply(answer: ProofAnswer) -> Reply:
    """What the proof proves, the verdict, the commitment to compare, what the files open,
    and the files: the hand page any browser checks offline, and the JSON document."""
    where = f"hand #{answer.number} at <#{answer.channel_id}> (id {answer.hand_id})"
    if answer.document is None:
        return Reply(f"**{TITLE}**, {where}: {answer.verdict}")
    if answer.dealt_in:
        compare = f"Check that it matches the commitment in your deal DM of hand #{answer.number}."
    else:
        compare = f"Check that it starts like the deck in the footer of hand #{answer.number}."
    opened = f"{answer.cards} cards opened: every public card of the hand"
    if answer.own_down_cards:
        opened += f" and your {answer.own_down_cards} down cards"
    lines = [f"**{TITLE}**, {where}", answer.verdict, compare]
    lines.append(f"{opened}; nobody's unshown down cards, no undealt card.")
    files = [discord.File(io.BytesIO(answer.document.encode()), filename=answer.filename)]
    if answer.page is not None:
        lines.append(
            f"Open **{answer.page.filename}** in any browser: it replays the hand as you saw "
            "it and checks every proof itself, offline, with nothing to install."
        )
        files.insert(0, discord.File(io.BytesIO(answer.page.text.encode()), answer.page.filename))
    return Reply("\n".join(lines), files=tuple(files))


async def verify_reply(
    service: TableService, interaction: discord.Interaction[Any], hand_id: int
) -> Reply:
    """``/stud verify`` and the result's **Proof** button answer with it."""
    guild_id, _ = place(interaction)
    answer = await service.proofs.verify(
        guild_id, interaction.user.id, hand_id, channel_names(interaction)
    )
    return proof_reply(answer)


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
            return await verify_reply(self.service, interaction, hand_id)

        await self.run(interaction, work)

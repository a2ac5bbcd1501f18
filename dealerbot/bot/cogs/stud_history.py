"""``/stud history`` and ``/stud hand``: a player's recent hands, and hand history files.

A mixin of the ``/stud`` group cog (its commands join the group through the cog's class).
The service decides what a file holds (the asker's view of the hand) and refuses what it
must; this layer names the channels, fits the files to Discord's attachment limit, and
answers privately.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from dealerbot.tables import (
    DEFAULT_HISTORY,
    HISTORY_FILE_HANDS,
    HISTORY_LINES,
    HistoryFile,
    HistoryLine,
    TableService,
)

from ..discord_limits import ATTACHMENTS, DEFAULT_UPLOAD_BYTES, EMBED_TEXT_BUDGET
from ..errors import Reply, place
from .base import CogBase
from .options import HandId, HistoryFileHands, HistoryLines

FORMATS = [
    app_commands.Choice(name="PokerStars text (trackers, replayers)", value="pokerstars"),
    app_commands.Choice(name="PHH (pokerkit)", value="phh"),
]


def history_line(line: HistoryLine) -> str:
    """One hand as a line: id, table, time, game and stakes, the asker's net, the winners."""
    winners = line.winners if len(line.winners) <= 90 else line.winners[:89] + "…"
    return (
        f"`{line.hand_id}` <#{line.channel_id}> <t:{int(line.started_at)}:f> · "
        f"{line.game} {line.stakes} · **{line.net:+,}** · {discord.utils.escape_markdown(winners)}"
    )


def history_reply(lines: list[HistoryLine], names: dict[int, str]) -> Reply:
    """As many lines as one embed holds; all of them in an attached text file if they do not
    all fit (50 long lines are more than a message may carry)."""
    texts = [history_line(line) for line in lines]
    shown: list[str] = []
    for text in texts:
        if sum(len(t) + 1 for t in shown) + len(text) > EMBED_TEXT_BUDGET:
            break
        shown.append(text)
    embed = discord.Embed(title=f"Your last {len(texts)} hands here", description="\n".join(shown))
    if len(shown) == len(texts):
        return Reply(embed=embed)
    embed.set_footer(text=f"{len(texts) - len(shown)} older hands are in the attached file.")
    plain = "\n".join(plain_line(line, names) for line in lines) + "\n"
    file = HistoryFile(f"history-{len(lines)}.txt", plain, tuple(x.hand_id for x in lines))
    return Reply(embed=embed, files=attachments([file]))


def plain_line(line: HistoryLine, names: dict[int, str]) -> str:
    when = datetime.fromtimestamp(line.started_at, UTC).strftime("%Y-%m-%d %H:%M UTC")
    table = names.get(line.channel_id, f"channel {line.channel_id}")
    return (
        f"{line.hand_id}\t{table}\t{when}\t{line.game} {line.stakes}\t{line.net:+}\t{line.winners}"
    )


def attachments(files: list[HistoryFile]) -> tuple[discord.File, ...]:
    return tuple(discord.File(io.BytesIO(f.text.encode()), filename=f.filename) for f in files)


def file_limit(interaction: discord.Interaction[Any]) -> int:
    """The largest attachment this interaction's answer may carry (Discord says, per server)."""
    return int(getattr(interaction, "filesize_limit", 0) or DEFAULT_UPLOAD_BYTES)


def channel_names(interaction: discord.Interaction[Any]) -> dict[int, str]:
    """The server's channel names, for the table line of a history."""
    guild = interaction.guild
    if guild is None:
        return {}
    return {channel.id: f"#{channel.name}" for channel in guild.channels}


async def hand_reply(
    service: TableService,
    interaction: discord.Interaction[Any],
    hand_id: int | None,
    fmt: str = "pokerstars",
    last: int | None = None,
) -> Reply:
    """One hand's file and its hand page (or the asker's last hands), as he saw them:
    ``/stud hand`` and the result's **Hand file** button answer with it."""
    guild_id, _ = place(interaction)
    files = await service.records.hand_files(
        guild_id,
        interaction.user.id,
        hand_id,
        fmt,
        last=last,
        table_names=channel_names(interaction),
        max_bytes=file_limit(interaction),
        max_files=ATTACHMENTS,
    )
    hands = sum(len(f.hand_ids) for f in files)
    what = f"Hand {hand_id}" if hand_id is not None else f"Your last {hands} hands"
    split = f" in {len(files)} files" if len(files) > 1 else ""
    text = f"{what}{split}, as you saw it at the table (others' down cards only if shown)."
    if hand_id is not None and len(files) < ATTACHMENTS:
        page = await service.proofs.page(
            guild_id, interaction.user.id, hand_id, channel_names(interaction)
        )
        if page is not None and len(page.text.encode()) <= file_limit(interaction):
            files = [*files, page]
            text += (
                f"\nOpen **{page.filename}** in any browser: it replays the hand and "
                "checks its proofs itself, offline."
            )
    return Reply(text, files=attachments(files))


class HistoryCommands(CogBase, commands.Cog):
    """The history subcommands of ``/stud`` (a Cog only for typing: never loaded alone)."""

    @app_commands.command(name="history", description="Your last hands in this server")
    @app_commands.describe(
        count=f"How many hands (default {DEFAULT_HISTORY}, at most {HISTORY_LINES.high})"
    )
    async def history(
        self,
        interaction: discord.Interaction[Any],
        count: HistoryLines | None = None,
    ) -> None:
        async def work() -> Reply:
            guild_id, _ = place(interaction)
            lines = await self.service.records.history(
                guild_id, interaction.user.id, DEFAULT_HISTORY if count is None else count
            )
            if not lines:
                return Reply("You have not played a finished hand in this server yet.")
            return history_reply(lines, channel_names(interaction))

        await self.run(interaction, work)

    @app_commands.command(name="hand", description="A hand history file, as you saw the hand")
    @app_commands.rename(hand_id="id", fmt="format")
    @app_commands.describe(
        hand_id="The hand id (the result message shows it)",
        fmt="PokerStars text (default) or PHH",
        last=f"Instead of one hand: your last hands in one file ({HISTORY_FILE_HANDS.text})",
    )
    @app_commands.choices(fmt=FORMATS)
    async def hand(
        self,
        interaction: discord.Interaction[Any],
        hand_id: HandId | None = None,
        fmt: app_commands.Choice[str] | None = None,
        last: HistoryFileHands | None = None,
    ) -> None:
        async def work() -> Reply:
            return await hand_reply(
                self.service, interaction, hand_id, "pokerstars" if fmt is None else fmt.value, last
            )

        await self.run(interaction, work)

"""Links to a table's message, and the one-line pointer an old table message keeps.

After ``/stud table`` (or a re-post of a lost or old message) the previous message
keeps only ``The table moved further down: <link>``: no frozen copy of the table with a
live countdown, no buttons. Deal DMs carry the same kind of link to the table.
"""

from __future__ import annotations

import logging

import discord

from .table_channel import TableChannel

log = logging.getLogger(__name__)

MOVED_TEXT = "The table moved further down"


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a message (to the channel itself with None)."""
    url = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return url if message_id is None else f"{url}/{message_id}"


def pointer_text(guild_id: int, channel_id: int, moved_to: int | None) -> str:
    if moved_to is None:
        return f"{MOVED_TEXT}."
    return f"{MOVED_TEXT}: {jump_url(guild_id, channel_id, moved_to)}"


async def leave_pointer(channel: TableChannel, message_id: int, moved_to: int | None) -> None:
    """Best effort: turn the old table message into one line pointing to the new one."""
    target = channel.hub.channel(channel.channel_id, channel.guild_id)
    text = pointer_text(channel.guild_id, channel.channel_id, moved_to)
    try:
        await target.get_partial_message(message_id).edit(content=text, embeds=[], view=None)
    except discord.HTTPException as error:
        log.info(
            "channel %s: could not tidy message %s (HTTP %s)",
            *(channel.channel_id, message_id, error.status),
        )

"""Requests in a table's channel: post, edit, tidy, notices; what Discord refusals mean.

A 403 becomes :class:`ChannelUnavailable` (the bot waits for a command before trying
again); a deleted message (404, 10008) or one too old to edit (30046) makes an edit
answer False, so the caller posts anew. Everything else propagates to the caller's
retry. A message's content is a :class:`~.table_plan.Payload`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from .table_plan import Payload

log = logging.getLogger(__name__)

MAX_AGE_SECONDS = 50 * 60
OLD_MESSAGE_CODES = frozenset({30046})
GONE_CODES = frozenset({10008})
MOVED_TEXT = "The table moved further down."


class ChannelUnavailable(Exception):
    """The bot may not post or edit in this channel (HTTP 403)."""


@dataclass(slots=True)
class Notice:
    content: str
    mention: int | None = None


class Hub:
    """What every messenger shares: the client and a place to remember message ids."""

    def __init__(
        self,
        client: discord.Client,
        remember_message: Callable[[int, int | None], Awaitable[None]],
        lookup_message: Callable[[int], Awaitable[int | None]],
        *,
        max_age: float = MAX_AGE_SECONDS,
    ) -> None:
        self.client = client
        self.remember_message = remember_message
        self.lookup_message = lookup_message
        self.max_age = max_age

    def channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)


class TableChannel:
    """One table's channel, seen through a partial messageable (no cache needed)."""

    def __init__(self, hub: Hub, guild_id: int, channel_id: int) -> None:
        self.hub = hub
        self.guild_id = guild_id
        self.channel_id = channel_id

    def _target(self) -> discord.PartialMessageable:
        return self.hub.channel(self.channel_id, self.guild_id)

    async def send(self, payload: Payload) -> int:
        """Post a message; its id."""
        try:
            message = await self._target().send(**payload.send_kwargs())
        except discord.Forbidden as error:
            raise ChannelUnavailable(error.text or "missing permissions") from error
        return message.id

    async def edit(self, message_id: int, payload: Payload) -> bool:
        """Edit a message; False when it is gone (deleted) or too old to edit."""
        partial = self._target().get_partial_message(message_id)
        try:
            await partial.edit(**payload.edit_kwargs())
        except discord.NotFound:
            log.info("channel %s: table message %s is gone", self.channel_id, message_id)
            return False
        except discord.Forbidden as error:
            raise ChannelUnavailable(error.text or "missing permissions") from error
        except discord.HTTPException as error:
            if error.code in OLD_MESSAGE_CODES or error.code in GONE_CODES:
                return False
            raise
        return True

    async def strip(self, message_id: int) -> None:
        """Best effort: take the buttons off a message the table moved away from."""
        try:
            partial = self._target().get_partial_message(message_id)
            await partial.edit(content=MOVED_TEXT, view=None)
        except discord.HTTPException as error:
            log.info(
                "channel %s: could not tidy message %s (HTTP %s)",
                self.channel_id,
                message_id,
                error.status,
            )

    async def notice(self, notice: Notice) -> None:
        """A short message; only the named member (if any) is pinged."""
        mentions = (
            discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.mention)]
            )
            if notice.mention
            else discord.AllowedMentions.none()
        )
        try:
            await self._target().send(notice.content, allowed_mentions=mentions)
        except discord.Forbidden as error:
            raise ChannelUnavailable(error.text or "missing permissions") from error


class SavedMessageId:
    """The live message's id in the database, so a restarted bot edits it instead of posting.

    Written after the request that changed it, outside the click's critical path.
    """

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.pending: tuple[int, int | None] | None = None  # (table, message) to write

    def set(self, table_id: int, message_id: int | None) -> None:
        self.pending = (table_id, message_id)

    async def flush(self) -> None:
        if self.pending is None:
            return
        table_id, message_id = self.pending
        self.pending = None
        try:
            await self.hub.remember_message(table_id, message_id)
        except Exception:
            log.exception("table %s: cannot store its message id", table_id)

    async def load(self, table_id: int) -> int | None:
        try:
            return await self.hub.lookup_message(table_id)
        except Exception:
            log.exception("table %s: cannot read its message id", table_id)
            return None


async def answer_click(
    interaction: discord.Interaction[Any], payload: Payload, *, deferred: bool
) -> bool:
    """Show ``payload`` in the clicked message: in the interaction response itself (free of
    rate limits) or, after a defer, by editing the original. False when Discord refused."""
    try:
        if deferred:
            await interaction.edit_original_response(**payload.edit_kwargs())
        else:
            await interaction.response.edit_message(**payload.edit_kwargs())
    except discord.HTTPException as error:
        log.info(
            "channel %s: click answer failed (HTTP %s code %s); editing instead",
            *(interaction.channel_id, error.status, error.code),
        )
        return False
    return True


async def acquire_within(lock: asyncio.Lock, wait: float) -> bool:
    """Take ``lock`` if it frees within ``wait`` seconds (a click must answer in 3 s)."""
    try:
        await asyncio.wait_for(lock.acquire(), wait)
    except TimeoutError:
        return False
    return True


def log_request_failure(channel_id: int, label: str, error: Exception, retry_in: float) -> None:
    """A failed request of the table's worker (it retries after ``retry_in`` seconds)."""
    if isinstance(error, discord.HTTPException):
        log.warning(
            "channel %s: %s failed (HTTP %s code %s); retrying in %s s",
            *(channel_id, label, error.status, error.code, retry_in),
        )
    else:
        log.error("channel %s: %s failed", channel_id, label, exc_info=error)

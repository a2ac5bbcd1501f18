"""A table's channel: its requests (post, edit, notices), what Discord's refusals of them
mean, and the links to its messages.

A deleted channel (404 10003, or 403 50001 for a channel the bot no longer knows of)
becomes :class:`ChannelGone` (the table is closed); another 403 becomes
:class:`ChannelUnavailable` (the bot waits for a command before trying again); a deleted
message (404, 10008) or one too old to edit (30046) makes an edit answer False, so the
caller posts anew. Everything else propagates to the caller, which :func:`classify`-es it.
A message's content is a :class:`~.table_plan.Payload`.

After ``/stud table`` (or a re-post of a lost or old message) the previous message keeps
only ``The table moved further down: <link>`` (:meth:`TableChannel.leave_pointer`): no
frozen copy of the table with a live countdown, no buttons. Deal DMs and turn alerts
carry the same kind of link to the table (:func:`jump_url`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

import discord

from .rest_budget import FailureLog, Lane, RestBudget
from .table_plan import Payload, Token, Via

log = logging.getLogger(__name__)

MAX_AGE_SECONDS = 50 * 60
OLD_MESSAGE_CODES = frozenset({30046})
GONE_CODES = frozenset({10008})
UNKNOWN_CHANNEL = 10003
MISSING_ACCESS = 50001
RETRY_SECONDS = 3.0  # the first retry after a transient failure; doubled each time
RETRY_CAP = 120.0
MOVED_TEXT = "The table moved further down"
# A token Discord no longer takes (expired early, its message gone): 401 50027 Invalid
# Webhook Token, 404 10015 Unknown Webhook, 10008 Unknown Message, 10062 Unknown Interaction.
TOKEN_DEAD_CODES = frozenset({50027, 10015, 10008, 10062})
REST: tuple[Via, Token | None] = (Via.REST, None)


class ChannelUnavailable(Exception):
    """The bot may not post or edit in this channel (HTTP 403)."""


class ChannelGone(Exception):
    """The channel no longer exists for the bot (deleted, or the server removed the bot)."""


class TokenRefused(Exception):
    """Discord refused an interaction token (expired, or its message is gone): the caller
    forgets it and sends the request by REST instead."""

    def __init__(self, token: Token, error: discord.HTTPException) -> None:
        super().__init__(f"HTTP {error.status} code {error.code}")
        self.token = token


class Failure(Enum):
    """What a failed table request means for the worker."""

    GONE = "gone"  # close the table (ChannelGone)
    UNAVAILABLE = "unavailable"  # 403: wait for a command (ChannelUnavailable)
    REFUSED = "refused"  # Discord will never accept this request: log once, drop it
    TRANSIENT = "transient"  # 429 after discord.py's retries, 5xx, network: back off


def classify(error: BaseException) -> Failure:
    if isinstance(error, ChannelGone):
        return Failure.GONE
    if isinstance(error, ChannelUnavailable):
        return Failure.UNAVAILABLE
    if isinstance(error, discord.HTTPException) and 400 <= error.status < 500:
        return Failure.TRANSIENT if error.status == 429 else Failure.REFUSED
    return Failure.TRANSIENT


def backoff(failures: int) -> float:
    """Seconds before the next try after ``failures`` transient failures in a row."""
    return min(RETRY_CAP, RETRY_SECONDS * (1 << max(0, min(failures - 1, 16))))


def jump_url(guild_id: int, channel_id: int, message_id: int | None = None) -> str:
    """A link to a message (to the channel itself with None)."""
    url = f"https://discord.com/channels/{guild_id}/{channel_id}"
    return url if message_id is None else f"{url}/{message_id}"


def pointer_text(guild_id: int, channel_id: int, moved_to: int | None) -> str:
    """What an old table message keeps: where the table went (when it is known)."""
    if moved_to is None:
        return f"{MOVED_TEXT}."
    return f"{MOVED_TEXT}: {jump_url(guild_id, channel_id, moved_to)}"


@dataclass(slots=True)
class Notice:
    """A short channel message; ``mention``: the one member it pings (None: nobody)."""

    content: str
    mention: int | None = None
    choice_ping: bool = False  # the dealer's-choice ping: edited to the pick once made


class Hub:
    """What every messenger shares: the client and a place to remember message ids."""

    def __init__(
        self,
        client: discord.Client,
        remember_message: Callable[[int, int | None], Awaitable[None]],
        lookup_message: Callable[[int], Awaitable[int | None]],
        *,
        max_age: float = MAX_AGE_SECONDS,
        budget: RestBudget | None = None,
        clock: Callable[[], float] = time.time,
        failures: FailureLog | None = None,
    ) -> None:
        self.client = client
        self.failures = failures or FailureLog(log)  # one line per kind of failure a minute
        # user id -> a word after his stack on every table (the relay's: closed DMs)
        self.marks: dict[int, str] = {}
        self.budget = budget  # every REST request here holds one of its tokens, ahead of DMs
        self.remember_message = remember_message
        self.lookup_message = lookup_message
        self.max_age = max_age
        self.clock = clock  # wall-clock seconds: ages of messages and interaction tokens
        self.on_gone: Callable[[int, int], None] | None = None
        # (guild, channel, hand, action number): a turn's buttons are now on the table (the
        # relay's turn alerts count the wait from then)
        self.turn_shown: Callable[[int, int, int, int], None] | None = None

    def webhook(self, token: Token) -> discord.Webhook:
        """The interaction webhook of ``token`` (follow-ups and edits, off the budget)."""
        application_id = self.client.application_id
        assert application_id is not None  # known once logged in, before any interaction
        return discord.Webhook.partial(application_id, token.value, client=self.client)

    def channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    @contextlib.asynccontextmanager
    async def token(self) -> AsyncIterator[None]:
        """Around each request: the REST budget's table lane (ahead of DMs)."""
        if self.budget is None:
            yield
            return
        async with self.budget.token(Lane.TABLE):
            yield

    def gone(self, guild_id: int, channel_id: int) -> None:
        """A table's channel is gone: the relay (which sets ``on_gone``) closes the table."""
        if self.on_gone is not None:
            self.on_gone(guild_id, channel_id)

    def knows(self, channel_id: int) -> bool:
        """The channel is in the gateway's cache (a 403 there is about permissions)."""
        return self.client.get_channel(channel_id) is not None


class TableChannel:
    """One table's channel, seen through a partial messageable (no cache needed)."""

    def __init__(self, hub: Hub, guild_id: int, channel_id: int) -> None:
        self.hub = hub
        self.guild_id = guild_id
        self.channel_id = channel_id

    def _target(self) -> discord.PartialMessageable:
        return self.hub.channel(self.channel_id, self.guild_id)

    @contextmanager
    def _channel_errors(self) -> Iterator[None]:
        """A gone channel as :class:`ChannelGone`, other 403s as :class:`ChannelUnavailable`."""
        try:
            yield
        except discord.HTTPException as error:
            if error.code == UNKNOWN_CHANNEL or (
                error.code == MISSING_ACCESS and not self.hub.knows(self.channel_id)
            ):
                raise ChannelGone(error.text or "unknown channel") from error
            if isinstance(error, discord.Forbidden):
                raise ChannelUnavailable(error.text or "missing permissions") from error
            raise

    @contextmanager
    def _token_errors(self, token: Token) -> Iterator[None]:
        """A token Discord no longer takes as :class:`TokenRefused` (the caller uses REST)."""
        try:
            yield
        except discord.HTTPException as error:
            if error.status == 401 or error.code in TOKEN_DEAD_CODES:
                raise TokenRefused(token, error) from error
            raise

    async def send(self, payload: Payload, through: Token | None = None) -> int:
        """Post a message (a follow-up of ``through``: off the budget); its id."""
        if through is not None:
            with self._token_errors(through):
                sent = await self.hub.webhook(through).send(wait=True, **payload.webhook_kwargs())
            return sent.id
        async with self.hub.token():
            with self._channel_errors():
                message = await self._target().send(**payload.send_kwargs())
        return message.id

    async def edit(
        self, message_id: int, payload: Payload, via: tuple[Via, Token | None] = REST
    ) -> bool:
        """Edit a message: through a token (``Via.ORIGINAL``: the message its click was on;
        ``Via.FOLLOWUP``: a message it posted) or by REST; False when it is gone (deleted)
        or too old to edit."""
        way, token = via
        try:
            if token is not None and way is not Via.REST:
                target = "@original" if way is Via.ORIGINAL else message_id
                with self._token_errors(token):
                    # discord.py writes the id into the path: "@original" is Discord's name
                    await self.hub.webhook(token).edit_message(
                        cast(int, target), **payload.edit_kwargs()
                    )
                return True
            partial = self._target().get_partial_message(message_id)
            async with self.hub.token():
                with self._channel_errors():
                    await partial.edit(**payload.edit_kwargs())
        except discord.HTTPException as error:
            if error.code in OLD_MESSAGE_CODES or error.code in GONE_CODES:
                log.info("channel %s: table message %s is gone or old", self.channel_id, message_id)
                return False
            raise
        return True

    async def leave_pointer(
        self,
        message_id: int,
        moved_to: int | None,
        via: tuple[Via, Token | None] = (Via.REST, None),
    ) -> None:
        """Best effort: turn the old table message into one line pointing to the new one."""
        text = pointer_text(self.guild_id, self.channel_id, moved_to)
        try:
            await self.edit(message_id, Payload([], None, content=text), via)
        except (discord.HTTPException, TokenRefused, ChannelUnavailable, ChannelGone) as error:
            log.info(
                "channel %s: could not tidy message %s (%s)", self.channel_id, message_id, error
            )

    async def notice(self, notice: Notice, through: Token | None = None) -> int:
        """A short message (a follow-up of ``through``: off the budget); only the named
        member (if any) is pinged. Its id."""
        mentions = (
            discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.mention)]
            )
            if notice.mention
            else discord.AllowedMentions.none()
        )
        if through is not None:
            with self._token_errors(through):
                sent = await self.hub.webhook(through).send(
                    notice.content, allowed_mentions=mentions, wait=True
                )
            return sent.id
        async with self.hub.token():
            with self._channel_errors():
                message = await self._target().send(notice.content, allowed_mentions=mentions)
        return message.id

    async def edit_notice(self, message_id: int, content: str) -> None:
        """Best effort: a notice says what is true now (edits notify nobody)."""
        try:
            async with self.hub.token():
                await (
                    self._target()
                    .get_partial_message(message_id)
                    .edit(content=content, allowed_mentions=discord.AllowedMentions.none())
                )
        except discord.HTTPException as error:
            log.info(
                "channel %s: could not edit notice %s (HTTP %s)",
                *(self.channel_id, message_id, error.status),
            )


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


def on_failure(
    failures: FailureLog, channel_id: int, label: str, error: Exception, in_a_row: int
) -> tuple[Failure, float]:
    """Classify and log a failed request of the table's worker (``in_a_row`` failures,
    this one included); the delay before a transient one is tried again. A transient or
    refused failure is told in one line per kind of request a minute, without a traceback:
    when Discord is out of reach every table's requests fail at once."""
    failure = classify(error)
    delay = backoff(in_a_row)
    if failure is Failure.GONE:
        log.warning("channel %s: %s: the channel is gone (%s)", channel_id, label, error)
    elif failure is Failure.UNAVAILABLE:
        log.warning(
            "channel %s: cannot update the table (%s); waiting for a command", channel_id, error
        )
    else:
        then = "dropped" if failure is Failure.REFUSED else f"retrying in {delay:g} s"
        failures.failed(label, error, f"{then} (channel {channel_id})")
    return failure, delay


def unanswered_outcome(task: asyncio.Future[object]) -> None:
    """Retrieve the result of a click's call whose answer failed (logged, not lost)."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("a click's call failed after its answer did: %r", error)

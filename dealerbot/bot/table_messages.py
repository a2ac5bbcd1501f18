"""The one message per hand: kept up to date, answered through clicks, re-posted when lost.

Each table has a :class:`TableMessenger`. Service events only update its memory (never
await the network), and a per-table worker brings the channel in line with it: post
the hand's message, edit it, turn it into the result when the hand ends. A click is
answered with the new table in the interaction response itself (free of rate limits);
the worker then finds nothing left to do. One lock per table serialises the worker's
requests and the click answers, so an older render never lands after a newer one.

Discord trouble never stops a hand: a deleted message (404, 10008) or one older than
about 50 minutes (edits of old messages are limited, 30046) is re-posted; 429s are
retried by discord.py; a 403 marks the channel unusable until a command checks again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from dealerbot.tables import TableError, TableService, TableView
from dealerbot.tables import events as ev

from . import render
from .buttons import table_buttons
from .errors import UserError

log = logging.getLogger(__name__)

MAX_AGE_SECONDS = 50 * 60
CLICK_LOCK_WAIT = 1.0  # a click waits this long for a request in flight, then defers
ACT_WAIT = 2.0  # a service call slower than this is deferred (Discord's limit is 3 s)
RETRY_SECONDS = 3.0
MAX_PENDING_RESULTS = 10  # results kept for a channel the bot cannot post in
OLD_MESSAGE_CODES = frozenset({30046})
GONE_CODES = frozenset({10008})


@dataclass(slots=True)
class Payload:
    """What a table message shows; ``key`` tells two renders apart without a request."""

    embeds: list[discord.Embed]
    view: discord.ui.View | None
    content: str | None = None
    version: int = -1  # the messenger's state version it was rendered from
    _key: str | None = None

    @property
    def key(self) -> str:
        """Computed only when compared (a click answer never needs it)."""
        if self._key is None:
            components = self.view.to_components() if self.view is not None else None
            self._key = json.dumps(
                [self.content, [e.to_dict() for e in self.embeds], components],
                sort_keys=True,
                default=str,
            )
        return self._key

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content, "embeds": self.embeds}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        return {"content": self.content, "embeds": self.embeds, "view": self.view}


@dataclass(slots=True)
class Slot:
    """The table's live message: which hand it shows (None: the waiting table)."""

    message_id: int
    hand_id: int | None
    posted_at: float
    key: str | None = None
    version: int = -1  # the state version the message shows (skip re-rendering when equal)

    def shows(self, payload: Payload, *, compared: bool = True) -> None:
        self.key = payload.key if compared else None
        self.version = payload.version


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


@dataclass(slots=True)
class _Plan:
    """One request the worker will make, and what to record when it succeeds."""

    run: Callable[[], Awaitable[None]]
    label: str


class TableMessenger:
    def __init__(self, hub: Hub, guild_id: int, channel_id: int) -> None:
        self.hub = hub
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.view: TableView | None = None
        self.turn: ev.Turn | None = None
        self.stories: dict[int, render.HandStory] = {}
        self.finished: list[int] = []  # hands whose result is not shown yet, oldest first
        self.slot: Slot | None = None
        self.closed: ev.TableClosed | None = None
        self.notices: list[Notice] = []
        self.names: dict[int, str] = {}
        self.unavailable: str | None = None
        self.lock = asyncio.Lock()
        self.version = 0  # bumped by every event; a slot at this version needs no render
        self._loaded = False
        self._persist: tuple[int, int | None] | None = None
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._closing = False

    # --- events (synchronous: memory only) --------------------------------------------

    def on_event(self, event: ev.TableEvent) -> None:
        if isinstance(event, ev.TableChanged):
            self._on_view(event.view)
        elif isinstance(event, ev.Turn):
            self.turn = event
        elif isinstance(event, ev.HandStarted):
            self._on_hand_started(event)
        elif isinstance(event, ev.Showdown):
            found = self.stories.get(event.hand_id)
            if found is not None:
                found.showdown = event
                found.names.update(dict(event.names))
        elif isinstance(event, ev.HandEnded):
            self._on_hand_ended(event)
        elif isinstance(event, ev.PlayerJoined | ev.PlayerLeft | ev.PlayerSatIn | ev.PlayerSatOut):
            self.names[event.user_id] = event.name
        elif isinstance(event, ev.TableClosed):
            self.closed = event
        else:
            return
        self.version += 1
        self.kick()

    def _on_hand_started(self, event: ev.HandStarted) -> None:
        variant = self.view.stakes.variant if self.view is not None else "stud"
        story = render.HandStory(event.hand_id, event.number, event.commitment, variant)
        for player in event.players:
            story.names[player.seat] = player.name
            story.users[player.user_id] = player.name
            self.names[player.user_id] = player.name
        self.stories[event.hand_id] = story

    def _on_hand_ended(self, event: ev.HandEnded) -> None:
        story = self.stories.get(event.hand_id)
        if story is None:  # a hand resumed after a restart: its start was before
            story = render.HandStory(event.hand_id, event.number, "", "stud")
            self.stories[event.hand_id] = story
        story.ended = event
        self.finished.append(event.hand_id)
        while len(self.finished) > MAX_PENDING_RESULTS:  # a channel unusable for long
            self._forget(self.finished[0])

    def _on_view(self, view: TableView) -> None:
        self.view = view
        for seat in view.seats:
            self.names[seat.user_id] = seat.name
        if view.hand_id is not None and view.hand_id not in self.stories:
            # A hand resumed after a restart: its HandStarted went to the old process.
            story = render.HandStory(
                view.hand_id, view.hand_number or 0, view.commitment or "", view.stakes.variant
            )
            for seat in view.seats:
                if seat.in_hand:
                    story.names[seat.seat] = seat.name
                    story.users[seat.user_id] = seat.name
            self.stories[view.hand_id] = story
        for story in self.stories.values():
            if story.hand_id == view.hand_id:
                story.variant = view.stakes.variant
                if not story.commitment and view.commitment:
                    story.commitment = view.commitment
                if view.hand_number is not None:
                    story.number = view.hand_number
            elif story.ended is not None and not story.last_actions and view.hand_id is None:
                story.last_actions = view.last_actions

    def notice(self, content: str, mention: int | None = None) -> None:
        self.notices.append(Notice(content, mention))
        self.kick()

    # --- rendering ----------------------------------------------------------------------

    def table_payload(self) -> Payload | None:
        view = self.view
        if view is None:
            return None
        turn = render.buttons_wanted(view, self.turn)
        buttons = table_buttons(view.table_id, turn, in_hand=view.hand_id is not None)
        return Payload([render.table_embed(view, turn)], buttons, version=self.version)

    def result_payload(self, hand_id: int) -> Payload:
        return Payload([render.result_embed(self.stories[hand_id])], None)

    def closed_payload(self, event: ev.TableClosed) -> Payload:
        return Payload([render.closed_embed(event, self.names)], None)

    # --- the worker -------------------------------------------------------------------

    def kick(self) -> None:
        """Something changed: make sure the worker runs (it re-plans from current memory)."""
        self._dirty = True
        if self._closing or self.unavailable is not None:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(
                self._work(), name=f"table-message:{self.guild_id}:{self.channel_id}"
            )

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The worker, while it runs."""
        return self._task if self._task is not None and not self._task.done() else None

    def _needs_work(self) -> bool:
        slot = self.slot
        return bool(
            self.notices
            or self.finished
            or self.closed is not None
            or slot is None
            or slot.version != self.version
            or self._persist is not None
        )

    def retry_now(self) -> None:
        """A command came in: try the channel again even after a 403."""
        self.unavailable = None
        self.kick()

    async def _work(self) -> None:
        while not self._closing:
            async with self.lock:
                self._dirty = False
                if not self._loaded:
                    await self._load()
                plan = self._plan()
                if plan is None:
                    if not self._dirty:
                        await self._flush_persist()
                        return
                    continue
                try:
                    await plan.run()
                except ChannelUnavailable as error:
                    self.unavailable = str(error)
                    log.warning(
                        "channel %s: cannot update the table (%s); waiting for a command",
                        self.channel_id,
                        error,
                    )
                    return
                except discord.HTTPException as error:
                    log.warning(
                        "channel %s: %s failed (HTTP %s code %s); retrying in %s s",
                        self.channel_id,
                        plan.label,
                        error.status,
                        error.code,
                        RETRY_SECONDS,
                    )
                    self._schedule_retry()
                    return
                except Exception:
                    log.exception("channel %s: %s failed", self.channel_id, plan.label)
                    self._schedule_retry()
                    return
                await self._flush_persist()

    def _schedule_retry(self) -> None:
        if self._retry is None or self._retry.cancelled():
            loop = asyncio.get_running_loop()

            def again() -> None:
                self._retry = None
                self.kick()

            self._retry = loop.call_later(RETRY_SECONDS, again)

    async def _load(self) -> None:
        """After a restart: adopt the stored message if it shows the hand still running."""
        self._loaded = True
        view = self.view
        if view is None or self.slot is not None or view.hand_id is None:
            return
        try:
            message_id = await self.hub.lookup_message(view.table_id)
        except Exception:
            log.exception("table %s: cannot read its message id", view.table_id)
            return
        if message_id is not None:
            posted = discord.utils.snowflake_time(message_id).timestamp()
            self.slot = Slot(message_id, view.hand_id, posted)

    async def _flush_persist(self) -> None:
        if self._persist is None:
            return
        table_id, message_id = self._persist
        self._persist = None
        try:
            await self.hub.remember_message(table_id, message_id)
        except Exception:
            log.exception("table %s: cannot store its message id", table_id)

    def _set_slot(self, slot: Slot | None) -> None:
        self.slot = slot
        if self.view is not None:
            self._persist = (self.view.table_id, slot.message_id if slot is not None else None)

    def _too_old(self, slot: Slot) -> bool:
        return time.time() - slot.posted_at > self.hub.max_age

    def _plan(self) -> _Plan | None:
        """The next request that brings the channel in line with memory, or None."""
        if self.notices:
            notice = self.notices.pop(0)
            return _Plan(lambda: self._post_notice(notice), "notice")
        if self.finished:
            done = self.finished[0]
            return _Plan(lambda: self._show_result(done), f"result of hand {done}")
        if self.closed is not None:
            event = self.closed
            return _Plan(lambda: self._show_closed(event), "closing notice")
        view = self.view
        if view is None or view.status == "closed":
            return None
        slot = self.slot
        hand_id = view.hand_id
        if (
            slot is not None
            and slot.hand_id == hand_id
            and slot.version == self.version
            and not self._too_old(slot)
        ):
            return None  # already shows this state (a click answer rendered it)
        payload = self.table_payload()
        assert payload is not None
        if slot is None:
            # A waiting table gets a message only when no hand is about to be dealt:
            # otherwise the hand's own message follows within seconds.
            if hand_id is not None or (view.seats and view.next_hand_at is None):
                return _Plan(lambda: self._post(payload, hand_id), "table post")
            return None
        if hand_id is not None and slot.hand_id is not None and slot.hand_id != hand_id:
            return _Plan(lambda: self._repost(payload, hand_id), "table re-post")
        if self._too_old(slot):
            return _Plan(lambda: self._repost(payload, hand_id), "table re-post")
        if slot.hand_id != hand_id or slot.key != payload.key:
            return _Plan(lambda: self._edit(slot, payload, hand_id), "table edit")
        return None

    # --- requests -------------------------------------------------------------------------

    async def _send(self, payload: Payload) -> int:
        try:
            message = await self.hub.channel(self.channel_id, self.guild_id).send(
                **payload.send_kwargs()
            )
        except discord.Forbidden as error:
            raise ChannelUnavailable(error.text or "missing permissions") from error
        return message.id

    async def _post(self, payload: Payload, hand_id: int | None) -> None:
        message_id = await self._send(payload)
        self._set_slot(Slot(message_id, hand_id, time.time(), payload.key, payload.version))

    async def _repost(self, payload: Payload, hand_id: int | None) -> None:
        old = self.slot
        await self._post(payload, hand_id)
        if old is not None:
            await self._strip(old)

    async def _strip(self, slot: Slot) -> None:
        """Best effort: take the buttons off a message the table moved away from."""
        try:
            partial = self.hub.channel(self.channel_id, self.guild_id).get_partial_message(
                slot.message_id
            )
            await partial.edit(content="The table moved further down.", view=None)
        except discord.HTTPException as error:
            log.info(
                "channel %s: could not tidy message %s (HTTP %s)",
                self.channel_id,
                slot.message_id,
                error.status,
            )

    async def _edit_message(self, message_id: int, payload: Payload) -> bool:
        """Edit a message; False when it is gone (deleted) or too old to edit."""
        partial = self.hub.channel(self.channel_id, self.guild_id).get_partial_message(message_id)
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

    async def _edit(self, slot: Slot, payload: Payload, hand_id: int | None) -> None:
        if await self._edit_message(slot.message_id, payload):
            slot.shows(payload)
            if slot.hand_id != hand_id:
                slot.hand_id = hand_id
                self._set_slot(slot)
        else:
            await self._post(payload, hand_id)

    async def _show_result(self, hand_id: int) -> None:
        payload = self.result_payload(hand_id)
        slot = self.slot
        if slot is not None and slot.hand_id == hand_id:
            if not await self._edit_message(slot.message_id, payload):
                await self._send(payload)
            self._set_slot(None)
        else:
            await self._send(payload)
        self._forget(hand_id)

    def _forget(self, hand_id: int) -> None:
        if hand_id in self.finished:
            self.finished.remove(hand_id)
        self.stories.pop(hand_id, None)

    async def _show_closed(self, event: ev.TableClosed) -> None:
        payload = self.closed_payload(event)
        slot = self.slot
        if slot is None or not await self._edit_message(slot.message_id, payload):
            await self._send(payload)
        self._set_slot(None)
        self.closed = None

    async def _post_notice(self, notice: Notice) -> None:
        mentions = (
            discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(notice.mention)]
            )
            if notice.mention
            else discord.AllowedMentions.none()
        )
        try:
            await self.hub.channel(self.channel_id, self.guild_id).send(
                notice.content, allowed_mentions=mentions
            )
        except discord.Forbidden as error:
            raise ChannelUnavailable(error.text or "missing permissions") from error

    # --- answering clicks and commands ------------------------------------------------------

    def _answer_for(self, message_id: int) -> tuple[Payload, int | None] | None:
        """What the clicked message should show now: its hand's result or the live table."""
        slot = self.slot
        if slot is None or slot.message_id != message_id:
            return None
        if slot.hand_id is not None and slot.hand_id in self.finished:
            if self.finished[0] != slot.hand_id:
                return None
            return self.result_payload(slot.hand_id), slot.hand_id
        view = self.view
        if view is None or view.hand_id != slot.hand_id or self._too_old(slot):
            return None
        payload = self.table_payload()
        return (payload, None) if payload is not None else None

    def _answered(self, payload: Payload, finished_hand: int | None) -> None:
        if finished_hand is not None:
            self._set_slot(None)
            self._forget(finished_hand)
        elif self.slot is not None:
            self.slot.shows(payload, compared=False)

    async def answer_action(
        self,
        interaction: discord.Interaction[Any],
        service: TableService,
        where: tuple[int, int, int],
        act: str,
    ) -> None:
        """An action button: refuse a stale or foreign click, else act and show the table."""
        table_id, hand_id, seq = where
        view = self.view
        if view is None:
            view = self.view = await service.table_view(self.guild_id, self.channel_id)
        user_id = interaction.user.id
        if view.table_id != table_id or view.hand_id != hand_id:
            raise UserError("That hand is over; the current table is further down.")
        if view.seq != seq:
            raise UserError("That button is out of date; use the newest one.")
        if user_id != view.to_act_user:
            seat = view.seat_of(user_id)
            if seat is None or not seat.in_hand:
                raise UserError("You are not in this hand.")
            waiting = next((s.name for s in view.seats if s.to_act), "another player")
            raise UserError(f"It is not your turn; {render.name_text(waiting)} is to act.")
        guild_id, channel_id = self.guild_id, self.channel_id
        await self.run_click(
            interaction, lambda: service.act(guild_id, channel_id, user_id, hand_id, seq, act)
        )

    async def run_click(
        self, interaction: discord.Interaction[Any], action: Callable[[], Awaitable[object]]
    ) -> None:
        """Run a service call for a click, then answer with the updated table message.

        The lock keeps the worker from editing the same message meanwhile; if a request
        is in flight too long, or the service is slow, the click is deferred and the
        message edited afterwards, so Discord always gets its answer within 3 seconds.
        """
        got_lock = await _acquire(self.lock, CLICK_LOCK_WAIT)
        deferred = False
        try:
            if not got_lock:
                await interaction.response.defer()
                deferred = True
            task = asyncio.ensure_future(action())
            done, _ = await asyncio.wait({task}, timeout=ACT_WAIT)
            if not done and not deferred:
                await interaction.response.defer()
                deferred = True
            try:
                await task
            except TableError as error:
                await _ephemeral(interaction, str(error))
                return
            message = interaction.message
            answer = self._answer_for(message.id) if got_lock and message is not None else None
            if answer is None:
                if not deferred:
                    await interaction.response.defer()
                return
            payload, finished_hand = answer
            try:
                if deferred:
                    await interaction.edit_original_response(**payload.edit_kwargs())
                else:
                    await interaction.response.edit_message(**payload.edit_kwargs())
            except discord.HTTPException as error:
                log.info(
                    "channel %s: click answer failed (HTTP %s code %s); editing instead",
                    self.channel_id,
                    error.status,
                    error.code,
                )
                return
            self._answered(payload, finished_hand)
            await self._flush_persist()
        finally:
            if got_lock:
                self.lock.release()
            if self._needs_work():
                self.kick()

    async def repost(self) -> None:
        """``/stud table``: post the table afresh at the bottom of the channel."""
        async with self.lock:
            self.unavailable = None
            payload = self.table_payload()
            if payload is None:
                return
            assert self.view is not None
            await self._repost(payload, self.view.hand_id)
            await self._flush_persist()

    async def close(self, grace: float = 2.0) -> None:
        self._closing = True
        if self._retry is not None:
            self._retry.cancel()
        task = self._task
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), grace)
            except TimeoutError:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)


async def _acquire(lock: asyncio.Lock, wait: float) -> bool:
    try:
        await asyncio.wait_for(lock.acquire(), wait)
    except TimeoutError:
        return False
    return True


async def _ephemeral(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)

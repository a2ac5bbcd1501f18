"""The one message per hand: kept up to date, answered through clicks, re-posted when lost.

Each table has a :class:`TableMessenger`. Service events only update its memory (never
await the network), and a per-table worker brings the channel in line with it: post
the hand's message, edit it, turn it into the result when the hand ends. A click is
answered with the new table in the interaction response itself (free of rate limits);
the worker then finds nothing left to do. One lock per table serialises the worker's
requests and the click answers, so an older render never lands after a newer one.
Decisions are pure functions in :mod:`.table_plan`; requests are in :mod:`.table_channel`.

Discord trouble never stops a hand, and a failed request never loops: a deleted or too
old message (404 10008, 30046) is re-posted; a gone channel stops the worker and has the
relay close the table; a 403 waits for a command; any other 4xx is logged once with
Discord's error and that request dropped (the next change of the table tries afresh); a
429 that discord.py gave up on, a 5xx or a network error is retried after a delay that
doubles each time, up to a cap (:meth:`TableMessenger._failed`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import discord

from dealerbot.tables import ChoiceView, TableError, TableService, TableView
from dealerbot.tables import events as ev

from .errors import answer_failure
from .games_text import choice_ping, picked_text
from .hand_story import HandStories
from .markup import command_hint, name_text
from .table_channel import (
    Failure,
    Hub,
    Notice,
    SavedMessageId,
    TableChannel,
    TokenRefused,
    acquire_within,
    answer_click,
    on_failure,
    unanswered_outcome,
)
from .table_plan import (
    ClickShows,
    MessageStep,
    Payload,
    Pending,
    Slot,
    Token,
    Via,
    click_shows,
    closed_payload,
    edit_via,
    needs_work,
    next_step,
    post_via,
    result_payload,
    table_payload,
)

log = logging.getLogger(__name__)


CLICK_LOCK_WAIT = 1.0  # a click waits this long for a request in flight, then defers
ACT_WAIT = 2.0  # a service call slower than this is deferred (Discord's limit is 3 s)
UNANSWERED_KEPT = 2  # interactions kept until their answer is known (their token's use)
ANSWER_WAIT = 1.0  # a request with no fresh token waits this long for one being answered
ANSWER_POLL = 0.02
SHOWN_WAIT = 2.0  # a deal DM waits this long for the hand's table message (its link)
RESPONSE_UPDATES = frozenset(
    {
        discord.InteractionResponseType.message_update,
        discord.InteractionResponseType.deferred_message_update,
    }
)


def token_of(interaction: discord.Interaction[Any]) -> Token | None:
    """The token of an answered interaction, if its requests can carry the table's: a click
    answered in place (its @original is the clicked message) or answered with a message
    (follow-ups only). A deferred command (its first follow-up would fill the "thinking"
    placeholder, ephemeral or not), a form or an unanswered one: None."""
    kind = interaction.response.type
    created = discord.utils.snowflake_time(interaction.id).timestamp()
    if kind in RESPONSE_UPDATES and interaction.message is not None:
        return Token.of(interaction.token, created, interaction.message.id)
    if kind is discord.InteractionResponseType.channel_message:
        return Token.of(interaction.token, created)
    return None


# What the worker runs, its name, and what to forget when Discord refuses it for good.
Request = tuple[Callable[[], Awaitable[None]], str, Callable[[], object]]


class TableMessenger:
    """One table's message: its memory of the table, the worker that shows it, the clicks."""

    def __init__(self, hub: Hub, guild_id: int, channel_id: int) -> None:
        self.hub = hub
        self.channel = TableChannel(hub, guild_id, channel_id)
        self.saved = SavedMessageId(hub)
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.view: TableView | None = None
        self.choice: ChoiceView | None = None  # the dealer's choice last announced
        self.turn: ev.Turn | None = None
        self.hands = HandStories()
        self.slot: Slot | None = None
        self.closed: ev.TableClosed | None = None
        self.notices: list[Notice] = []
        self.ping_id: int | None = None  # the dealer's-choice ping posted, until edited
        self.ping_edit: str | None = None  # what it is to say now (the pick)
        self.names: dict[int, str] = {}
        self.unavailable: str | None = None
        self.lock = asyncio.Lock()
        self.version = 0  # bumped by every event; a slot at this version needs no render
        # Tokens of interactions at this table, so that its requests need not spend the
        # global budget: the newest click answered in place (edits its message) and the
        # newest interaction answered at all (follow-ups); interactions not answered yet.
        self.clicked: Token | None = None
        self.latest: Token | None = None
        self._unanswered: list[discord.Interaction[Any]] = []
        self._refused_at = -1  # the version whose post Discord refused (wait for a change)
        self._loaded = False
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        self._retry: asyncio.TimerHandle | None = None
        self._closing = False
        self.failures = 0  # transient failures in a row (the next retry backs off more)

    # --- events (synchronous: memory only) --------------------------------------------

    def on_event(self, event: ev.TableEvent) -> None:
        if isinstance(event, ev.TableChanged):
            self._on_view(event.view)
        elif isinstance(event, ev.Turn):
            self.turn = event
        elif isinstance(event, ev.HandStarted):
            self.hands.started(event)
            for player in event.players:
                self.names[player.user_id] = player.name
        elif isinstance(event, ev.HandEnded):
            self.hands.ended(event)
        elif isinstance(event, ev.ActionTaken | ev.TimeBankStarted | ev.PlayerTimedOut):
            self.hands.story(event, self.turn, self.names)
        elif isinstance(event, ev.PlayerJoined | ev.PlayerLeft | ev.PlayerSatIn | ev.PlayerSatOut):
            self.names[event.user_id] = event.name
        elif isinstance(event, ev.TableClosed):
            self.closed = event
        else:
            return
        self.version += 1
        self.kick()

    def _on_view(self, view: TableView) -> None:
        choice = view.games.choice if view.games is not None else None
        if choice is not None and choice != self.choice:  # embeds ping nobody: a notice does
            self.notices.append(Notice(choice_ping(choice), choice.user_id, choice_ping=True))
        elif choice is None and self.choice is not None and view.games is not None:
            self._picked(picked_text(self.choice, view.games))
        self.choice = choice
        self.view = view
        for seat in view.seats:
            self.names[seat.user_id] = seat.name

    def _picked(self, text: str) -> None:
        """The pick is made (or its time ran out): the ping says so instead of pinging on."""
        for index, queued in enumerate(self.notices):
            if queued.choice_ping:  # not posted yet: post what is true now, pinging nobody
                self.notices[index] = Notice(text)
                return
        if self.ping_id is not None:
            self.ping_edit = text

    def notice(self, content: str, mention: int | None = None) -> None:
        self.notices.append(Notice(content, mention))
        self.kick()

    def table_payload(self) -> Payload | None:
        if (view := self.view) is None:
            return None
        acts, notes = self.hands.story_of(view.hand_id)
        marked = self.hub.marks
        marks = {s.user_id: marked[s.user_id] for s in view.seats if s.user_id in marked}
        return table_payload(view, self.turn, self.version, acts, notes, marks)

    def changed(self) -> None:
        """Something the table message shows changed outside the service (a seat's mark)."""
        self.version += 1
        self.kick()

    def hand_shown(self, hand_id: int) -> int | None:
        """The table message that shows this hand, once posted."""
        slot = self.slot
        return slot.message_id if slot is not None and slot.hand_id == hand_id else None

    async def wait_shown(self, hand_id: int, within: float = SHOWN_WAIT) -> None:
        """Until this hand's table message is posted (at most ``within`` s): a deal DM then
        links it, not the channel."""
        deadline = self.hub.clock() + within
        while self.hand_shown(hand_id) is None and self.hub.clock() < deadline:
            if self._closing or self.unavailable is not None:
                return
            await asyncio.sleep(ANSWER_POLL * 5)

    def result_payload(self, hand_id: int) -> Payload:
        return result_payload(self.hands.result(hand_id), self.hands.acts(hand_id), self.view)

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

    def _pending(self) -> Pending:
        return Pending(
            len(self.notices),
            len(self.hands.finished),
            self.closed is not None,
            self.ping_edit is not None and self.ping_id is not None,
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
                request = self._plan()
                if request is None:
                    if not self._dirty:
                        await self.saved.flush()
                        return
                    continue
                run, label, drop = request
                try:
                    await run()
                except Exception as error:
                    if self._failed(error, label, drop):
                        continue  # dropped: what changed meanwhile is planned now
                    return
                self.failures = 0
                await self.saved.flush()

    def _failed(self, error: Exception, label: str, drop: Callable[[], object]) -> bool:
        """A request of the worker failed: stop, wait for a command, drop it, or retry later.
        True: it was dropped and the worker goes on (never the same request again, so never
        a loop; a change that came during the request would be lost if it stopped)."""
        failure, delay = on_failure(
            self.hub.failures, self.channel_id, label, error, self.failures + 1
        )
        if failure is Failure.UNAVAILABLE:
            self.unavailable = str(error)
        elif failure is Failure.GONE:  # the relay closes the table
            self._closing = True
            self.hub.gone(self.guild_id, self.channel_id)
        elif failure is Failure.REFUSED:
            drop()
            return True
        else:  # the retry plans afresh from memory, changes made meanwhile included
            self.failures += 1
            self._schedule_retry(delay)
        return False

    def _schedule_retry(self, delay: float) -> None:
        if self._retry is None or self._retry.cancelled():
            loop = asyncio.get_running_loop()

            def again() -> None:
                self._retry = None
                self.kick()

            self._retry = loop.call_later(delay, again)

    async def _load(self) -> None:
        """After a restart: adopt the stored message if it shows the hand still running."""
        self._loaded = True
        view = self.view
        if view is None or self.slot is not None or view.hand_id is None:
            return
        message_id = await self.saved.load(view.table_id)
        if message_id is not None:
            posted = discord.utils.snowflake_time(message_id).timestamp()
            self.slot = Slot(message_id, view.hand_id, posted)

    def _set_slot(self, slot: Slot | None) -> None:
        self.slot = slot
        if self.view is not None:
            self.saved.set(self.view.table_id, slot.message_id if slot is not None else None)

    def _plan(self) -> Request | None:
        """The next request that brings the channel in line with memory, or None."""
        view, slot = self.view, self.slot
        pending = self._pending()
        rendered: list[Payload] = []

        def payload() -> Payload:
            if not rendered:
                made = self.table_payload()
                assert made is not None
                rendered.append(made)
            return rendered[0]

        step = next_step(
            pending,
            view,
            slot,
            version=self.version,
            now=self.hub.clock(),
            max_age=self.hub.max_age,
            rendered_key=lambda: payload().key,
        )
        if step is MessageStep.NOTICE:
            notice = self.notices.pop(0)
            return (lambda: self._notice(notice), "notice", lambda: None)
        if step is MessageStep.PING_EDIT:
            assert self.ping_id is not None and self.ping_edit is not None
            ping_id, text = self.ping_id, self.ping_edit
            self.ping_id = self.ping_edit = None
            return (lambda: self.channel.edit_notice(ping_id, text), "ping edit", lambda: None)
        if step is MessageStep.RESULT:
            done = self.hands.finished[0]
            forget = partial(self.hands.forget, done)
            return (lambda: self._show_result(done), "hand result", forget)
        if step is MessageStep.CLOSED:
            assert self.closed is not None
            event = self.closed
            return (lambda: self._show_closed(event), "closing notice", self._closed_shown)
        if step is MessageStep.NOTHING or view is None:
            return None
        if step in (MessageStep.POST, MessageStep.REPOST) and self._refused_at == self.version:
            return None  # Discord refused this post: the next change tries again
        table, hand_id = payload(), view.hand_id
        refused = partial(setattr, self, "_refused_at", self.version)
        if step is MessageStep.POST:
            return (lambda: self._post(table, hand_id), "table post", refused)
        if step is MessageStep.REPOST:
            return (lambda: self._repost(table, hand_id), "table re-post", refused)
        assert slot is not None
        skip = partial(slot.shows, table.key, table.version)  # wait for the next change
        return (lambda: self._edit(slot, table, hand_id), "table edit", skip)

    # --- interaction tokens ------------------------------------------------------------------

    def saw(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction in this table's channel: once answered, its token carries the
        table's requests for 14 minutes (:func:`token_of`), off the global budget."""
        if not self._note(interaction):
            kept = [i for i in self._unanswered if i.id != interaction.id]
            self._unanswered = [*kept, interaction][-UNANSWERED_KEPT:]

    def _note(self, interaction: discord.Interaction[Any]) -> bool:
        """Keep the token of an answered interaction (True: its answer is known)."""
        if interaction.response.type is None:
            return False
        token = token_of(interaction)
        if token is not None:
            if self.latest is None or token.expires >= self.latest.expires:
                self.latest = token
            if token.original is not None and (
                self.clicked is None or token.expires >= self.clicked.expires
            ):
                self.clicked = token
        return True

    def _resolve(self) -> None:
        """Learn the answers of the interactions seen before (before choosing a token)."""
        if self._unanswered:
            self._unanswered = [i for i in self._unanswered if not self._note(i)]

    async def _answered(self, usable: Callable[[], Token | None]) -> Token | None:
        """A fresh token for a request; with none, one being answered now (the /stud join
        that opened the table, the command that deals) is awaited briefly: its answer
        comes within Discord's 3 s, and the request then spends nothing of the budget."""
        self._resolve()
        token = usable()
        deadline = self.hub.clock() + ANSWER_WAIT
        while token is None and self._unanswered and self.hub.clock() < deadline:
            await asyncio.sleep(ANSWER_POLL)
            self._resolve()
            token = usable()
        return token

    def _forget(self, token: Token) -> None:
        """Discord refused this token: no request goes through it any more."""
        if self.latest == token:
            self.latest = None
        if self.clicked == token:
            self.clicked = None
        if self.slot is not None and self.slot.poster == token:
            self.slot.poster = None

    def _edit_way(self, message_id: int, poster: Token | None) -> tuple[Via, Token | None]:
        self._resolve()
        return edit_via(message_id, self.clicked, poster, self.hub.clock())

    # --- requests -------------------------------------------------------------------------

    async def _send(self, payload: Payload) -> tuple[int, Token | None]:
        """Post in the channel: a follow-up of the table's newest interaction while its token
        is fresh (off the global budget), else by REST; the id, and the token it went by."""
        token = await self._answered(lambda: post_via(self.latest, self.hub.clock())[1])
        if token is not None:
            try:
                return await self.channel.send(payload, token), token
            except TokenRefused as refused:
                self._forget(refused.token)
        return await self.channel.send(payload), None

    async def _edit_message(
        self, message_id: int, payload: Payload, poster: Token | None = None
    ) -> bool:
        """Edit a table message through a fresh token (the click on it, the follow-up that
        posted it), else by REST; False when it is gone or too old."""
        via = self._edit_way(message_id, poster)
        if via[1] is not None:
            try:
                return await self.channel.edit(message_id, payload, via)
            except TokenRefused as refused:
                self._forget(refused.token)
        return await self.channel.edit(message_id, payload)

    def _poster_of(self, message_id: int) -> Token | None:
        slot = self.slot
        return slot.poster if slot is not None and slot.message_id == message_id else None

    async def _notice(self, notice: Notice) -> None:
        self._resolve()
        _, token = post_via(self.latest, self.hub.clock())
        if token is not None:
            try:
                self._noticed(notice, await self.channel.notice(notice, token))
                return
            except TokenRefused as refused:
                self._forget(refused.token)
        self._noticed(notice, await self.channel.notice(notice))

    def _noticed(self, notice: Notice, message_id: int) -> None:
        if notice.choice_ping:  # edited to the pick once it is made
            self.ping_id = message_id

    def _shown(self, payload: Payload) -> None:
        """The payload is on the table now: if it carries a turn's buttons, say so."""
        if payload.turn is not None and self.hub.turn_shown is not None:
            self.hub.turn_shown(self.guild_id, self.channel_id, *payload.turn)

    async def _post(self, payload: Payload, hand_id: int | None) -> None:
        message_id, token = await self._send(payload)
        slot = Slot(message_id, hand_id, self.hub.clock(), payload.key, payload.version, token)
        self._set_slot(slot)
        self._shown(payload)

    async def _repost(self, payload: Payload, hand_id: int | None) -> None:
        old = self.slot
        await self._post(payload, hand_id)
        if old is not None:
            new = self.slot.message_id if self.slot is not None else None
            via = self._edit_way(old.message_id, old.poster)
            await self.channel.leave_pointer(old.message_id, new, via)

    async def _edit(self, slot: Slot, payload: Payload, hand_id: int | None) -> None:
        if await self._edit_message(slot.message_id, payload, slot.poster):
            slot.shows(payload.key, payload.version)
            self._shown(payload)
            if slot.hand_id != hand_id:
                slot.hand_id = hand_id
                self._set_slot(slot)
        else:
            await self._post(payload, hand_id)

    async def _show_result(self, hand_id: int) -> None:
        payload = self.result_payload(hand_id)
        slot = self.slot
        if slot is not None and slot.hand_id == hand_id:
            if not await self._edit_message(slot.message_id, payload, slot.poster):
                await self._send(payload)
            self._set_slot(None)
        else:
            await self._send(payload)
        self.hands.forget(hand_id)

    async def _show_closed(self, event: ev.TableClosed) -> None:
        payload = closed_payload(event, self.names)
        slot = self.slot
        if slot is None or not await self._edit_message(slot.message_id, payload, slot.poster):
            await self._send(payload)
        self._closed_shown()

    def _closed_shown(self) -> None:
        self._set_slot(None)
        self.closed = None

    # --- answering clicks and commands ------------------------------------------------------

    def _answer_for(self, message_id: int) -> tuple[Payload, int | None] | None:
        """What the clicked message should show now: its hand's result or the live table."""
        slot = self.slot
        shows = click_shows(
            slot,
            message_id,
            self.hands.finished,
            self.view,
            now=self.hub.clock(),
            max_age=self.hub.max_age,
        )
        if shows is ClickShows.RESULT:
            assert slot is not None and slot.hand_id is not None
            return self.result_payload(slot.hand_id), slot.hand_id
        if shows is ClickShows.TABLE:
            payload = self.table_payload()
            return (payload, None) if payload is not None else None
        return None

    async def answer_action(
        self,
        interaction: discord.Interaction[Any],
        service: TableService,
        where: tuple[int, int, int],
        act: str,
    ) -> None:
        """An action button: refuse a stale or foreign click (the service's rule and words,
        from the view this messenger holds), else act and show the table."""
        table_id, hand_id, seq = where
        view = self.view
        if view is None:
            view = self.view = await service.table_view(self.guild_id, self.channel_id)
        user_id = interaction.user.id
        refusal = service.click_refusal(
            view,
            user_id,
            table_id=table_id,
            hand_id=hand_id,
            seq=seq,
            name_text=name_text,
            command_text=command_hint,
        )
        if refusal is not None:
            raise refusal
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
        got_lock = await acquire_within(self.lock, CLICK_LOCK_WAIT)
        deferred = False
        try:
            if not got_lock:
                await interaction.response.defer()
                deferred = True
            task = asyncio.ensure_future(action())
            try:
                done, _ = await asyncio.wait({task}, timeout=ACT_WAIT)
                if not done and not deferred:
                    await interaction.response.defer()
                    deferred = True
            except BaseException:  # e.g. the defer met 10062: nobody awaits the call now
                task.add_done_callback(unanswered_outcome)
                raise
            try:
                await task
            except TableError as error:
                await answer_failure(interaction, error)
                return
            message = interaction.message
            answer = self._answer_for(message.id) if got_lock and message is not None else None
            if answer is None:
                if not deferred:
                    await interaction.response.defer()
                return
            payload, finished_hand = answer
            if not await answer_click(interaction, payload, deferred=deferred):
                return
            self._note(interaction)  # its token now edits the message it answered in
            self._shown(payload)
            if finished_hand is not None:
                self._set_slot(None)
                self.hands.forget(finished_hand)
            elif self.slot is not None:
                self.slot.answer_shown(payload)
            await self.saved.flush()
        finally:
            if got_lock:
                self.lock.release()
            if needs_work(self._pending(), self.slot, self.version) or self.saved.pending:
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
            await self.saved.flush()

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

"""From table-service events to Discord: table messages per channel, cards by DM.

The relay is the service's subscriber. It must return quickly (the service delivers
events in order, right after each command), so it only updates memory and queues
work: each table's messenger and the DM courier do the network I/O in their own tasks.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from dealerbot.tables import (
    DEFAULT_DECK,
    ClosedBecause,
    DeckStyle,
    PlayerPrefs,
    TableService,
    is_house_user,
)
from dealerbot.tables import events as ev

from . import answers
from .dm import CANNOT_DM, DmCourier, DmRefused
from .markup import CardFaces, faces_for, name_text
from .rest_budget import DEFAULT_LIMIT, FailureLog, RestBudget
from .table_channel import Hub, jump_url
from .table_embeds import short_commitment
from .table_messages import TableMessenger
from .turn_alerts import DEFAULT_DELAY, TurnAlerts

log = logging.getLogger(__name__)

Key = tuple[int, int]
BEFORE_TABLE_KEPT = 32  # interactions kept for channels without a table (newest channels)
BLOCKED_DM_PRIVATE = (
    "I cannot send you direct messages, so your cards are behind **My cards** on the table "
    "(or `/stud cards`). To get them by DM, allow direct messages from this server's members."
)
LOST_DM_PRIVATE = (
    "Discord did not deliver your cards by DM just now: they are behind **My cards** on the "
    "table (or `/stud cards`)."
)


class PlayerDecks:
    """Each player's own deck (for his DMs and answers), asked of the service once per
    player and kept; ``/stud deck`` tells it the new choice at once."""

    def __init__(self, prefs: PlayerPrefs) -> None:
        self.prefs = prefs
        self._known: dict[int, DeckStyle] = {}
        self._warned = False  # a failed read is logged once per process

    def known(self, user_id: int) -> DeckStyle | None:
        return self._known.get(user_id)

    def remember(self, user_id: int, style: DeckStyle) -> None:
        self._known[user_id] = style

    async def of(self, user_id: int) -> DeckStyle:
        found = self._known.get(user_id)
        if found is not None:
            return found
        try:
            found = await self.prefs.deck(user_id)
        except Exception as error:  # never lose his cards DM over a preference
            if not self._warned:
                self._warned = True
                log.warning("cannot read players' decks (%s): the default deck for now", error)
            return DEFAULT_DECK  # not kept: asked again next time
        return self._known.setdefault(user_id, found)

    async def faces(self, user_id: int) -> CardFaces:
        """What the player's own deck shows now."""
        return faces_for(await self.of(user_id))


def table_link(messenger: TableMessenger, hand_id: int) -> str:
    """A link to the hand's table message (to the channel while it is not posted yet)."""
    slot = messenger.slot
    shown = slot.message_id if slot is not None and slot.hand_id == hand_id else None
    return jump_url(messenger.guild_id, messenger.channel_id, shown)


class TableRelay:
    """The service's subscriber: one messenger per table channel, the DM courier and turn
    alerts under one REST budget, and what to do when a channel or a server is gone."""

    def __init__(
        self,
        client: discord.Client,
        service: TableService,
        alert_delay: float = DEFAULT_DELAY,
        *,
        rest_budget: int = DEFAULT_LIMIT,
    ) -> None:
        self.client = client
        self.service = service
        # Table requests and DMs share one budget (REST_BUDGET per second; tables first).
        self.budget = RestBudget(rest_budget)
        # Failed requests are told in one line per kind a minute (Discord out of reach).
        self.failures = FailureLog(log)
        self.hub = Hub(
            client,
            self._remember_message,
            self._lookup_message,
            budget=self.budget,
            failures=self.failures,
        )
        self.courier = DmCourier(
            client,
            self._dm_refused,
            self._dm_delivered,
            budget=self.budget,
            failures=self.failures,
        )
        self.alerts = TurnAlerts(
            service.clock, service.prefs, self.courier, alert_delay, self._where
        )
        self.hub.turn_shown = self.alerts.shown  # an alert counts the wait from there
        self.messengers: dict[Key, TableMessenger] = {}
        self._before_table: dict[Key, discord.Interaction[Any]] = {}  # newest last
        self.decks = PlayerDecks(service.prefs)
        # user id -> his card DM waiting for his deck (the first of this process's life)
        self._deck_waits: dict[int, asyncio.Task[None]] = {}
        self._warned: set[tuple[int, int]] = set()  # (channel, user) told in public, once
        # users to tell at their next click that their cards are behind My cards: where and
        # in which hand their DM failed, and why (50007: closed; else lost on the way)
        self.tell_privately: dict[int, DmRefused] = {}
        self.hub.on_gone = self._on_gone
        self.gone: set[Key] = set()  # channels deleted: their events are dropped
        self.gone_guilds: set[int] = set()  # servers that removed the bot
        self._closing: set[asyncio.Task[None]] = set()

    def messenger(self, guild_id: int, channel_id: int) -> TableMessenger:
        key = (guild_id, channel_id)
        found = self.messengers.get(key)
        if found is None:
            found = TableMessenger(self.hub, guild_id, channel_id)
            self.messengers[key] = found
            early = self._before_table.pop(key, None)
            if early is not None:  # e.g. the /stud join that opened the table
                found.saw(early)
        return found

    def saw(self, interaction: discord.Interaction[Any]) -> None:
        """Any interaction in a table's channel: its token may carry that table's requests
        off the global budget once it is answered (:meth:`TableMessenger.saw`). In a channel
        with no table yet, the newest few are kept for the table they may open."""
        self.courier.interacted(interaction.user.id)  # after a refusal: DMs tried again
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        if guild_id is None or channel_id is None:
            return
        key = (guild_id, channel_id)
        messenger = self.messengers.get(key)
        if messenger is not None:
            messenger.saw(interaction)
            return
        self._before_table.pop(key, None)
        self._before_table[key] = interaction
        while len(self._before_table) > BEFORE_TABLE_KEPT:
            del self._before_table[next(iter(self._before_table))]

    async def on_event(self, event: ev.TableEvent) -> None:
        """The service's subscriber: memory updates and queued work only."""
        if event.guild_id in self.gone_guilds or (event.guild_id, event.channel_id) in self.gone:
            return  # nobody can see that channel any more
        messenger = self.messenger(event.guild_id, event.channel_id)
        if isinstance(event, ev.PrivateCards):
            self._deliver_cards(messenger, event)
            return
        if isinstance(event, ev.TopUpDropped | ev.SeatNotTaken):  # his business: told by DM
            where = self._where(event.guild_id, event.channel_id)
            self.courier.tell(event.user_id, f"The stud table in {where}: {event.text}")
            return
        messenger.on_event(event)
        if isinstance(event, ev.Turn):
            hand_id = event.hand_id
            self.alerts.turn(event, lambda: messenger.view, lambda: table_link(messenger, hand_id))
        elif isinstance(event, ev.ActionTaken | ev.HandEnded | ev.TableClosed):
            self.alerts.cancel((event.guild_id, event.channel_id))
        if isinstance(event, ev.HandEnded):
            self._ping_the_unseen(messenger, event.hand_id)

    def _deliver_cards(self, messenger: TableMessenger, event: ev.PrivateCards) -> None:
        """His cards by DM in his own deck; while his deck is not known yet (once per player
        and process) the DM waits for it, and any DM after it waits its turn."""
        user_id = event.user_id
        style = self.decks.known(user_id)
        if style is not None and user_id not in self._deck_waits:
            self._send_cards(messenger, event, faces_for(style))
            return
        before = self._deck_waits.get(user_id)
        task = asyncio.create_task(self._cards_later(messenger, event, before))
        self._deck_waits[user_id] = task

        def done(finished: asyncio.Task[None]) -> None:
            if self._deck_waits.get(user_id) is finished:
                del self._deck_waits[user_id]

        task.add_done_callback(done)

    async def _cards_later(
        self, messenger: TableMessenger, event: ev.PrivateCards, before: asyncio.Task[None] | None
    ) -> None:
        if before is not None:
            await asyncio.wait({before})
        self._send_cards(messenger, event, await self.decks.faces(event.user_id))

    def _send_cards(
        self, messenger: TableMessenger, event: ev.PrivateCards, faces: CardFaces
    ) -> None:
        number, title = messenger.hands.deal_labels(event.hand_id, messenger.view)
        commitment = messenger.hands.deal_commitment(event.hand_id, messenger.view)
        where = self._where(event.guild_id, event.channel_id)
        hand_id = event.hand_id

        def build() -> discord.Embed:
            """Made when it goes: it links the hand's table message once that is posted."""
            return answers.private_cards_embed(
                event,
                number=number,
                where=where,
                variant_title=title,
                link=table_link(messenger, hand_id),
                # the whole commitment is in the hand's proof (/stud verify)
                commitment=short_commitment(commitment) if commitment else None,
                faces=faces,
            )

        self.courier.deliver(
            event.guild_id,
            event.channel_id,
            event.user_id,
            hand_id,
            build,
            cards=True,
            ready=lambda: messenger.wait_shown(hand_id),
        )

    def _where(self, guild_id: int, channel_id: int) -> str:
        """``#stud in Stud Club`` (a channel mention shows its name: not written twice)."""
        guild = self.client.get_guild(guild_id)
        text = f"<#{channel_id}>"
        if guild is not None:
            text += f" in {name_text(guild.name)}"
        return text

    def _dm_refused(self, refused: DmRefused) -> None:
        """Nobody is pinged: his seat shows ``cards: My cards`` (DMs closed) and he is told
        privately at his next click; in public only if the hand ends before he clicks."""
        user_id = refused.user_id
        self.tell_privately[user_id] = refused
        if refused.code == CANNOT_DM and self.hub.marks.get(user_id) is None:
            self.hub.marks[user_id] = self.service.prefs.CARDS_BY_PANEL
            self._seat_mark_changed(user_id)

    def _seat_mark_changed(self, user_id: int) -> None:
        for messenger in self.messengers.values():
            view = messenger.view
            if view is not None and view.seat_of(user_id) is not None:
                messenger.changed()

    def _ping_the_unseen(self, messenger: TableMessenger, hand_id: int) -> None:
        """The hand is over: a player whose DM failed in it and who did not click since
        (nobody could tell him privately) is told in the channel, once per session."""
        for user_id, refused in list(self.tell_privately.items()):
            if (refused.guild_id, refused.channel_id, refused.hand_id) != (
                messenger.guild_id,
                messenger.channel_id,
                hand_id,
            ):
                continue
            key = (refused.channel_id, user_id)
            if key in self._warned:
                continue
            self._warned.add(key)
            private = BLOCKED_DM_PRIVATE if refused.code == CANNOT_DM else LOST_DM_PRIVATE
            messenger.notice(f"<@{user_id}>, {private}", mention=user_id)

    def _dm_delivered(self, channel_id: int, user_id: int) -> None:
        """His DMs work again: no reminder owed, no mark on his seat."""
        self.tell_privately.pop(user_id, None)
        if self.hub.marks.pop(user_id, None) is not None:
            self._seat_mark_changed(user_id)

    def owed_reminder(self, user_id: int) -> str | None:
        """The DM reminder owed to this player, once (None: nothing owed)."""
        refused = self.tell_privately.pop(user_id, None)
        if refused is None:
            return None
        return BLOCKED_DM_PRIVATE if refused.code == CANNOT_DM else LOST_DM_PRIVATE

    # --- channels and servers gone -----------------------------------------------------

    def _on_gone(self, guild_id: int, channel_id: int) -> None:
        """A table request met an unknown channel: close that table (from a worker)."""
        because = ClosedBecause.CHANNEL_UNREACHABLE
        task = asyncio.create_task(self.table_gone(guild_id, channel_id, because))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def table_gone(
        self, guild_id: int, channel_id: int | None, because: ClosedBecause
    ) -> None:
        """The channel (with None: the whole server) is gone: close its tables at once,
        stop their workers, and tell each player privately where the chips went."""
        if channel_id is None:
            self.gone_guilds.add(guild_id)
        else:
            self.gone.add((guild_id, channel_id))
        try:
            closed = await self.service.closing.abandon(guild_id, channel_id, because)
        except Exception:
            log.exception(
                "could not close the tables of channel %s (guild %s)", channel_id, guild_id
            )
            closed = []
        for key in [k for k in self.messengers if k[0] == guild_id and channel_id in (None, k[1])]:
            await self.messengers.pop(key).close(grace=0)
        for table in closed:
            log.warning(
                "table %s (channel %s) closed at once: %s; %d seats cashed out",
                *(table.table_id, table.channel_id, because.text, len(table.cashed_out)),
            )
            for user_id, _ in table.cashed_out:
                if not is_house_user(user_id):  # a house player is no Discord user
                    self.courier.tell(user_id, table.notice_for(user_id))

    def guild_back(self, guild_id: int) -> None:
        """The bot is in this server again: its channels may hold tables again."""
        self.gone_guilds.discard(guild_id)

    async def _remember_message(self, table_id: int, message_id: int | None) -> None:
        await self.service.set_table_message(table_id, message_id)

    async def _lookup_message(self, table_id: int) -> int | None:
        return await self.service.table_message(table_id)

    def pending(self) -> list[asyncio.Task[None]]:
        """Table-message workers, due turn alerts and DMs still running (tests wait for
        them to settle); alerts still waiting for their delay are not work yet."""
        return (
            [m.task for m in self.messengers.values() if m.task is not None]
            + self.alerts.busy()
            + list(self.courier.tasks)
            + list(self._deck_waits.values())
            + [task for task in self._closing if not task.done()]
        )

    async def close(self, grace: float = 2.0) -> None:
        """Let queued messages and DMs finish briefly, then stop."""
        self.alerts.close()
        self.budget.close()
        await asyncio.gather(
            self.courier.close(grace),
            *(m.close(grace) for m in self.messengers.values()),
            return_exceptions=True,
        )

"""Direct messages (a player's cards, and plain notices) sent off the table's critical path.

A DM is queued and sent by its own task (per player, in order), so a slow or
rate-limited DM never delays a click's answer. When Discord refuses a DM (403, code
50007: the player blocks DMs from server members), that player gets no more DMs for
the rest of the hand — retrying would only count towards Discord's invalid-request
ban — and the table is told, without any card, to point him at "My cards". A DM that
discord.py gave up on (429s or 5xx after its retries) is lost the same way, so the player
is pointed at "My cards" too. Logs name users and hands, never cards.

Every request spends the bot's REST budget (:mod:`.rest_budget`) in the DM lane, after
table messages. A player's DM channel is opened once and reused. While a DM waits for the
budget, a newer DM to the same player in the same hand replaces it (the 7th-street DM
shows all seven cards): under a long shortage the queue holds one DM per player at most.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import discord

from dealerbot.tables import is_house_user

from .rest_budget import Lane, RestBudget

log = logging.getLogger(__name__)

CANNOT_DM = 50007


@dataclass(frozen=True, slots=True)
class DmRefused:
    """A DM that Discord refused: which player, at which table, in which hand."""

    guild_id: int
    channel_id: int
    user_id: int
    hand_id: int
    code: int


class DmCourier:
    """Sends DMs without blocking the caller; remembers DM channels and refusals."""

    def __init__(
        self,
        client: discord.Client,
        on_refused: Callable[[DmRefused], None],
        on_delivered: Callable[[int, int], None] | None = None,
        *,
        in_flight: int = 8,
        budget: RestBudget | None = None,
    ) -> None:
        self._client = client
        self._budget = budget
        # A hand start queues a DM per player; sending them a few at a time keeps the
        # event loop free for clicks and paces DMs under Discord's global rate limit.
        self._gate = asyncio.Semaphore(in_flight)
        self._on_refused = on_refused
        self._on_delivered = on_delivered
        self._channels: dict[int, int] = {}  # user id -> DM channel id (discord.py keeps only 128)
        self._refused: dict[int, int] = {}  # user id -> the hand in which a DM was refused
        self._tails: dict[int, asyncio.Task[None]] = {}  # user id -> his last queued DM
        self._tasks: set[asyncio.Task[None]] = set()
        # user id -> (task, hand) of his card DM waiting for the budget
        self._waiting: dict[int, tuple[asyncio.Task[None], int]] = {}
        self._newest: dict[int, tuple[int, int]] = {}  # user id -> (hand, number) of his newest DM
        self._numbered = 0
        self.sent = 0
        self.superseded = 0
        self.refused = 0
        self.failed = 0

    @property
    def tasks(self) -> list[asyncio.Task[None]]:
        """DMs queued or being sent."""
        return [task for task in self._tasks if not task.done()]

    def refused_in(self, user_id: int, hand_id: int) -> bool:
        return self._refused.get(user_id) == hand_id

    def deliver(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        hand_id: int,
        embed: discord.Embed,
        *,
        cards: bool = False,
    ) -> None:
        """Queue one DM; DMs to the same player go out in the order they were queued.

        A DM of his ``cards`` replaces his earlier card DM of the hand not sent yet. A house
        player (issue 20) is no Discord user: nothing is sent to one."""
        if is_house_user(user_id) or self.refused_in(user_id, hand_id):
            return
        number = (hand_id, 0)
        if cards:
            self._supersede(user_id, hand_id)
            self._numbered += 1
            number = self._newest[user_id] = (hand_id, self._numbered)
        previous = self._tails.get(user_id)
        task = asyncio.create_task(
            self._send(guild_id, channel_id, user_id, hand_id, embed, previous, number),
            name=f"dm:{user_id}:{hand_id}",
        )
        self._tails[user_id] = task
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._done(user_id, t))

    def _done(self, user_id: int, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if self._tails.get(user_id) is task:
            del self._tails[user_id]
            self._newest.pop(user_id, None)

    def _outdated(self, user_id: int, number: tuple[int, int]) -> bool:
        """A newer DM to this player in the same hand is queued: this one need not go."""
        newest = self._newest.get(user_id)
        if newest is not None and newest != number and newest[0] == number[0]:
            self.superseded += 1
            return True
        return False

    @contextlib.asynccontextmanager
    async def _token(self, user_id: int, hand_id: int | None) -> AsyncIterator[None]:
        """Around one request: the budget's DM lane. While a card DM waits for its token, a
        newer DM in the same hand may cancel it (it has sent nothing yet); ``hand_id`` None:
        not a card DM, never cancelled."""
        if self._budget is None:
            yield
            return
        task = asyncio.current_task() if hand_id is not None else None
        if task is not None and hand_id is not None:
            self._waiting[user_id] = (task, hand_id)
        try:
            await self._budget.spend(Lane.DM)
        finally:
            if task is not None and self._waiting.get(user_id, (None, 0))[0] is task:
                del self._waiting[user_id]
        try:
            yield
        finally:
            self._budget.finish()

    def _supersede(self, user_id: int, hand_id: int) -> None:
        """Cancel the player's DM of this hand still waiting for the budget (not sent yet)."""
        waiting = self._waiting.get(user_id)
        if waiting is not None and waiting[1] == hand_id:
            del self._waiting[user_id]
            waiting[0].cancel()
            self.superseded += 1

    async def _send(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        hand_id: int,
        embed: discord.Embed,
        previous: asyncio.Task[None] | None,
        number: tuple[int, int],
    ) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait({previous})
        if number[1] and self._outdated(user_id, number):
            return
        async with self._gate:
            if self.refused_in(user_id, hand_id) or (number[1] and self._outdated(user_id, number)):
                return
            await self._send_now(guild_id, channel_id, user_id, number, embed)

    async def _target(self, user_id: int, hand_id: int | None = None) -> discord.PartialMessageable:
        """The player's DM channel, opened once and reused (discord.py keeps only 128)."""
        dm_id = self._channels.get(user_id)
        if dm_id is None:
            async with self._token(user_id, hand_id):
                data = await self._client.http.start_private_message(user_id)
            dm_id = int(data["id"])
            self._channels[user_id] = dm_id
        return self._client.get_partial_messageable(dm_id, type=discord.ChannelType.private)

    def tell(self, user_id: int, content: str) -> None:
        """Queue a plain private message (after the player's DMs already queued); none to a
        house player."""
        if is_house_user(user_id):
            return
        previous = self._tails.get(user_id)
        task = asyncio.create_task(self._tell(user_id, content, previous), name=f"dm:{user_id}")
        self._tails[user_id] = task
        self._tasks.add(task)
        task.add_done_callback(lambda t: self._done(user_id, t))

    async def _tell(self, user_id: int, content: str, previous: asyncio.Task[None] | None) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait({previous})
        async with self._gate:
            try:
                target = await self._target(user_id)
                async with self._token(user_id, None):
                    await target.send(content)
                self.sent += 1
            except discord.HTTPException as error:
                self.failed += 1
                log.warning(
                    "notice DM to user %s failed: HTTP %s code %s",
                    user_id,
                    error.status,
                    error.code,
                )

    async def _send_now(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        number: tuple[int, int],
        embed: discord.Embed,
    ) -> None:
        hand_id = number[0]
        try:
            card_hand = hand_id if number[1] else None  # only a card DM may be replaced
            target = await self._target(user_id, card_hand)
            async with self._token(user_id, card_hand):
                await target.send(embed=embed)
            self.sent += 1
            if self._refused.pop(user_id, None) is not None and self._on_delivered is not None:
                self._on_delivered(channel_id, user_id)
        except discord.Forbidden as error:
            self.refused += 1
            self._refused[user_id] = hand_id
            log.info(
                "DM to user %s refused (code %s) in hand %s: no more DMs to him this hand",
                user_id,
                error.code,
                hand_id,
            )
            self._on_refused(DmRefused(guild_id, channel_id, user_id, hand_id, error.code))
        except discord.HTTPException as error:  # discord.py gave up (429s, 5xx): lost
            self.failed += 1
            log.warning(
                "DM to user %s in hand %s failed: HTTP %s code %s; pointing him at My cards",
                user_id,
                hand_id,
                error.status,
                error.code,
            )
            self._on_refused(DmRefused(guild_id, channel_id, user_id, hand_id, error.code))
        except Exception:
            self.failed += 1
            log.exception("DM to user %s in hand %s failed", user_id, hand_id)

    async def close(self, grace: float = 2.0) -> None:
        """Let queued DMs finish for up to ``grace`` seconds, then cancel the rest."""
        pending = set(self._tasks)
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)

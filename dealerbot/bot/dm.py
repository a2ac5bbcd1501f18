"""Direct messages (a player's cards, and plain notices) sent off the table's critical path.

A DM is queued and sent by its own task (per player, in order), so a slow or
rate-limited DM never delays a click's answer. One card DM per player and hand: the deal
DM is sent at 3rd street and *edited* at 7th (an edit notifies nobody; the turn alert is
the DM that should), and a DM whose cards did not change is not sent again. Its content is
built when it goes (:data:`Build`), so it links the hand's table message once posted.

When Discord refuses a DM (403, code 50007: the player blocks DMs from server members),
that player gets no DM for the rest of the session — each refusal counts towards
Discord's 10,000 invalid requests per 10 minutes that ban the bot's address — until he
interacts with the bot again at least :data:`RETRY_AFTER` seconds after the refusal (or
says ``/stud dms on``): then one DM is tried again. A DM discord.py gave up on (429s or 5xx
after its retries, Discord out of reach) is lost for that hand only. Either way the relay
is told (``on_refused``), without any card. Logs name users and hands, never cards, and
failures are told in one line per kind a minute (:class:`~.rest_budget.FailureLog`).

Every request spends the bot's REST budget (:mod:`.rest_budget`) in the DM lane, after
table messages. A player's DM channel is opened once and reused. While a DM waits for the
budget, a newer DM to the same player in the same hand replaces it: under a long shortage
the queue holds one DM per player at most, sent late but in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import discord

from dealerbot.tables import is_house_user

from .rest_budget import FailureLog, Lane, RestBudget

log = logging.getLogger(__name__)

CANNOT_DM = 50007
RETRY_AFTER = 600.0  # seconds after a refusal before an interaction lets one DM be tried
# What a DM shows, built when it is sent (the table message it links may be posted by then).
Build = Callable[[], discord.Embed]
Ready = Callable[[], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class DmRefused:
    """A DM that Discord refused: which player, at which table, in which hand; ``code``
    50007 (:data:`CANNOT_DM`) when he blocks DMs, another when the DM was lost."""

    guild_id: int
    channel_id: int
    user_id: int
    hand_id: int
    code: int


@dataclass(frozen=True, slots=True)
class CardDm:
    """The card DM a player has of his current hand: edited when his cards change."""

    hand_id: int
    channel_id: int
    message_id: int
    digest: str  # what it shows (an edit that changes nothing is not sent)


def digest(embed: discord.Embed) -> str:
    return hashlib.blake2b(
        json.dumps(embed.to_dict(), sort_keys=True, default=str).encode(), digest_size=16
    ).hexdigest()


class DmCourier:
    """Sends DMs without blocking the caller; remembers DM channels, card DMs, refusals."""

    def __init__(
        self,
        client: discord.Client,
        on_refused: Callable[[DmRefused], None],
        on_delivered: Callable[[int, int], None] | None = None,
        *,
        in_flight: int = 8,
        budget: RestBudget | None = None,
        failures: FailureLog | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._client = client
        self._budget = budget
        self._failures = failures or FailureLog(log)
        self.clock = clock
        # A hand start queues a DM per player; sending them a few at a time keeps the
        # event loop free for clicks and paces DMs under Discord's global rate limit.
        self._gate = asyncio.Semaphore(in_flight)
        self._on_refused = on_refused
        self._on_delivered = on_delivered
        self._channels: dict[int, int] = {}  # user id -> DM channel id (discord.py keeps only 128)
        self._blocked: dict[int, float] = {}  # user id -> when a DM to him was refused (50007)
        self._lost: dict[int, int] = {}  # user id -> the hand in which a DM to him was lost
        self._cards: dict[int, CardDm] = {}  # user id -> his card DM of his latest hand
        self._told: set[int] = set()  # users the relay was told of (on_refused), not since
        self._tails: dict[int, asyncio.Task[None]] = {}  # user id -> his last queued DM
        self._tasks: set[asyncio.Task[None]] = set()
        # user id -> (task, hand) of his card DM waiting for the budget
        self._waiting: dict[int, tuple[asyncio.Task[None], int]] = {}
        self._newest: dict[int, tuple[int, int]] = {}  # user id -> (hand, number) of his newest DM
        self._numbered = 0
        self.sent = 0
        self.edited = 0
        self.superseded = 0
        self.refused = 0
        self.failed = 0

    @property
    def tasks(self) -> list[asyncio.Task[None]]:
        """DMs queued or being sent."""
        return [task for task in self._tasks if not task.done()]

    def blocked(self, user_id: int) -> bool:
        """He refused a DM this session and has not been let try again."""
        return user_id in self._blocked

    def refused_in(self, user_id: int, hand_id: int) -> bool:
        """No DM goes to him in this hand (blocked, or a DM of the hand was lost)."""
        return user_id in self._blocked or self._lost.get(user_id) == hand_id

    def interacted(self, user_id: int) -> None:
        """He used the bot: long enough after a refusal, one DM may be tried again."""
        refused_at = self._blocked.get(user_id)
        if refused_at is not None and self.clock() - refused_at >= RETRY_AFTER:
            del self._blocked[user_id]

    def allow(self, user_id: int) -> None:
        """He says his DMs are open (``/stud dms on``): the next DM is tried."""
        self._blocked.pop(user_id, None)

    def deliver(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        hand_id: int,
        content: discord.Embed | Build,
        *,
        cards: bool = False,
        ready: Ready | None = None,
    ) -> None:
        """Queue one DM (``content``, or what makes it when it goes, after ``ready`` if
        given); DMs to the same player go out in the order they were queued.

        A DM of his ``cards`` replaces his earlier card DM of the hand not sent yet, and
        edits the one already sent. A house player (issue 20) is no Discord user: nothing
        is sent to one."""
        if is_house_user(user_id) or self.refused_in(user_id, hand_id):
            return
        build = content if callable(content) else lambda: content
        number = (hand_id, 0)
        if cards:
            self._supersede(user_id, hand_id)
            self._numbered += 1
            number = self._newest[user_id] = (hand_id, self._numbered)
        previous = self._tails.get(user_id)
        task = asyncio.create_task(
            self._send(guild_id, channel_id, user_id, build, previous, number, ready),
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
        build: Build,
        previous: asyncio.Task[None] | None,
        number: tuple[int, int],
        ready: Ready | None,
    ) -> None:
        if previous is not None and not previous.done():
            await asyncio.wait({previous})
        hand_id = number[0]
        if self.refused_in(user_id, hand_id) or (number[1] and self._outdated(user_id, number)):
            return
        if ready is not None:
            await ready()
        async with self._gate:
            if self.refused_in(user_id, hand_id) or (number[1] and self._outdated(user_id, number)):
                return
            await self._send_now(guild_id, channel_id, user_id, number, build)

    async def _target(self, user_id: int, hand_id: int | None = None) -> int:
        """The player's DM channel, opened once and reused (discord.py keeps only 128)."""
        dm_id = self._channels.get(user_id)
        if dm_id is None:
            async with self._token(user_id, hand_id):
                data = await self._client.http.start_private_message(user_id)
            dm_id = int(data["id"])
            self._channels[user_id] = dm_id
        return dm_id

    def _messageable(self, dm_id: int) -> discord.PartialMessageable:
        return self._client.get_partial_messageable(dm_id, type=discord.ChannelType.private)

    def tell(self, user_id: int, content: str) -> None:
        """Queue a plain private message (after the player's DMs already queued); none to a
        house player or one who blocks DMs."""
        if is_house_user(user_id) or self.blocked(user_id):
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
                target = self._messageable(await self._target(user_id))
                async with self._token(user_id, None):
                    await target.send(content)
                self.sent += 1
            except discord.Forbidden as error:
                self._refusal(error, user_id)
            except Exception as error:  # Discord out of reach, 5xx: counted, said once a minute
                self.failed += 1
                self._failures.failed("notice DM", error, f"to user {user_id}")

    def _refusal(self, error: discord.Forbidden, user_id: int) -> None:
        """A 403: no more DMs to him this session (retrying would count towards a ban)."""
        self.refused += 1
        self._blocked[user_id] = self.clock()
        log.info(
            "DM to user %s refused (code %s): no more DMs to him until he uses the bot again",
            *(user_id, error.code),
        )

    async def _send_now(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        number: tuple[int, int],
        build: Build,
    ) -> None:
        hand_id = number[0]
        card_hand = hand_id if number[1] else None  # only a card DM may be replaced
        try:
            dm_id = await self._target(user_id, card_hand)
            embed = build()
            if card_hand is not None:
                await self._send_cards(user_id, hand_id, dm_id, embed)
            else:
                async with self._token(user_id, None):
                    await self._messageable(dm_id).send(embed=embed)
                self.sent += 1
            self._lost.pop(user_id, None)
            if user_id in self._told:  # his DMs work again
                self._told.discard(user_id)
                if self._on_delivered is not None:
                    self._on_delivered(channel_id, user_id)
        except discord.Forbidden as error:
            self._refusal(error, user_id)
            self._cards.pop(user_id, None)
            self._told.add(user_id)
            self._on_refused(DmRefused(guild_id, channel_id, user_id, hand_id, error.code))
        except (discord.HTTPException, OSError, TimeoutError) as error:  # lost on the way
            self.failed += 1
            self._lost[user_id] = hand_id
            self._failures.failed("DM", error, "the player is pointed at My cards")
            code = error.code if isinstance(error, discord.HTTPException) else 0
            self._told.add(user_id)
            self._on_refused(DmRefused(guild_id, channel_id, user_id, hand_id, code))
        except Exception:
            self.failed += 1
            log.exception("DM to user %s in hand %s failed", user_id, hand_id)

    async def _send_cards(
        self, user_id: int, hand_id: int, dm_id: int, embed: discord.Embed
    ) -> None:
        """His card DM of this hand: edited if he has one (a new DM otherwise); nothing at
        all when it would show what it shows."""
        shown = digest(embed)
        known = self._cards.get(user_id)
        if known is not None and known.hand_id == hand_id and known.channel_id == dm_id:
            if known.digest == shown:
                return
            message = self._messageable(dm_id).get_partial_message(known.message_id)
            try:
                async with self._token(user_id, hand_id):
                    await message.edit(embed=embed)
            except discord.NotFound:  # he deleted it: a new one
                self._cards.pop(user_id, None)
            else:
                self._cards[user_id] = CardDm(hand_id, dm_id, known.message_id, shown)
                self.edited += 1
                return
        async with self._token(user_id, hand_id):
            sent = await self._messageable(dm_id).send(embed=embed)
        self._cards[user_id] = CardDm(hand_id, dm_id, sent.id, shown)
        self.sent += 1

    async def close(self, grace: float = 2.0) -> None:
        """Let queued DMs finish for up to ``grace`` seconds, then cancel the rest."""
        pending = set(self._tasks)
        if pending:
            _, late = await asyncio.wait(pending, timeout=grace)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late)

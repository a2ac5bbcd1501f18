"""The table service: the one facade front ends (the Discord bot, tests) drive with plain ids.

Every command for a table runs under that table's lock (:class:`KeyedLocks`); the events
it causes are delivered to subscribers, in order, right after the lock is released (so when
a command returns, its events have been delivered). A user's errors are
:class:`~dealerbot.tables.errors.TableError`, worded to show. What needs no table lock is a
facet: ``accounts``, ``prefs``, ``stats``, ``settings`` (house settings), ``records`` (hand
histories), ``proofs``, ``closing`` (tables closed at once), ``tournaments`` (Sit & Gos,
under their channel's lock); methods of the same names delegate to them. The front end's
table message id is kept here across restarts. Randomness, the clock and therefore every
timer are injected: production uses ``secrets.SystemRandom()`` and the wall clock; tests
pass ``random.Random(seed)`` and a :class:`~dealerbot.tables.timers.FakeClock`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from dealerbot.engine import ActionKind
from dealerbot.fairness import SaltSource
from dealerbot.store import hands as hands_db
from dealerbot.store import seats as seats_db
from dealerbot.store import tables as tables_db
from dealerbot.store.boards import Seek as BoardSeek
from dealerbot.store.db import Database
from dealerbot.store.leaderboard import LeaderboardEntry, LeaderboardPage
from dealerbot.store.tables import TableStatus
from dealerbot.store.wallets import DailyClaim, Wallet

from . import errors, hand_loop, house_seats, settings
from .abandon import Abandoner
from .accounts import Accounts, PlayerPrefs
from .errors import check_chips, check_ids, check_user, store_errors_as_table_errors
from .events import PlayerJoined, TableEvent
from .ownership import Ownership, Shards
from .proofs import Proofs
from .records import HandRecords
from .seating import LeaveOutcome, check_buy_in, check_name, check_rebuy, free_seat
from .settings import GuildEconomy, HouseSettings, TableConfig
from .stats import PlayerStats
from .table import Deps, Table
from .timers import Clock, SystemClock, TaskTracker
from .tournaments import Tournaments
from .views import PlayerView, TableView

log = logging.getLogger(__name__)

Subscriber = Callable[[TableEvent], Awaitable[None]]
Key = tuple[int, int]

__all__ = ["KeyedLocks", "LeaveOutcome", "Subscriber", "TableService"]

# --- one lock per table -------------------------------------------------------------------

# (monotonic time, seconds waited) of each contended acquire, while a benchmark's probe
# (dealerbot.perf_probe) records them; None (production): nothing is measured.
WAITS: deque[tuple[float, float]] | None = None


class TimedLock(asyncio.Lock):
    """An asyncio lock that notes how long a contended acquire waited, when asked to."""

    async def acquire(self) -> Literal[True]:
        if WAITS is None or not self.locked():
            return await super().acquire()
        start = time.perf_counter()
        await super().acquire()
        WAITS.append((time.monotonic(), time.perf_counter() - start))
        return True


class KeyedLocks:
    """One lock per table, kept for the life of the service: a table's state and its rows
    change one step at a time, in one order (every command and timer callback takes it)."""

    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def get(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = TimedLock()
        return lock


@dataclass(slots=True)
class _Ref:
    table: Table | None


class TableService:
    """Seats, hands, timers and chips for every table, by (guild id, channel id); the
    wallet commands delegate to ``accounts``, the settings commands to ``settings``."""

    click_refusal = staticmethod(hand_loop.click_refusal)
    """Whether a member may press an action button now, and why not, in words."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        salts: SaltSource | None = None,
        shards: Shards | None = None,
        house_style: house_seats.HouseStyle | None = None,  # house players' play (tests: 0 s)
    ) -> None:
        self.db = db
        self.ownership = Ownership(shards)  # this process's shards and table leases
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.tracker = TaskTracker()
        # The deck's salts: the operating system's (docs/fairness.md), or from the injected rng.
        if salts is None:
            salts = secrets.token_bytes if rng is None else rng.randbytes
        rng = rng if rng is not None else secrets.SystemRandom()
        self._deps = Deps(db, self.clock, rng, self.tracker, self._publish, salts, house_style)
        self._deps.fence = self.ownership.fenced  # a table's writes commit under its lease
        self._locks = KeyedLocks()
        self._tables: dict[Key, Table] = {}
        self._subscribers: list[Subscriber] = []
        # The facets (no table lock, except ``closing`` and ``house``: through _command).
        self.accounts = Accounts(db)  # wallets, daily, leaderboard, economy
        self.prefs = PlayerPrefs(db)  # a player's own preferences (turn alerts)
        self.stats = PlayerStats(db)  # /stud stats and the winnings leaderboard
        self.settings = HouseSettings(db)  # table settings and a server's defaults
        self.records = HandRecords(db)  # hand histories (those hands are over)
        self.proofs = Proofs(db)  # proofs of a fair deal (those hands are over)
        self.closing = Abandoner(db, self._command)  # tables closed at once (channel gone)
        self.house = house_seats.HouseBank(db, self._deps.house, self._command, self._tables)
        self.tournaments = Tournaments(self._deps, self._command, self._tables, self._locks.get)

    # --- life cycle ------------------------------------------------------------------

    async def startup(self) -> None:
        """Load every open table of this process's guilds whose lease it gets: resume hands
        in progress (or refund them), arm timers; take over the tables of a holder that
        dies later (:meth:`Ownership.run_tables`)."""
        await self.ownership.start(self.db, self._stop_tables)
        await self.ownership.run_tables(self._tables, self._command, self.clock, self.tracker)

    async def shutdown(self) -> None:
        """Stop every timer and wait for callbacks already running; give the leases back
        (the database stays open)."""
        self.tracker.stopped = True
        self._stop_tables()
        await self.tracker.join()
        await self.ownership.close()

    def _stop_tables(self) -> None:
        """Cancel every table's timers and forget them (at shutdown, or leases lost)."""
        self.ownership.stop_watching()
        for table in list(self._tables.values()):
            table.stop_timers()
        self._tables.clear()

    async def claim_interaction(self, interaction_id: int) -> bool:
        """Whether this process answers an interaction (:meth:`Ownership.claim_interaction`)."""
        return await self.ownership.claim_interaction(self.db, interaction_id, self.clock.now())

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Deliver every event to ``callback``; returns a function that unsubscribes."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)

        return unsubscribe

    async def wait_idle(self) -> None:
        """Wait until no timer callback is running (tests: after ``FakeClock.advance``)."""
        await self.tracker.wait_idle()

    async def _publish(self, events: Sequence[TableEvent]) -> None:
        for event in events:
            for callback in list(self._subscribers):
                try:
                    await callback(event)
                except Exception:
                    log.exception("event subscriber failed on %s", type(event).__name__)

    # --- table access ------------------------------------------------------------------

    @asynccontextmanager
    async def _command(self, guild_id: int, channel_id: int) -> AsyncIterator[_Ref]:
        """Hold the table's lock (loading the table if needed), then deliver its events.

        The body may set ``ref.table`` (join creates the table); whatever table the ref
        holds at the end gets its events sealed and delivered. A store error from the body
        comes out as the TableError the service words for it.
        """
        check_ids(guild_id, channel_id)
        await self.ownership.claim(guild_id, channel_id)  # TableElsewhereError if not ours
        key = (guild_id, channel_id)
        ref = _Ref(None)
        try:
            async with self._locks.get(key):
                try:
                    # No store error reaches a front end; writes commit only under the lease.
                    with store_errors_as_table_errors(), self.ownership.fenced(channel_id):
                        ref.table = self._tables.get(key)
                        if ref.table is None or ref.table.closed:
                            ref.table = await self._load(key)
                        yield ref
                finally:
                    if ref.table is not None:
                        ref.table.outbox.seal(ref.table.changed)
                        self._forget_if_closed(ref.table)
        finally:
            if ref.table is not None:
                await ref.table.outbox.flush()

    async def _load(self, key: Key) -> Table | None:
        """The open table in this channel from the database (resuming its hand), or None."""
        guild_id, channel_id = key
        record = await tables_db.find_table(self.db, guild_id, channel_id)
        if record is None or record.status is TableStatus.CLOSED:
            return None
        config = await settings.table_config(self.db, guild_id, channel_id)
        seats = await seats_db.get_seats(self.db, record.id)
        table = Table(self._deps, record, config, seats, self._locks.get(key))
        await table.games.load(self.db, record.id)  # a mixed game resumes its rotation
        self._tables[key] = table
        if (held := await self.tournaments.take_over(table)) is not None:
            return held  # its Sit & Go deals here; the cash table waits, parked in it
        hand = await hands_db.current_hand(self.db, record.id)
        # Top-ups queued before a restart: now if no hand is left to settle, else after it.
        between = hand is None and record.status is TableStatus.OPEN
        table.seats.update(await table.top_ups.load(self.db, record.id, config, seats, between))
        if hand is not None:
            await table.resume(hand)
        else:
            await table.rebalance_house()  # house players sit or leave; the next deal
        return table

    def _forget_if_closed(self, table: Table) -> None:
        key = (table.guild_id, table.channel_id)
        if table.closed and self._tables.get(key) is table:
            del self._tables[key]

    @staticmethod
    def _existing(table: Table | None) -> Table:
        if table is None or table.closed:
            raise errors.NoTableError()
        return table

    # --- players ------------------------------------------------------------------------

    async def join(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        buy_in: int | None = None,
    ) -> PlayerView:
        """Sit down with ``buy_in`` chips from the wallet (default: the table minimum)."""
        check_user(user_id)
        name = check_name(name, user_id)  # the one place names are cleaned (issue 12)
        if buy_in is not None:
            check_chips(buy_in, "buy-in")
        async with self._command(guild_id, channel_id) as ref:
            table = ref.table
            if table is None:  # a new (or closed) table: open it and seat him in one go
                config = await settings.table_config(self.db, guild_id, channel_id)
                amount = config.min_buyin if buy_in is None else buy_in
                check_buy_in(config, amount)
                async with self.db.transaction():  # store refusals: worded by _command
                    await tables_db.open_table(self.db, guild_id, channel_id)
                    record = await tables_db.find_table(self.db, guild_id, channel_id)
                    assert record is not None
                    seat = await seats_db.sit_down(
                        self.db,
                        record.id,
                        user_id,
                        name,
                        amount,
                        seat_no=free_seat(config, ()),
                        time_bank_seconds=config.time_bank_seconds,
                    )
                table = ref.table = await self._load((guild_id, channel_id))
                assert table is not None
            else:
                self.tournaments.refuse_cash_join(table)  # a Sit & Go holds the channel
                if user_id in table.seats:
                    raise errors.AlreadySeatedError()
                if table.status is not TableStatus.OPEN:
                    raise errors.TableClosingError()
                config = table.config
                amount = config.min_buyin if buy_in is None else buy_in
                check_buy_in(config, amount)
                if house_seats.full_with_house(table):  # a house player gives up its seat
                    return await house_seats.seat_member(table, user_id, name, amount)
                seat_no = free_seat(config, (seat.seat_no for seat in table.seats.values()))
                seat = await seats_db.sit_down(
                    self.db,
                    table.id,
                    user_id,
                    name,
                    amount,
                    seat_no=seat_no,
                    time_bank_seconds=config.time_bank_seconds,
                )
                table.remember(seat)
            table.touch()
            table.emit(
                PlayerJoined(
                    guild_id, channel_id, user_id, seat.display_name, seat.seat_no, seat.stack
                )
            )
            await table.rebalance_house()  # a house player may leave; the next deal
            return table.player_view(user_id)

    async def leave(self, guild_id: int, channel_id: int, user_id: int) -> LeaveOutcome:
        """Leave now (cashed out) or, when in the hand being played, as soon as it ends."""
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            return await self._existing(ref.table).leave(user_id)

    async def sit_out(self, guild_id: int, channel_id: int, user_id: int) -> PlayerView:
        """Be dealt out of the next hands (a hand being played is finished normally)."""
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            await table.set_sitting_out(user_id, True)
            return table.player_view(user_id)

    async def sit_in(self, guild_id: int, channel_id: int, user_id: int) -> PlayerView:
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            await table.set_sitting_out(user_id, False)
            return table.player_view(user_id)

    async def add_chips(
        self, guild_id: int, channel_id: int, user_id: int, amount: int
    ) -> PlayerView:
        """Top up the stack from the wallet, between hands only (table stakes)."""
        check_user(user_id)
        check_chips(amount, "amount")
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            await table.add_chips(user_id, amount)
            return table.player_view(user_id)

    async def rebuy(self, guild_id: int, channel_id: int, user_id: int) -> PlayerView:
        """A busted player buys in again (the table minimum), once per bust: checked under
        the lock, so a second press, queued or not, never adds a second buy-in."""
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            seat = table.seat_of(user_id)
            in_hand = table.hand is not None and user_id in table.hand.seat_by_user
            check_rebuy(seat.stack, in_hand, table.top_ups.queued.get(user_id, 0))
            await table.add_chips(user_id, table.config.min_buyin)
            return table.player_view(user_id)

    async def start(
        self, guild_id: int, channel_id: int, by: int | None = None, *, admin: bool = False
    ) -> TableView:
        """Deal now, not after the between-hands delay; ``by`` must be seated unless admin."""
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            if by is not None and not admin and by not in table.seats:
                raise errors.NotSeatedError("Only a seated player (or an admin) can deal a hand.")
            await table.start_hand()
            return table.view()

    async def act(
        self,
        guild_id: int,
        channel_id: int,
        user_id: int,
        hand_id: int,
        seq: int,
        kind: ActionKind | str,
    ) -> TableView:
        """Take the action offered as (``hand_id``, ``seq``) if :meth:`click_refusal` lets
        the player press it now; stale or repeated ones are refused."""
        check_user(user_id)
        if isinstance(kind, str):
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise errors.IllegalMoveError(f"Unknown action {kind!r}.") from None
        if not isinstance(kind, ActionKind):
            raise errors.IllegalMoveError("Unknown action.")
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            await table.act(user_id, hand_id, seq, kind)
            return table.view()

    async def choose_game(
        self, guild_id: int, channel_id: int, user_id: int, game: str, pick_id: int | None = None
    ) -> None:
        """Dealer's choice: the button player's pick of the next game (anyone else, or a
        button of an earlier pick than ``pick_id`` (None: the one waiting), is refused); the
        hand is dealt at once in that game."""
        async with self._command(guild_id, channel_id) as ref:
            await self._existing(ref.table).choose_game(user_id, game, pick_id)

    # --- views ----------------------------------------------------------------------------

    async def table_view(self, guild_id: int, channel_id: int) -> TableView:
        async with self._command(guild_id, channel_id) as ref:
            return self._existing(ref.table).view()

    async def my_cards(self, guild_id: int, channel_id: int, user_id: int) -> PlayerView:
        """The player's own view: the public table plus his down cards and his options."""
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            return self._existing(ref.table).player_view(user_id)

    # --- the table as a whole ------------------------------------------------------------

    async def close_table(self, guild_id: int, channel_id: int) -> bool:
        """Close now (True), or after the hand being played (False); everyone is cashed out."""
        async with self._command(guild_id, channel_id) as ref:
            return await self._existing(ref.table).close()

    async def table_message(self, table_id: int) -> int | None:
        """The id of the front end's live table message, kept across restarts."""
        check_ids(table_id)
        with store_errors_as_table_errors():
            return (await tables_db.get_table(self.db, table_id)).message_id

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        check_ids(table_id)
        with store_errors_as_table_errors():
            await tables_db.set_table_message(self.db, table_id, message_id)

    # --- house settings (``settings``; a loaded table takes a change under its lock) ------

    async def config_get(self, guild_id: int, channel_id: int) -> TableConfig:
        return await self.settings.table(guild_id, channel_id)

    async def config_set(self, guild_id: int, channel_id: int, **changes: Any) -> TableConfig:
        """Change this channel's settings (validated); they apply from the next hand."""
        async with self._command(guild_id, channel_id) as ref:
            config = await self.settings.change_table(guild_id, channel_id, **changes)
            if ref.table is not None:
                await ref.table.reconfigure(config)
            return config

    async def guild_defaults_get(self, guild_id: int) -> TableConfig:
        return await self.settings.guild_defaults(guild_id)

    async def guild_defaults_set(self, guild_id: int, **changes: Any) -> TableConfig:
        """Change the guild's default settings; tables without their own pick them up."""
        config = await self.settings.change_guild_defaults(guild_id, **changes)
        for (guild, channel), table in list(self._tables.items()):
            if guild == guild_id:
                async with self._command(guild, channel) as ref:
                    if ref.table is table:
                        await table.reconfigure(await self.settings.table(guild, channel))
        return config

    # --- accounts (``accounts``: no table lock) --------------------------------------------

    async def balance(self, guild_id: int, user_id: int) -> Wallet:
        return await self.accounts.balance(guild_id, user_id)

    async def daily(self, guild_id: int, user_id: int) -> DailyClaim:
        return await self.accounts.daily(guild_id, user_id)

    async def leaderboard(
        self,
        guild_id: int,
        page: int = 1,
        *,
        after: BoardSeek | None = None,
        before: BoardSeek | None = None,
    ) -> LeaderboardPage:
        return await self.accounts.leaderboard(guild_id, page, after=after, before=before)

    async def rank_of(self, guild_id: int, user_id: int) -> LeaderboardEntry | None:
        return await self.accounts.rank_of(guild_id, user_id)

    async def admin_adjust(
        self, guild_id: int, user_id: int, amount: int, note: str = ""
    ) -> Wallet:
        return await self.accounts.admin_adjust(guild_id, user_id, amount, note)

    async def economy_get(self, guild_id: int) -> GuildEconomy:
        return await self.accounts.economy_get(guild_id)

    async def economy_set(self, guild_id: int, **changes: Any) -> GuildEconomy:
        return await self.accounts.economy_set(guild_id, **changes)

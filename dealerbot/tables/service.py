"""The table service: the one facade front ends (the Discord bot, tests) drive with plain ids.

Every command for a table runs under that table's lock; events it causes are queued
while the lock is held and delivered to subscribers, in order, right after it is
released (so when a command returns, its events have been delivered). Errors a user
can cause are :class:`~dealerbot.tables.errors.TableError` with a message fit to show.

Randomness, the clock and therefore every timer are injected: production uses
``secrets.SystemRandom()`` and the wall clock; tests pass ``random.Random(seed)`` and a
:class:`~dealerbot.tables.timers.FakeClock`.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass

from dealerbot.engine import ActionKind
from dealerbot.fairness import SaltSource
from dealerbot.store import hands as hands_db
from dealerbot.store import seats as seats_db
from dealerbot.store import tables as tables_db
from dealerbot.store.db import Database
from dealerbot.store.tables import TableStatus

from . import config as settings
from . import errors
from .accounts import Accounts
from .checks import check_chips, check_ids, check_name, check_user, is_int
from .closing import Closer
from .deps import Deps
from .display import PlayerView, TableView
from .events import PlayerJoined, TableEvent
from .locks import KeyedLocks
from .ownership import Ownership, Shards
from .proofs import Proofs
from .records import HandRecords
from .refusals import store_errors_as_table_errors
from .seating import LeaveOutcome, check_buy_in, check_rebuy, free_seat
from .settings_commands import SettingsCommands
from .table import Table
from .timers import Clock, SystemClock, TaskTracker

log = logging.getLogger(__name__)

Subscriber = Callable[[TableEvent], Awaitable[None]]
Key = tuple[int, int]

__all__ = ["LeaveOutcome", "Subscriber", "TableService"]


@dataclass(slots=True)
class _Ref:
    table: Table | None


class TableService(SettingsCommands, Accounts):
    """Seats, hands, timers and chips for every table, by (guild id, channel id).

    The wallet commands (balance, daily, leaderboard, rank_of, admin_adjust, economy_get,
    economy_set) are :class:`~dealerbot.tables.accounts.Accounts`' and take no table lock.
    """

    def __init__(
        self,
        db: Database,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        salts: SaltSource | None = None,
        shards: Shards | None = None,
    ) -> None:
        super().__init__(db)
        self.ownership = Ownership(shards)  # this process's shards and table leases
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.tracker = TaskTracker()
        # The deck's salts: the operating system's (docs/fairness.md), or from the injected rng.
        if salts is None:
            salts = secrets.token_bytes if rng is None else rng.randbytes
        self._deps = Deps(
            db,
            self.clock,
            rng if rng is not None else secrets.SystemRandom(),
            self.tracker,
            self._publish,
            salts,
        )
        self._locks = KeyedLocks()
        self._tables: dict[Key, Table] = {}
        self._subscribers: list[Subscriber] = []
        self._started = False
        self.records = HandRecords(db)  # hand histories (no table lock: those hands are over)
        self.closing = Closer(db, self._command)  # tables closed at once (channel gone)
        self.proofs = Proofs(db)  # proofs of a fair deal (no table lock: those hands are over)

    # --- life cycle ------------------------------------------------------------------

    async def startup(self) -> None:
        """Load every open table of this process's guilds whose lease it gets: resume hands
        in progress (or refund them), arm timers."""
        self._started = True
        await self.ownership.start(self.db, self._stop_tables)
        for record in await tables_db.list_tables(
            self.db, statuses=(TableStatus.OPEN, TableStatus.CLOSING)
        ):
            if not self.ownership.owns_guild(record.guild_id):
                continue
            with contextlib.suppress(errors.TableElsewhereError):  # another process runs it
                await self._resume(record.guild_id, record.channel_id)

    async def _resume(self, guild_id: int, channel_id: int) -> None:
        async with self._command(guild_id, channel_id) as ref:
            table = ref.table
            if table is not None and table.hand is None and table.status is TableStatus.CLOSING:
                await table.close()

    async def shutdown(self) -> None:
        """Stop every timer and wait for callbacks already running; give the leases back
        (the database stays open)."""
        self.tracker.stopped = True
        self._stop_tables()
        await self.tracker.join()
        await self.ownership.close()

    def _stop_tables(self) -> None:
        """Cancel every table's timers and forget them (at shutdown, or leases lost)."""
        for table in list(self._tables.values()):
            table.turn_timer.cancel()
            table.start_timer.cancel()
        self._tables.clear()

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
                    with store_errors_as_table_errors():  # no store error reaches a front end
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
        hand = await hands_db.current_hand(self.db, record.id)
        # Top-ups queued before a restart: now if no hand is left to settle, else after it.
        between = hand is None and record.status is TableStatus.OPEN
        table.seats.update(await table.top_ups.load(self.db, record.id, config, seats, between))
        if hand is not None:
            await table.resume(hand)
        else:
            table.schedule_start()
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
                with store_errors_as_table_errors():
                    async with self.db.transaction():
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
                if user_id in table.seats:
                    raise errors.AlreadySeatedError()
                if table.status is not TableStatus.OPEN:
                    raise errors.TableClosingError()
                config = table.config
                amount = config.min_buyin if buy_in is None else buy_in
                check_buy_in(config, amount)
                seat_no = free_seat(config, (seat.seat_no for seat in table.seats.values()))
                with store_errors_as_table_errors():
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
            table.schedule_start()
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
        """Take the action offered as (``hand_id``, ``seq``); stale or repeated ones are refused."""
        check_user(user_id)
        if isinstance(kind, str):
            try:
                kind = ActionKind(kind)
            except ValueError:
                raise errors.IllegalMoveError(f"Unknown action {kind!r}.") from None
        if not isinstance(kind, ActionKind):
            raise errors.IllegalMoveError("Unknown action.")
        if not is_int(hand_id) or not is_int(seq):
            raise errors.StaleActionError()
        async with self._command(guild_id, channel_id) as ref:
            table = self._existing(ref.table)
            await table.act(user_id, hand_id, seq, kind)
            return table.view()

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

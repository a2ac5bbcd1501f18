"""Sit & Go tournaments (``service.tournaments``): every command by plain ids, under the
channel's table lock; views out (:class:`~.views.TournamentView`), events to subscribers
(:class:`~.events.TournamentNotice`, :class:`~.events.PlayerFinished`, the hands' own),
refusals as :class:`~.errors.TournamentError` worded for the player.

From its creation to its end a tournament holds its channel: the service's table there is
its :class:`~.tournament_table.TournamentTable` (again after a restart: :meth:`take_over`),
the cash table parked inside it. It starts when its seats are full, or when an admin starts
it with two or more: seats drawn with the deal's random source, the first button R13.1's.
The host controls are for the server's admins (the front end checks who asks). Cancelled,
every buy-in comes back before the start; after it the pool left is shared by the chips of
the players left (:func:`dealerbot.tournament.cancel_split`), a refund row each.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, MutableMapping
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from dealerbot.engine import Variant
from dealerbot.store import hands as hands_db
from dealerbot.store import tables as tables_db
from dealerbot.store import tournament_play as play_db
from dealerbot.store import tournaments as tournaments_db
from dealerbot.store.tournaments import EntryStatus, TournamentRow, TournamentStatus
from dealerbot.tournament import (
    ClockError,
    LevelClock,
    Structure,
    TournamentError,
    TournamentSettings,
    draw_seats,
    games_of,
    level,
)

from . import errors
from . import events as out
from .abandon import cancel_tournament
from .errors import check_ids, check_user, sentence, store_errors_as_table_errors
from .limits import CHIPS, TURN_SECONDS
from .projection import level_text, ordinal, tournament_view
from .seating import check_name
from .settings import TableConfig
from .table import Deps, Table
from .tournament_table import TournamentTable
from .views import TournamentView

__all__ = ["DEFAULT_BUY_IN", "DEFAULT_STRUCTURE", "Tournaments"]

Key = tuple[int, int]
DEFAULT_BUY_IN = 100  # wallet chips, within limits.CHIPS
DEFAULT_STRUCTURE = Structure.REGULAR


class TableRef(Protocol):
    table: Table | None


Command = Callable[[int, int], AbstractAsyncContextManager[TableRef]]


def _refusal(error: TournamentError) -> errors.TournamentError:
    """The tournament core's refusal (an option out of range ...) as the player reads it."""
    return errors.TournamentError(sentence(str(error)))


class Tournaments:
    """``service.tournaments``: Sit & Gos by (guild id, channel id)."""

    def __init__(
        self,
        deps: Deps,
        command: Command,
        tables: MutableMapping[Key, Table],
        lock_of: Callable[[Key], asyncio.Lock],
    ) -> None:
        self._deps = deps
        self._command = command
        self._tables = tables  # the service's run-time tables, by channel
        self._lock_of = lock_of

    @property
    def _db(self) -> Any:
        return self._deps.db

    # --- the channel's table ------------------------------------------------------------

    async def take_over(self, table: Table) -> TournamentTable | None:
        """The channel's live tournament, if it has one, holds it now: its table replaces
        ``table`` (which waits, parked) and resumes its hand or its dealing. The service
        calls this as it loads a channel's table, under that table's lock."""
        row = await tournaments_db.live_in_channel(self._db, table.guild_id, table.channel_id)
        if row is None:
            return None
        tour = await self._install(row, table)
        record = await hands_db.current_hand(self._db, row.table_id)
        if record is not None and record.tournament_id == row.id:
            await tour.resume(record)
        else:
            tour.schedule_start()
        return tour

    async def _install(self, row: TournamentRow, parked: Table | None) -> TournamentTable:
        key = (row.guild_id, row.channel_id)
        record = await tables_db.get_table(self._db, row.table_id)
        entries = await tournaments_db.get_entries(self._db, row.id)
        tour = TournamentTable(self._deps, record, self._lock_of(key), row, entries, parked)
        self._tables[key] = tour

        def release(back: Table | None) -> None:
            if self._tables.get(key) is tour:
                if back is None:
                    del self._tables[key]
                else:
                    self._tables[key] = back
                    back.schedule_start()  # the cash table deals again

        tour.on_release = release
        return tour

    @staticmethod
    def refuse_cash_join(table: Table | None) -> None:
        """A cash seat cannot be taken while a Sit & Go holds the channel (it says why)."""
        if isinstance(table, TournamentTable):
            if table.row.status is TournamentStatus.REGISTERING:
                raise errors.TournamentError(
                    "A Sit & Go is registering in this channel: `/stud tournament join` enters "
                    "it; the cash table deals again when it ends."
                )
            raise errors.TournamentError(
                "A Sit & Go is being played in this channel: the cash table deals again when "
                "it ends."
            )

    @staticmethod
    def _held(table: Table | None) -> TournamentTable:
        if not isinstance(table, TournamentTable) or table.closed:
            raise errors.NoTournamentError()
        return table

    # --- the host ------------------------------------------------------------------------

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        by: int,
        *,
        game: str = Variant.STUD.value,
        structure: str | Structure = DEFAULT_STRUCTURE,
        buy_in: int = DEFAULT_BUY_IN,
        seats: int | None = None,
        starting_chips: int | None = None,
        level_minutes: int | None = None,
        turn_seconds: int | None = None,
    ) -> TournamentView:
        """A new Sit & Go in the channel, registering (its options checked: each one out of
        range refused by name); refused while the channel has one, or a cash hand is being
        played there."""
        check_ids(guild_id, channel_id)
        check_user(by)
        try:
            kind = structure if isinstance(structure, Structure) else Structure.parse(structure)
            rules = TournamentSettings.of(
                kind,
                buy_in,
                chips=CHIPS,
                turn_range=TURN_SECONDS,
                starting_chips=starting_chips,
                level_minutes=level_minutes,
                seats=seats,
                turn_seconds=turn_seconds,
                games=games_of(game),
            )
        except TournamentError as error:
            raise _refusal(error) from None
        async with self._command(guild_id, channel_id) as ref:
            table = ref.table
            if isinstance(table, TournamentTable) and not table.closed:
                raise errors.TournamentError(
                    f"This channel has a Sit & Go already (#{table.row.id}): one at a time."
                )
            if table is not None and table.hand is not None:
                raise errors.TournamentError(
                    "A cash hand is being played in this channel: a Sit & Go can be created "
                    "once it ends."
                )
            with store_errors_as_table_errors():
                record = await tables_db.open_table(self._db, guild_id, channel_id)
                row = await tournaments_db.create_tournament(
                    self._db,
                    guild_id,
                    channel_id,
                    record.id,
                    settings=rules.to_dict(),
                    seats=rules.seats,
                    buy_in=rules.buy_in,
                    starting_chips=rules.starting_chips,
                    created_by=by,
                )
            tour = ref.table = await self._install(row, table)
            tour.notice(
                out.TournamentNoticeKind.CREATED,
                f"Sit & Go #{row.id} is open: {rules.game_name}, {rules.seats} seats, buy-in "
                f"{rules.buy_in:,}, {rules.starting_chips:,} starting chips, "
                f"{rules.structure.value} ({rules.level_minutes} min levels).",
            )
            tour.touch()
            return tour.tournament_view()

    async def start(self, guild_id: int, channel_id: int) -> TournamentView:
        """An admin starts it with the players registered (two at least)."""
        async with self._command(guild_id, channel_id) as ref:
            tour = self._held(ref.table)
            self._registering(tour)
            if len(tour.entries) < 2:
                raise errors.TournamentError(
                    f"A Sit & Go needs two players or more to start ({len(tour.entries)} "
                    "registered)."
                )
            await self._start(tour)
            return tour.tournament_view()

    async def _start(self, tour: TournamentTable) -> None:
        """Seats drawn at random with the deal's source, the first button R13.1's, the
        starting chips, the level clock from now."""
        entrants = [e.user_id for e in sorted(tour.entries.values(), key=_registered)]
        draw = draw_seats(entrants, tour.rules.seats, self._deps.rng)
        now = self._deps.clock.now()
        clock = LevelClock.start(tour.rules.level_seconds, now)
        time_bank = TableConfig().time_bank_seconds  # a table's, as at a cash table
        with store_errors_as_table_errors():
            await tournaments_db.start_tournament(
                self._db,
                tour.row.id,
                draw.seat_of,
                button=draw.button,
                clock=clock.to_dict(now),
                time_bank_seconds=time_bank,
            )
        tour.level_clock = clock
        await tour.reload()
        first = level(1, tour.rules.games)
        seats = ", ".join(
            f"seat {s.seat_no + 1} {s.display_name}"
            for s in sorted(tour.seats.values(), key=lambda s: s.seat_no)
        )
        tour.notice(
            out.TournamentNoticeKind.STARTED,
            f"Sit & Go #{tour.row.id} starts: {len(entrants)} players, "
            f"{tour.rules.starting_chips:,} chips each ({seats}). "
            + level_text(tour.rules, first, clock, now),
        )
        tour.touch()
        tour.schedule_start()

    async def pause(self, guild_id: int, channel_id: int) -> TournamentView:
        """No new hand until it resumes; the level clock stands still from now (the hand
        being played finishes)."""
        async with self._command(guild_id, channel_id) as ref:
            tour = self._running(ref.table, TournamentStatus.RUNNING, "is paused already")
            await self._clock(tour, tour.level_clock.pause, TournamentStatus.PAUSED)
            tour.schedule_start()  # disarmed
            more = " The hand being played finishes." if tour.hand is not None else ""
            tour.notice(
                out.TournamentNoticeKind.PAUSED,
                "The host pauses the Sit & Go: the level clock stands still." + more,
            )
            return tour.tournament_view()

    async def resume(self, guild_id: int, channel_id: int) -> TournamentView:
        async with self._command(guild_id, channel_id) as ref:
            tour = self._running(ref.table, TournamentStatus.PAUSED, "is not paused")
            await self._clock(tour, tour.level_clock.resume, TournamentStatus.RUNNING)
            tour.schedule_start()
            tour.notice(out.TournamentNoticeKind.RESUMED, "The Sit & Go resumes.")
            return tour.tournament_view()

    async def level_up(self, guild_id: int, channel_id: int) -> TournamentView:
        """The next level now, with its whole time (from the next deal)."""
        return await self._move_level(guild_id, channel_id, up=True)

    async def level_down(self, guild_id: int, channel_id: int) -> TournamentView:
        """The previous level now, with its whole time (refused at level 1)."""
        return await self._move_level(guild_id, channel_id, up=False)

    async def _move_level(self, guild_id: int, channel_id: int, *, up: bool) -> TournamentView:
        async with self._command(guild_id, channel_id) as ref:
            tour = self._running(ref.table, None, "")
            move = tour.level_clock.level_up if up else tour.level_clock.level_down
            await self._clock(tour, move, None)
            now = self._deps.clock.now()
            line = level_text(tour.rules, tour.level_now(), tour.level_clock, now)
            moved = f"The host moves the level: {line}, from the next deal."
            tour.notice(out.TournamentNoticeKind.LEVEL, moved)
            return tour.tournament_view()

    async def _clock(
        self,
        tour: TournamentTable,
        change: Callable[[float], LevelClock],
        status: TournamentStatus | None,
    ) -> None:
        now = self._deps.clock.now()
        try:
            clock = change(now)
        except ClockError as error:
            raise _refusal(error) from None
        with store_errors_as_table_errors():
            tour.row = await play_db.save_clock(
                self._db, tour.row.id, clock.to_dict(now), status=status
            )
        tour.level_clock = clock
        tour.touch()

    async def cancel(
        self, guild_id: int, channel_id: int, reason: str = "cancelled by the host"
    ) -> TournamentView:
        """Call it off: before the start every buy-in comes back; after it the hand being
        played is called off (its chips back to their stacks) and the pool left is shared in
        proportion to the chips of the players left, announced, a refund row each."""
        async with self._command(guild_id, channel_id) as ref:
            tour = self._held(ref.table)
            await cancel_tournament(tour, reason)
            return tour.tournament_view()

    # --- the players ---------------------------------------------------------------------

    async def register(
        self, guild_id: int, channel_id: int, user_id: int, name: str
    ) -> TournamentView:
        """His buy-in from his wallet to the pool; when the seats are full it starts."""
        check_user(user_id)
        name = check_name(name, user_id)
        async with self._command(guild_id, channel_id) as ref:
            tour = self._held(ref.table)
            self._registering(tour)
            if user_id in tour.entries:
                raise errors.TournamentError("You are registered for this Sit & Go already.")
            if len(tour.entries) >= tour.rules.seats:
                raise errors.TournamentError(f"All {tour.rules.seats} seats are taken.")
            with store_errors_as_table_errors():
                entry = await tournaments_db.register(self._db, tour.row.id, user_id, name)
                tour.row = await tournaments_db.get_tournament(self._db, tour.row.id)
            tour.entries[user_id] = entry
            count = len(tour.entries)
            tour.notice(
                out.TournamentNoticeKind.REGISTERED,
                f"{entry.display_name} registers ({count} of {tour.rules.seats}).",
            )
            tour.touch()
            if count == tour.rules.seats:
                await self._start(tour)
            return tour.tournament_view()

    async def unregister(self, guild_id: int, channel_id: int, user_id: int) -> TournamentView:
        """Before the start only: his buy-in back to his wallet."""
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            tour = self._held(ref.table)
            if tour.row.status is not TournamentStatus.REGISTERING:
                raise errors.TournamentError(
                    "The Sit & Go has started: there is no leaving with chips; "
                    "`/stud tournament forfeit` ends your tournament in the place you hold."
                )
            if user_id not in tour.entries:
                raise errors.TournamentError("You are not registered for this Sit & Go.")
            with store_errors_as_table_errors():
                gone = await tournaments_db.unregister(self._db, tour.row.id, user_id)
                tour.row = await tournaments_db.get_tournament(self._db, tour.row.id)
            del tour.entries[user_id]
            tour.notice(
                out.TournamentNoticeKind.UNREGISTERED,
                f"{gone.display_name} unregisters: {gone.refund:,} chips back to the wallet.",
            )
            tour.touch()
            return tour.tournament_view()

    async def forfeit(self, guild_id: int, channel_id: int, user_id: int) -> TournamentView:
        """He leaves in the place he holds: now between hands, or when the hand he is dealt
        into ends (checked and folded for meanwhile). His chips stay in the pool's count as
        dead chips; only a prize his place pays reaches his wallet."""
        check_user(user_id)
        async with self._command(guild_id, channel_id) as ref:
            tour = self._held(ref.table)
            entry = tour.entries.get(user_id)
            if entry is None:
                raise errors.TournamentError("You are not registered for this Sit & Go.")
            if entry.place is not None:
                raise errors.TournamentError(
                    f"Your tournament is over: you finished {ordinal(entry.place)}."
                )
            if entry.status is EntryStatus.REGISTERED:
                raise errors.TournamentError(
                    "The Sit & Go has not started: `/stud tournament leave` gives your buy-in back."
                )
            live = tour.hand
            if live is not None and user_id in live.seat_by_user:
                if not entry.forfeit:
                    with store_errors_as_table_errors():
                        changed = await play_db.update_entry(
                            self._db, tour.row.id, user_id, forfeit=True
                        )
                    tour.entries[user_id] = changed
                    tour.remember(changed.seat_row(tour.id))
                    tour.notice(
                        out.TournamentNoticeKind.FORFEIT,
                        f"{entry.display_name} forfeits: out when this hand ends.",
                    )
                    if live.state.seat_to_act == live.seat_by_user[user_id]:
                        await tour.advance()
            else:
                with store_errors_as_table_errors():
                    await play_db.finish_players(
                        self._db, tour.row.id, tour.forfeit_places(user_id)
                    )
                await tour.after_places()
            return tour.tournament_view()

    # --- what anyone may see ---------------------------------------------------------------

    async def info(self, guild_id: int, channel_id: int) -> TournamentView:
        """The channel's Sit & Go: the live one, or the last one there."""
        check_ids(guild_id, channel_id)
        with store_errors_as_table_errors():
            row = await tournaments_db.latest_in_channel(self._db, guild_id, channel_id)
        return await self._view_of(row)

    async def results(self, guild_id: int, tournament_id: int) -> TournamentView:
        """A Sit & Go of this server by its number (``info``: the channel's last one)."""
        check_ids(guild_id)
        if not errors.is_int(tournament_id) or tournament_id < 1:
            raise errors.TournamentError("A Sit & Go's number is a whole number from 1.")
        with store_errors_as_table_errors():
            row = await tournaments_db.get_tournament(self._db, tournament_id)
        if row.guild_id != guild_id:
            raise errors.NoTournamentError(f"There is no Sit & Go #{tournament_id} here.")
        return await self._view_of(row)

    async def _view_of(self, row: TournamentRow | None) -> TournamentView:
        if row is None:
            raise errors.NoTournamentError()
        if row.status.live:  # its table's, under its lock (loaded there if need be)
            async with self._command(row.guild_id, row.channel_id) as ref:
                return self._held(ref.table).tournament_view()
        with store_errors_as_table_errors():
            entries = await tournaments_db.get_entries(self._db, row.id)
        rules = TournamentSettings.from_dict(row.settings)
        now = self._deps.clock.now()
        clock = (
            LevelClock.from_dict(row.clock, now)
            if row.clock is not None
            else LevelClock(rules.level_seconds)
        )
        return tournament_view(row, rules, entries, clock, now)

    async def lobby_message(self, tournament_id: int) -> int | None:
        """The id of the front end's lobby message, kept across restarts."""
        check_ids(tournament_id)
        with store_errors_as_table_errors():
            return (await tournaments_db.get_tournament(self._db, tournament_id)).message_id

    async def set_lobby_message(self, tournament_id: int, message_id: int | None) -> None:
        check_ids(tournament_id)
        with store_errors_as_table_errors():
            await play_db.set_message(self._db, tournament_id, message_id)

    # --- checks ----------------------------------------------------------------------------

    @staticmethod
    def _registering(tour: TournamentTable) -> None:
        if tour.row.status is not TournamentStatus.REGISTERING:
            raise errors.TournamentError("The Sit & Go has started already.")

    def _running(
        self, table: Table | None, wanted: TournamentStatus | None, otherwise: str
    ) -> TournamentTable:
        tour = self._held(table)
        status = tour.row.status
        if status is TournamentStatus.REGISTERING:
            raise errors.TournamentError("The Sit & Go has not started.")
        if wanted is not None and status is not wanted:
            raise errors.TournamentError(f"The Sit & Go {otherwise}.")
        return tour


def _registered(entry: Any) -> tuple[float, int]:
    return (entry.registered_at, entry.user_id)

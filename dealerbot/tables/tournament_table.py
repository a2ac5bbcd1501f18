"""A Sit & Go's table at run time: the channel's table while its tournament holds it.

A :class:`~.table.Table` whose seats are the players still in (their entries) and whose
hands run through the same hand loop with a :class:`TournamentBook`: tournament chips,
every player dealt in (one away is acted for at once), and each settlement writing the
places it decides, with their prizes, in its own transaction. Each deal plays the level the
clock says then (``LevelClock.deal``), to the hand's end. The channel's cash table is
parked meanwhile (its players may only leave) and deals again when the tournament ends.
Places are the tournament core's: a hand's busts by their stacks at its start, then its
forfeits (the place each holds), the last one left first; prizes by ``award``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from dealerbot.store import hands as hands_db
from dealerbot.store import tables as tables_db
from dealerbot.store import tournament_play as play_db
from dealerbot.store import tournaments as tournaments_db
from dealerbot.store.seats import SeatRow
from dealerbot.store.tables import TableStatus
from dealerbot.store.tournaments import (
    EntryRow,
    EntryStatus,
    Finished,
    TournamentRow,
    TournamentStatus,
)
from dealerbot.tournament import (
    Finish,
    Level,
    LevelClock,
    Stack,
    Standings,
    TournamentSettings,
    award,
    level,
    prize_table,
    seat_order,
)

from . import errors, hand_loop
from . import events as out
from .errors import store_errors_as_table_errors
from .hand_log import CashOuts, LiveHand
from .hand_loop import Step
from .projection import (
    TableSnapshot,
    finish_text,
    level_config,
    level_text,
    ordinal,
    results_text,
    tournament_view,
)
from .seating import LeaveOutcome
from .settings import TableConfig
from .table import Deps, Table
from .turns import RETRY_SECONDS
from .views import TableView, TournamentView

log = logging.getLogger(__name__)

WAITS = "A Sit & Go is being played in this channel: the cash table deals again when it ends."


@dataclass(slots=True)
class TournamentBook:
    """A tournament hand's :class:`~.hand_log.Book`: entries for seats, tournament chips,
    and the places its end decides."""

    table: TournamentTable
    tournament: tuple[int, int] | None  # (tournament id, the hand's level)
    deals_absent: ClassVar[bool] = True

    @property
    def table_id(self) -> int:
        return self.table.id

    async def update_seat(self, db: Any, user_id: int, **changes: Any) -> SeatRow:
        entry = await play_db.update_entry(db, self.table.row.id, user_id, **changes)
        return entry.seat_row(self.table.id)

    async def settle(
        self, db: Any, live: LiveHand, deltas: Mapping[int, int], result: Mapping[str, Any]
    ) -> CashOuts:
        finished = self.table.places_after(live, deltas)
        clock = self.table.level_clock.to_dict(self.table.deps.clock.now())
        await play_db.settle_hand(
            db, self.table.row.id, live.id, deltas, result, finished, clock=clock
        )
        return CashOuts((), ())

    async def cancel(
        self, db: Any, hand_id: int, reason: str, committed: Mapping[int, int]
    ) -> CashOuts:
        await hands_db.cancel_hand(db, hand_id, reason=reason, committed=dict(committed))
        return CashOuts((), ())


class TournamentTable(Table):
    """The channel's table while its Sit & Go is registering or being played."""

    def __init__(
        self,
        deps: Deps,
        record: tables_db.TableRow,
        lock: asyncio.Lock,
        row: TournamentRow,
        entries: Sequence[EntryRow],
        parked: Table | None,
    ) -> None:
        self.row = row
        self.rules = TournamentSettings.from_dict(row.settings)
        self.entries: dict[int, EntryRow] = {e.user_id: e for e in entries}
        now = deps.clock.now()
        self.level_clock = (
            LevelClock.from_dict(row.clock, now)
            if row.clock is not None
            else LevelClock(self.rules.level_seconds)  # stands still until the start
        )
        first = level(self.level_clock.level_at(now), self.rules.games)
        seated = [e.seat_row(record.id) for e in entries if self._seated(e)]
        super().__init__(deps, record, level_config(self.rules, first), seated, lock)
        # The first deal's button is R13.1's for a first hand (as the seat draw said it).
        self.button_seat = row.button_seat if self.level_clock.dealt is not None else None
        self.house.tournament = True  # no house player sits at a tournament
        self.book = TournamentBook(self, None)
        self.parked = parked  # the cash table: it deals again when the tournament ends
        # Set by the facet: puts the cash table back in the service's place for the channel.
        self.on_release: Callable[[Table | None], None] = lambda parked: None
        if parked is not None:  # parked: no timer, no deal, no house seat; its events go out here
            parked.stop_timers()
            parked.next_hand_at = None
            parked.status = TableStatus.CLOSING
            parked.outbox = self.outbox

    # --- what the table holds -------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.row.status is TournamentStatus.RUNNING

    def _seat_rows(self) -> list[SeatRow]:
        return [e.seat_row(self.id) for e in self.entries.values() if self._seated(e)]

    @staticmethod
    def _seated(entry: EntryRow) -> bool:
        return entry.seat_no is not None and entry.place is None

    def standings(self) -> Standings | None:
        """The field and its places so far (None before the start)."""
        if self.row.started_at is None:
            return None
        ordered = sorted(self.entries.values(), key=lambda e: (e.registered_at, e.user_id))
        finishes = tuple(
            Finish(e.user_id, e.place, e.shares or (e.place,))
            for e in sorted(ordered, key=lambda e: -(e.place or 0))
            if e.place is not None
        )
        return Standings(tuple(e.user_id for e in ordered), finishes)

    def level_now(self) -> Level:
        """The level the next deal plays."""
        return level(self.level_clock.level_at(self.deps.clock.now()), self.rules.games)

    def next_config(self) -> TableConfig:
        return level_config(self.rules, self.level_now())

    def prizes(self) -> tuple[int, ...]:
        """What each paid place pays: the whole pool's share (buy-ins: no fee, no rake)."""
        entrants = self.row.entrants or len(self.entries)
        return prize_table(entrants * self.rules.buy_in, entrants) if entrants >= 2 else ()

    def eligible(self) -> list[SeatRow]:
        """Every player still in with chips: absent or not, he is dealt in."""
        return sorted(
            (s for s in self.seats.values() if s.stack > 0), key=lambda seat: seat.seat_no
        )

    def snapshot(self) -> TableSnapshot:
        snap = super().snapshot()  # between hands: the next deal's stakes
        return snap if self.hand else dataclasses.replace(snap, config=self.next_config())

    def view(self) -> TableView:
        return dataclasses.replace(super().view(), tournament=self.tournament_view())

    def tournament_view(self) -> TournamentView:
        number = self.hand.record.number if self.hand is not None else None
        now = self.deps.clock.now()
        entries = list(self.entries.values())
        return tournament_view(self.row, self.rules, entries, self.level_clock, now, number)

    # --- the places a hand decides -------------------------------------------------------

    def places_after(self, live: LiveHand, deltas: Mapping[int, int]) -> list[Finished]:
        """The places decided by the hand ending with ``deltas``: its busts ranked by their
        stacks at its start, then each forfeit still holding chips (the place he holds), the
        winner when one is left; each with its prize."""
        standings = self.standings()
        assert standings is not None
        start = {s.user_id: s for s in live.record.seats}
        button = live.record.button_seat
        busts = [
            Stack(u, start[u].seat_no, start[u].stack)
            for u, d in deltas.items()
            if start[u].stack + d == 0
        ]
        before = len(standings.finishes)
        if busts:
            standings = standings.after_hand(busts, button)
        leaving = sorted(
            (u for u in start if self.entries[u].forfeit and start[u].stack + deltas.get(u, 0)),
            key=lambda u: seat_order(start[u].seat_no, button),
        )
        for user in leaving:
            if standings.over:
                break
            stack = Stack(user, start[user].seat_no, start[user].stack + deltas.get(user, 0))
            standings = standings.after_hand([stack], button)
        return self._paid(standings.finishes[before:], forfeits=set(leaving))

    def _paid(self, new: Sequence[Finish], forfeits: set[int]) -> list[Finished]:
        prizes = award(new, self.prizes())
        return [
            Finished(
                f.player,
                f.place,
                f.shares,
                prizes.get(f.player, 0),
                EntryStatus.PLAYING
                if f.place == 1
                else EntryStatus.FORFEITED
                if f.player in forfeits
                else EntryStatus.BUSTED,
            )
            for f in new
        ]

    def forfeit_places(self, user_id: int) -> list[Finished]:
        """Between hands: he leaves in the place he holds (and the last one left wins)."""
        entry, standings = self.entries[user_id], self.standings()
        assert standings is not None and entry.seat_no is not None
        button = self.button_seat if self.button_seat is not None else self.row.button_seat
        assert button is not None
        after = standings.after_hand([Stack(user_id, entry.seat_no, entry.stack)], button)
        return self._paid(after.finishes[len(standings.finishes) :], forfeits={user_id})

    # --- dealing ---------------------------------------------------------------------------

    def schedule_start(self) -> None:
        """Deal the next hand after the pause between hands, while it runs."""
        if not self.running or self.closed:
            self.start_timer.cancel()
            if self.next_hand_at is not None:
                self.next_hand_at = None
                self.touch()
            return
        super().schedule_start()

    async def _on_start_timer(self) -> None:
        async with self.locked():
            self.next_hand_at = None
            if self.closed or self.hand is not None or not self.running:
                return
            try:
                await self.start_hand()
            except Exception:
                log.exception("tournament %s: could not deal a hand", self.row.id)
                with contextlib.suppress(Exception):  # the entries out of step?
                    await self.reload()
                self.next_hand_at = self.deps.clock.now() + max(
                    RETRY_SECONDS, self.config.between_hands_seconds
                )
                self.start_timer.arm(self.next_hand_at, self._on_start_timer)

    async def start_hand(self) -> None:
        """Deal at the level the clock says now; the hand keeps it to its end."""
        if self.row.status is TournamentStatus.REGISTERING:
            raise errors.TournamentError(
                "The Sit & Go has not started: it starts when its seats are full, or when an "
                "admin starts it (`/stud-admin tournament start`)."
            )
        if not self.running:
            raise errors.TournamentError("The Sit & Go is paused: no hand until it resumes.")
        if self.hand is not None:
            raise errors.HandInProgressError("A hand is already being played.")
        seats = self.eligible()
        if len(seats) < 2:
            raise errors.NotEnoughPlayersError("The Sit & Go is over.")
        deps = self.deps
        now = deps.clock.now()
        clock, number = self.level_clock.deal(now)
        previous = self.level_clock.dealt
        lv = level(number, self.rules.games)
        config = level_config(self.rules, lv)
        self.book = TournamentBook(self, (self.row.id, number))
        step = Step(dict(self.seats))
        async with deps.db.transaction():
            ctx, rng, salts, button = self._ctx(), deps.rng, deps.salts, self.button_seat
            live = await hand_loop.deal(ctx, rng, salts, self.id, config, seats, button, step)
            self.row = await play_db.save_clock(deps.db, self.row.id, clock.to_dict(now))
        self.level_clock = clock
        self.config = config
        if previous is not None and previous != number:  # the first: announced at the start
            self.notice(out.TournamentNoticeKind.LEVEL, level_text(self.rules, lv, clock, now))
        self.button_seat = live.record.button_seat
        self.start_timer.cancel()
        self.next_hand_at = None
        self.hand = live
        self.last_actions.clear()
        self.hand_actions.clear()
        self.touch()
        self._take(step)
        await self.advance()

    def _cash_outs(self) -> TournamentBook:
        return self.book

    # --- after a hand, or places decided between hands ----------------------------------

    async def _after_cash_outs(self, done: CashOuts) -> None:
        await self.after_places()

    async def after_places(self) -> None:
        """Read the entries back, announce every place decided since, end the tournament
        when it is over, else deal on."""
        before = dict(self.entries)
        await self.reload()
        new = [
            e
            for e in self.entries.values()
            if e.place is not None and getattr(before.get(e.user_id), "place", None) is None
        ]
        for entry in sorted(new, key=lambda e: -(e.place or 0)):
            assert entry.place is not None
            self.emit(
                out.PlayerFinished(
                    self.guild_id,
                    self.channel_id,
                    self.row.id,
                    entry.user_id,
                    entry.display_name,
                    entry.place,
                    entry.shares,
                    entry.prize,
                    entry.status is EntryStatus.FORFEITED,
                    finish_text(entry),
                )
            )
        self.touch()
        if self.row.status is TournamentStatus.FINISHED:
            self.notice(out.TournamentNoticeKind.FINISHED, results_text(self.row, self.entries))
            self.release_channel()
            return
        self.schedule_start()

    async def reload(self) -> None:
        """The tournament and its entries from the database (the truth after a write)."""
        db = self.deps.db
        self.row = await tournaments_db.get_tournament(db, self.row.id)
        self.entries = {e.user_id: e for e in await tournaments_db.get_entries(db, self.row.id)}
        self.seats = {s.user_id: s for s in self._seat_rows()}
        if self.hand is None:
            self.config = self.next_config()

    async def _resync(self) -> None:
        self.turn_timer.cancel()
        self.hand = None
        await self.reload()
        self.touch()
        record = await hands_db.current_hand(self.deps.db, self.id)
        if record is not None and record.tournament_id == self.row.id:
            await self.resume(record)
        else:
            self.schedule_start()

    def notice(self, kind: out.TournamentNoticeKind, text: str) -> None:
        self.emit(out.TournamentNotice(self.guild_id, self.channel_id, self.row.id, kind, text))

    def release_channel(self) -> Table | None:
        """The tournament is over: its timers stop and the channel's cash table deals again
        (the service's next command loads one if none was parked)."""
        self.stop_timers()
        self.closed = True  # this run-time table is done; the rows stay
        self.next_hand_at = None
        parked = self.parked
        if parked is not None:
            parked.status = TableStatus.OPEN
        self.on_release(parked)
        return parked

    # --- the cash table's commands, while it waits -------------------------------------

    def seat_of(self, user_id: int) -> SeatRow:
        seat = self.seats.get(user_id)
        if seat is not None:
            return seat
        if self.parked is not None and user_id in self.parked.seats:
            raise errors.TableError(WAITS)
        entry = self.entries.get(user_id)
        if entry is not None and entry.place is not None:
            raise errors.NotSeatedError(
                f"Your tournament is over: you finished {ordinal(entry.place)}."
            )
        raise errors.NotSeatedError("You are not playing the Sit & Go in this channel.")

    async def leave(self, user_id: int) -> LeaveOutcome:
        """A player of the Sit & Go cannot leave with chips; one seated at the waiting cash
        table leaves it as ever (cashed out)."""
        if user_id in self.entries and self.entries[user_id].place is None:
            raise errors.TournamentError(
                "There is no leaving a Sit & Go with chips: `/stud tournament forfeit` ends "
                "your tournament in the place you hold (you are dealt in while away)."
            )
        parked = self.parked
        if parked is None or user_id not in parked.seats:
            raise errors.NotSeatedError("You are not seated at this table.")
        return await parked.leave(user_id)  # no hand there: cashed out now

    async def set_sitting_out(self, user_id: int, sitting_out: bool) -> SeatRow:
        """Sitting out of a Sit & Go: still dealt in, acted for at once (checks or folds)."""
        seat = self.seat_of(user_id)
        changes: dict[str, Any] = {"sitting_out": sitting_out}
        if not sitting_out:
            changes["consecutive_timeouts"] = 0
        if seat.sitting_out == sitting_out and (sitting_out or not seat.consecutive_timeouts):
            return seat
        with store_errors_as_table_errors():
            entry = await play_db.update_entry(self.deps.db, self.row.id, user_id, **changes)
        self.entries[user_id] = entry
        seat = entry.seat_row(self.id)
        self.remember(seat)
        ids = (self.guild_id, self.channel_id, user_id, seat.display_name, seat.seat_no)
        self.emit(
            out.PlayerSatOut(*ids, out.SitOutReason.ASKED) if sitting_out else out.PlayerSatIn(*ids)
        )
        live = self.hand
        if sitting_out and live and live.state.seat_to_act == live.seat_by_user.get(user_id):
            await self.advance()  # his turn now: acted for at once
        return seat

    async def add_chips(self, user_id: int, amount: int) -> SeatRow:
        self.seat_of(user_id)  # a cash player hears that his table waits
        raise errors.TournamentError(
            "Tournament chips cannot be bought: every player starts with the same stack."
        )

    async def reconfigure(self, new: TableConfig) -> None:
        """The cash table's settings, for when it deals again."""
        if self.parked is not None:
            await self.parked.reconfigure(new)  # parked: no deal, no house seat meanwhile

    async def choose_game(self, user_id: int, game: str, pick_id: object = None) -> None:
        raise errors.TournamentError("A Sit & Go's game changes with its levels, not by choice.")

    async def close(self) -> bool:
        raise errors.TournamentError(
            "A Sit & Go holds this table: `/stud-admin tournament cancel` calls it off first."
        )

    async def rebalance_house(self) -> None:
        self.schedule_start()  # no house player at a tournament

"""One table at run time: seats, life cycle, timers, its views and its event outbox.

Every method that changes something runs with the table's lock held (commands; timer
callbacks take it); events queue in the :class:`Outbox` meanwhile and go out, in order, after.
The hand loop: :mod:`.hand_loop` (who may press what: ``click_refusal``); hand writes:
:mod:`.hand_log`; the clock's rules: :mod:`.turns`; views: :mod:`.projection`; replay and
resume: :mod:`.recovery`; top-ups: :mod:`.topups`; mixed games: :mod:`.rotation`. This class
applies their results to memory and queues the events."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractContextManager, asynccontextmanager
from dataclasses import InitVar, dataclass, field
from functools import partial
from typing import Any

from dealerbot.engine import ActionKind
from dealerbot.fairness import SaltSource
from dealerbot.store import errors as store_errors
from dealerbot.store import hands as hands_db
from dealerbot.store import seats as seats_db
from dealerbot.store import tables as tables_db
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord
from dealerbot.store.seats import CashOut, SeatRow
from dealerbot.store.tables import TableStatus

from . import errors, hand_loop, house_seats, narration, projection, recovery, stats
from . import events as out
from .errors import store_errors_as_table_errors
from .events import Outbox, Publish
from .hand_log import Book, CashOutPlan, CashOuts, Ended, LiveHand
from .hand_loop import Ctx, Step
from .house_seats import HouseDeps, HouseSeats, HouseStyle, is_house_user
from .narration import LAST_ACTIONS
from .projection import TableSnapshot
from .rotation import TableGames
from .seating import LeaveOutcome, can_deal, check_top_up, dealt_in, eligible
from .settings import TableConfig
from .timers import Clock, TaskTracker, Timer
from .topups import TopUps
from .turns import RETRY_SECONDS
from .views import PlayerView, TableView

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Deps:
    """What every run-time table shares with the service: database, clock, randomness,
    tasks and the subscribers' sink."""

    db: Database
    clock: Clock
    rng: random.Random
    tracker: TaskTracker
    publish: Publish
    salts: SaltSource = secrets.token_bytes  # the deck's per-position salts (docs/fairness.md)
    house_style: InitVar[HouseStyle | None] = None  # how house players play (None: default)
    house: HouseDeps = field(init=False)  # their style, and a seed from ``rng`` (not a draw)
    # The table's writes commit only under its lease (Ownership.fenced); none: not fenced.
    fence: Callable[[int], AbstractContextManager[None]] = lambda _: contextlib.nullcontext()

    def __post_init__(self, house_style: HouseStyle | None) -> None:
        self.house = HouseDeps.of(house_style, self.rng)


class Table:
    """One table: its seats and hand in memory, timers, views and outbox."""

    def __init__(
        self,
        deps: Deps,
        record: tables_db.TableRow,
        config: TableConfig,
        seats: Iterable[SeatRow],
        lock: asyncio.Lock,
    ) -> None:
        self.deps = deps
        self.id = record.id
        self.guild_id = record.guild_id
        self.channel_id = record.channel_id
        self.status = record.status
        self.button_seat = record.button_seat
        self.config = config
        self.seats: dict[int, SeatRow] = {seat.user_id: seat for seat in seats}
        self.hand: LiveHand | None = None
        self.lock = lock
        self.closed = False
        self.next_hand_at: float | None = None
        self.last_actions: deque[str] = deque(maxlen=LAST_ACTIONS)
        self.hand_actions: list[out.ActionTaken] = []  # every action of the hand, in order
        self.turn_timer = Timer(deps.clock, deps.tracker, f"turn-timer:{self.id}")
        self.start_timer = Timer(deps.clock, deps.tracker, f"start-timer:{self.id}")
        self.house_timer = Timer(deps.clock, deps.tracker, f"house-turn:{self.id}")
        self.house = HouseSeats()  # promised seats; ``house.tournament``: no house seat
        self.outbox = Outbox(deps.publish)
        self.top_ups = TopUps(self.emit, self.guild_id, self.channel_id)
        self.games = TableGames()  # mixed games: the rotation, dealer's choice (R15.1)

    # --- events (see :class:`Outbox`) and views --------------------------------------
    def emit(self, event: out.TableEvent) -> None:
        if is_house_user(event.private_to):  # a house player's own cards: nobody to show
            return
        self.outbox.emit(event)

    def touch(self) -> None:
        """Something visible changed: a TableChanged goes out at the end of this step."""
        self.outbox.dirty = True

    def changed(self) -> out.TableChanged:
        ids = (self.guild_id, self.channel_id)
        return out.TableChanged(*ids, self.view(), tuple(self.hand_actions))

    @asynccontextmanager
    async def locked(self) -> AsyncIterator[None]:
        """Hold the lock for one step (a timer's) under the table's lease fence, then
        deliver what the step produced."""
        with self.deps.fence(self.channel_id):
            async with self.outbox.step(self.lock, self.changed):
                yield

    def snapshot(self) -> TableSnapshot:
        """The values the views are built from (so :mod:`.projection` never sees a Table)."""
        return TableSnapshot(
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            table_id=self.id,
            config=self.config,
            status=self.status,
            closed=self.closed,
            button_seat=self.button_seat,
            seats=tuple(self.seats.values()),
            hand=self.hand,
            next_hand_at=self.next_hand_at,
            last_actions=tuple(self.last_actions),
            queued=self.top_ups.queued,
            games=self.games.view(self.config),
        )

    def view(self) -> TableView:
        """The public view: only up cards, never a face-down one."""
        return projection.table_view(self.snapshot())

    def player_view(self, user_id: int) -> PlayerView:
        """His own view: the public one plus his cards and, on his turn, his options."""
        return projection.player_view(self.snapshot(), self.seat_of(user_id))

    # --- seats -----------------------------------------------------------------

    def seat_of(self, user_id: int) -> SeatRow:
        seat = self.seats.get(user_id)
        if seat is None:
            raise errors.NotSeatedError()
        return seat

    def eligible(self) -> list[SeatRow]:
        return eligible(self.seats.values())  # who a hand starting now would deal in

    def remember(self, seat: SeatRow) -> None:
        self.seats[seat.user_id] = seat
        self.touch()

    def _ctx(self) -> Ctx:
        return Ctx(self.deps.db, self.deps.clock, self.guild_id, self.channel_id, self._cash_outs())

    def _cash_outs(self) -> Book:  # a cash table's: its leavers, and everyone if closing
        leavers = tuple(s.user_id for s in self.seats.values() if s.leave_after_hand)
        return CashOutPlan(self.id, leavers, self.status is TableStatus.CLOSING)

    # --- starting hands ----------------------------------------------------------

    def schedule_start(self) -> None:
        """Arm the between-hands timer if a hand could start, disarm it if not."""
        if self.closed or self.status is not TableStatus.OPEN or self.hand is not None:
            return
        if not can_deal(self.eligible()):
            if self.next_hand_at is not None:
                self.start_timer.cancel()
                self.next_hand_at = None
                self.touch()
            return
        if self.next_hand_at is not None:
            return
        self.next_hand_at = self.deps.clock.now() + self.config.between_hands_seconds
        self.start_timer.arm(self.next_hand_at, self._on_start_timer)
        self.touch()

    async def _on_start_timer(self) -> None:
        async with self.locked():
            self.next_hand_at = None
            if self.closed or self.hand is not None or self.status is not TableStatus.OPEN:
                return
            if not can_deal(self.eligible()):
                self.touch()
                return
            try:
                await self.start_hand()
            except Exception:
                log.exception("table %s: could not start a hand", self.id)
                with contextlib.suppress(Exception):  # seats out of step with the database?
                    seats = await seats_db.get_seats(self.deps.db, self.id)
                    self.seats = {seat.user_id: seat for seat in seats}
                self.next_hand_at = self.deps.clock.now() + max(
                    RETRY_SECONDS, self.config.between_hands_seconds
                )
                self.start_timer.arm(self.next_hand_at, self._on_start_timer)

    async def start_hand(self) -> None:
        """Shuffle, commit, log the hand, deal 3rd street and open the betting."""
        seats = dealt_in(
            self.closed or self.status is not TableStatus.OPEN, self.hand, self.seats.values()
        )
        deps = self.deps
        await self.games.load(deps.db, self.id)
        when = (self.button_seat, deps.clock.now())
        choice = await self.games.before_deal(deps.db, self.id, self.config, seats, *when)
        if choice is not None:  # dealer's choice: deal once picked or when time runs out
            self.next_hand_at = choice.deadline
            self.start_timer.arm(choice.deadline, self._on_start_timer)
            self.touch()
            return
        game = self.games.next_game(self.config)  # this hand's game
        config = self.config.replace(variant=game.game)
        step = Step(dict(self.seats))
        async with deps.db.transaction():
            ctx, rng, salts, button = self._ctx(), deps.rng, deps.salts, self.button_seat
            live = await hand_loop.deal(ctx, rng, salts, self.id, config, seats, button, step)
            await self.games.dealt(deps.db, self.id, config, game.rotation)
        self.button_seat = live.record.button_seat
        self.start_timer.cancel()
        self.next_hand_at = None
        self.hand = live
        self.last_actions.clear()
        self.hand_actions.clear()
        self.touch()
        self._take(step)
        await self.advance()

    # --- the hand loop (see :mod:`.hand_loop`) -----------------------------------------

    async def advance(self) -> None:
        """After any change: settle, act for absent players, or open the next turn."""
        await self._step(hand_loop.advance)

    async def act(self, user_id: int, hand_id: object, seq: object, kind: ActionKind) -> None:
        """A player's own action, if :func:`~.hand_loop.click_refusal` lets him press the
        button of (``hand_id``, ``seq``) on the table as it is now."""
        refused = hand_loop.click_refusal(self.view(), user_id, hand_id=hand_id, seq=seq)
        if refused is not None:
            raise refused
        await self._step(partial(hand_loop.act, user_id=user_id, kind=kind))

    async def _step(self, run: Callable[[Ctx, LiveHand, Step], Awaitable[None]]) -> None:
        """Run one step of the hand loop and apply what it did (also when it failed)."""
        live = self.hand
        if live is None:
            return
        step = Step(dict(self.seats))
        try:
            await run(self._ctx(), live, step)
        except (store_errors.StaleAction, store_errors.HandNotInProgress):
            # The log moved on without us (it should never happen): the log is the truth.
            self._take(step)
            log.error("table %s hand %s: memory behind the hand log; resyncing", self.id, live.id)
            await self._resync()
            raise errors.StaleActionError("That action was already taken.") from None
        except BaseException:
            self._take(step)
            raise
        self._take(step)
        if step.ended is not None:
            await self._after_settle(step.ended)

    def _take(self, step: Step) -> None:
        self.seats = step.seats
        for event in step.events:
            self.emit(event)
            if isinstance(event, out.ActionTaken):
                self.hand_actions.append(event)
        self.last_actions.extend(step.action_lines)
        if step.acted:
            self.turn_timer.cancel()
        if step.turn is not None:
            hand_id, seq, deadline = step.turn
            if not house_seats.arm_turn(self, hand_id, seq):  # a house player thinks instead
                self.turn_timer.arm(deadline, partial(self._on_turn_timer, hand_id, seq))
        if step.events or step.acted:
            self.touch()

    async def _on_turn_timer(self, hand_id: int, seq: int) -> None:
        async with self.locked():
            live = self.hand
            if self.closed or live is None or live.id != hand_id or live.seq != seq:
                return
            now = self.deps.clock.now()
            if live.deadline is not None and now < live.deadline:
                self.turn_timer.arm(live.deadline, partial(self._on_turn_timer, hand_id, seq))
                return
            try:
                await self._step(partial(hand_loop.expire, table_id=self.id, now=now))
            except Exception:
                log.exception("table %s hand %s: turn timer failed", self.id, hand_id)
                if self.hand is live and live.seq == seq:
                    self.turn_timer.arm(
                        now + RETRY_SECONDS, partial(self._on_turn_timer, hand_id, seq)
                    )

    def stop_timers(self) -> None:
        """Stop every timer of this table (closed, or the service stops or lost it): a step
        still in flight arms none again."""
        for timer in (self.turn_timer, self.start_timer, self.house_timer):
            timer.stop()

    # --- house players (see :mod:`.house_seats`) ----------------------------------------

    async def rebalance_house(self) -> None:
        """Between hands: house players sit or leave (:func:`.house_seats.rebalance_table`)."""
        await house_seats.rebalance_table(self)

    # --- the end of a hand ------------------------------------------------------------

    async def _after_settle(self, ended: Ended) -> None:
        self.hand = None
        self.turn_timer.cancel()
        self.house_timer.cancel()
        ids = (self.guild_id, self.channel_id)
        story = (tuple(self.last_actions), tuple(self.hand_actions))
        self.emit(narration.hand_ended(*ids, ended, *story))
        await stats.fold_now_and_then(self.deps.db, ended.record.number)
        await self._after_cash_outs(ended.cashed)

    async def _after_cash_outs(self, done: CashOuts) -> None:
        names = {seat.user_id: seat.display_name for seat in self.seats.values()}
        closing = self.status is TableStatus.CLOSING
        cashed = done.leavers + (done.closing if closing else ())
        for cash in cashed:
            self._left(cash, names.get(cash.user_id, str(cash.user_id)))
        if closing:
            await self.top_ups.drop(self.deps.db, self.id)
            self._mark_closed(cashed)
            return
        seats = await seats_db.get_seats(self.deps.db, self.id)
        self.seats = {seat.user_id: seat for seat in seats}
        self.seats.update(await self.top_ups.apply(self.deps.db, self.id, self.config, seats))
        self.touch()
        await self.rebalance_house()  # schedules the next deal

    def _left(self, cash: CashOut, name: str) -> None:
        ids = (self.guild_id, self.channel_id)
        self.emit(out.PlayerLeft(*ids, cash.user_id, name, cash.seat_no, cash.amount))

    def _mark_closed(self, cashed: Sequence[CashOut]) -> None:
        self.closed = True
        self.status = TableStatus.CLOSED
        self.seats = {}
        self.hand = None
        self.next_hand_at = None
        self.stop_timers()
        self.emit(
            out.TableClosed(
                self.guild_id, self.channel_id, tuple((c.user_id, c.amount) for c in cashed)
            )
        )
        self.touch()

    # --- recovery --------------------------------------------------------------------

    async def _resync(self) -> None:
        """Forget the hand in memory and rebuild it (and the seats) from the database."""
        self.turn_timer.cancel()
        self.hand = None
        db = self.deps.db
        self.seats = {seat.user_id: seat for seat in await seats_db.get_seats(db, self.id)}
        self.touch()
        record = await hands_db.current_hand(db, self.id)
        if record is not None:
            await self.resume(record)
        else:
            self.schedule_start()

    async def resume(self, record: HandRecord) -> None:
        """Rebuild the hand in progress from its log; cancel and refund it if that fails."""
        plan = await recovery.restore(
            self.deps.db, record, self.guild_id, self.channel_id, self._cash_outs()
        )
        if isinstance(plan, Ended):
            self.hand_actions.clear()  # refunded: no action of it stands
            await self._after_settle(plan)
            return
        self.hand = plan.hand
        self.button_seat = record.button_seat
        self.last_actions.clear()
        self.last_actions.extend(plan.action_lines)
        self.hand_actions[:] = plan.actions  # told as a hand that never restarted
        self.touch()
        await self.advance()

    # --- commands (lock held by the caller) ---------------------------------------------

    async def leave(self, user_id: int) -> LeaveOutcome:
        seat = self.seat_of(user_id)
        db = self.deps.db
        live = self.hand
        if live is not None and user_id in live.seat_by_user:
            dropped = 0  # once leaving, nothing more can be queued
            if not seat.leave_after_hand:
                with store_errors_as_table_errors():
                    self.remember(
                        await seats_db.update_seat(db, self.id, user_id, leave_after_hand=True)
                    )
                dropped = await self.top_ups.forget(db, self.id, user_id)  # before the hand ends
                if live.state.seat_to_act == live.seat_by_user[user_id]:
                    await self.advance()
            return LeaveOutcome(False, 0, dropped)
        with store_errors_as_table_errors():
            cash = await seats_db.stand_up(db, self.id, user_id)
        del self.seats[user_id]
        self._left(cash, seat.display_name)
        self.touch()
        dropped = await self.top_ups.forget(db, self.id, user_id)
        await self.rebalance_house()  # schedules the next deal
        return LeaveOutcome(True, cash.amount, dropped)

    async def set_sitting_out(self, user_id: int, sitting_out: bool) -> SeatRow:
        seat = self.seat_of(user_id)
        changes: dict[str, Any] = {"sitting_out": sitting_out}
        if not sitting_out:
            changes["consecutive_timeouts"] = 0
        if seat.sitting_out == sitting_out and (sitting_out or not seat.consecutive_timeouts):
            return seat
        with store_errors_as_table_errors():
            seat = await seats_db.update_seat(self.deps.db, self.id, user_id, **changes)
        self.remember(seat)
        ids = (self.guild_id, self.channel_id, user_id, seat.display_name, seat.seat_no)
        self.emit(
            out.PlayerSatOut(*ids, out.SitOutReason.ASKED) if sitting_out else out.PlayerSatIn(*ids)
        )
        self.schedule_start()
        return seat

    async def add_chips(self, user_id: int, amount: int) -> SeatRow:
        seat = self.seat_of(user_id)
        if seat.leave_after_hand:  # he will not be at the next deal either
            raise errors.TableError("You leave when this hand ends: no chips can be added.")
        if self.status is not TableStatus.OPEN:  # no next deal to move them before
            raise errors.TableClosingError(
                "This table closes after this hand: no chips can be added."
            )
        if self.hand is not None:  # queued, moved before the next deal; shown on his seat
            seat = await self.top_ups.queue(self.deps.db, self.guild_id, self.config, seat, amount)
            self.touch()
            return seat
        check_top_up(self.config, seat.stack, amount)
        with store_errors_as_table_errors():
            seat = await seats_db.add_chips(self.deps.db, self.id, user_id, amount)
        self.remember(seat)
        self.schedule_start()
        return seat

    async def reconfigure(self, new: TableConfig) -> None:
        """New settings, from the next hand on (a new game or list restarts the rotation)."""
        await self.games.settings_changed(self.deps.db, self.id, self.config, new)
        self.config = new
        self.touch()
        await self.rebalance_house()

    async def choose_game(self, user_id: int, game: str, pick_id: object = None) -> None:
        """The button player's dealer's-choice pick (of pick ``pick_id``; None: the one
        waiting): the hand is dealt at once."""
        self.seat_of(user_id)  # one who left the table picks nothing
        await self.games.choose(self.deps.db, self.id, self.config, user_id, game, pick_id)
        self.next_hand_at = self.deps.clock.now()
        self.start_timer.arm(self.next_hand_at, self._on_start_timer)
        self.touch()

    async def close(self) -> bool:
        """Close now (True) or, with a hand running, once it ends (False)."""
        if self.hand is not None:
            if self.status is not TableStatus.CLOSING:
                await tables_db.set_table_status(self.deps.db, self.id, TableStatus.CLOSING)
                self.status = TableStatus.CLOSING
                self.start_timer.cancel()
                self.next_hand_at = None
                self.touch()
            return False
        cashed = await seats_db.close_table(self.deps.db, self.id)
        self.status = TableStatus.CLOSING
        await self._after_cash_outs(CashOuts((), tuple(cashed)))
        return True

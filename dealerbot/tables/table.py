"""One table at run time: its seats, the hand in progress, its timers, and the hand loop.

Every method that changes something is called with the table's lock held (the
service's commands, or the timer callbacks here, which take it themselves). The
order within a step is always: ask the engine (pure), write the database in one
transaction, then change memory and queue events. If the write fails, memory is
untouched and the step can be retried. Seat stacks change only at settlement, so a
crash in the middle of a hand loses nothing: recovery replays the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from dealerbot.engine import errors as engine_errors
from dealerbot.engine.cards import deck_commitment, shuffled_deck
from dealerbot.engine.events import Action, ActionKind
from dealerbot.engine.state import HandState, SeatSpec, apply, legal_actions, option_for
from dealerbot.engine.state import start_hand as engine_start_hand
from dealerbot.store import errors as store_errors
from dealerbot.store import hands as hands_db
from dealerbot.store import tables as tables_db
from dealerbot.store.config import TableConfig
from dealerbot.store.hands import HandRecord, HandSeat
from dealerbot.store.tables import CashOut, Seat, TableStatus

from . import errors, viewing
from . import events as out
from .live import BankUse, Deps, LeaveOutcome, LiveHand, auto_kind, next_button
from .recovery import Replay, replay_hand, result_json
from .refusals import store_errors_as_table_errors
from .timers import Timer
from .translate import Player, Translation, translate
from .views import OptionView, PlayerView, TableView

log = logging.getLogger(__name__)

LAST_ACTIONS = 8
RETRY_SECONDS = 5.0  # a timer callback that failed (database trouble) tries again after this


class Table:
    def __init__(
        self,
        deps: Deps,
        record: tables_db.TableRow,
        config: TableConfig,
        seats: Iterable[Seat],
        lock: asyncio.Lock,
    ) -> None:
        self.deps = deps
        self.id = record.id
        self.guild_id = record.guild_id
        self.channel_id = record.channel_id
        self.status = record.status
        self.button_seat = record.button_seat
        self.config = config
        self.seats: dict[int, Seat] = {seat.user_id: seat for seat in seats}
        self.hand: LiveHand | None = None
        self.lock = lock
        self.closed = False
        self.next_hand_at: float | None = None
        self.last_actions: deque[str] = deque(maxlen=LAST_ACTIONS)
        self.turn_timer = Timer(deps.clock, deps.tracker, f"turn-timer:{self.id}")
        self.start_timer = Timer(deps.clock, deps.tracker, f"start-timer:{self.id}")
        self._outbox: list[out.TableEvent] = []
        self._publish_lock = asyncio.Lock()
        self._dirty = False

    # --- events ----------------------------------------------------------------

    def emit(self, event: out.TableEvent) -> None:
        self._outbox.append(event)

    def touch(self) -> None:
        """Something visible changed: a TableChanged goes out at the end of this step."""
        self._dirty = True

    def seal(self) -> None:
        """End of a step (lock still held): queue the new public view if anything changed."""
        if self._dirty:
            self._dirty = False
            self._outbox.append(out.TableChanged(self.guild_id, self.channel_id, self.view()))

    async def flush(self) -> None:
        """Deliver queued events in order (call after releasing the lock)."""
        async with self._publish_lock:
            while self._outbox:
                batch, self._outbox = self._outbox, []
                await self.deps.publish(batch)

    @asynccontextmanager
    async def locked(self) -> AsyncIterator[None]:
        """Hold the lock for one step, then deliver what the step produced."""
        try:
            async with self.lock:
                try:
                    yield
                finally:
                    self.seal()
        finally:
            await self.flush()

    def _emit_translation(self, translation: Translation) -> None:
        for event in translation.events:
            self.emit(event)
        self.last_actions.extend(translation.actions)

    # --- seats -----------------------------------------------------------------

    def seat_of(self, user_id: int) -> Seat:
        seat = self.seats.get(user_id)
        if seat is None:
            raise errors.NotSeatedError()
        return seat

    def in_hand(self, user_id: int) -> bool:
        return self.hand is not None and user_id in self.hand.seat_by_user

    def eligible(self) -> list[Seat]:
        """Seats that would be dealt into a hand starting now."""
        return sorted(
            (
                seat
                for seat in self.seats.values()
                if not seat.sitting_out and not seat.leave_after_hand and seat.stack > 0
            ),
            key=lambda seat: seat.seat_no,
        )

    def _auto_reason(self, live: LiveHand, seat_no: int) -> str | None:
        seat = self.seats.get(live.players[seat_no].user_id)
        if seat is None or seat.leave_after_hand:
            return "leaving"
        if seat.sitting_out and seat.consecutive_timeouts >= 2:
            return "away"
        return None

    def remember(self, seat: Seat) -> None:
        self.seats[seat.user_id] = seat
        self.touch()

    # --- starting hands ----------------------------------------------------------

    def schedule_start(self) -> None:
        """Arm the between-hands timer if a hand could start, disarm it if not."""
        if self.closed or self.status is not TableStatus.OPEN or self.hand is not None:
            return
        if len(self.eligible()) < 2:
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
            if len(self.eligible()) < 2:
                self.touch()
                return
            try:
                await self.start_hand()
            except Exception:
                log.exception("table %s: could not start a hand", self.id)
                with contextlib.suppress(Exception):  # seats out of step with the database?
                    seats = await tables_db.get_seats(self.deps.db, self.id)
                    self.seats = {seat.user_id: seat for seat in seats}
                self.next_hand_at = self.deps.clock.now() + max(
                    RETRY_SECONDS, self.config.between_hands_seconds
                )
                self.start_timer.arm(self.next_hand_at, self._on_start_timer)

    async def start_hand(self) -> None:
        """Shuffle, commit, log the hand, deal 3rd street and open the betting."""
        if self.closed or self.status is not TableStatus.OPEN:
            raise errors.TableClosingError()
        if self.hand is not None:
            raise errors.HandInProgressError("A hand is already being played.")
        seats = self.eligible()
        if len(seats) < 2:
            raise errors.NotEnoughPlayersError()
        config = self.config
        rng = self.deps.rng
        deck = shuffled_deck(rng)
        salt = rng.randbytes(16)
        commitment = deck_commitment(deck, salt)
        button = next_button(self.button_seat, [seat.seat_no for seat in seats])
        state, engine_events = engine_start_hand(
            config.variant,
            config.stakes,
            [SeatSpec(seat.seat_no, seat.stack) for seat in seats],
            deck,
            button,
        )
        deadline = self._turn_deadline(config, state)
        record = await hands_db.start_hand(
            self.deps.db,
            self.id,
            config=config,
            seats=[
                HandSeat(seat.seat_no, seat.user_id, seat.display_name, seat.stack)
                for seat in seats
            ],
            deck=deck,
            salt=salt,
            commitment=commitment,
            button_seat=button,
            action_deadline=deadline,
        )
        self.button_seat = button
        self.start_timer.cancel()
        self.next_hand_at = None
        players = {seat.seat_no: Player(seat.user_id, seat.display_name) for seat in seats}
        live = LiveHand(record, state, players, 0, deadline)
        self.hand = live
        self.last_actions.clear()
        self.touch()
        self.emit(
            out.HandStarted(
                self.guild_id,
                self.channel_id,
                record.id,
                record.number,
                commitment,
                button,
                tuple(
                    out.SeatedPlayer(seat.seat_no, seat.user_id, seat.display_name, seat.stack)
                    for seat in seats
                ),
            )
        )
        self._emit_translation(
            translate(self.guild_id, self.channel_id, record.id, players, engine_events, state)
        )
        await self.advance()

    def _turn_deadline(self, config: TableConfig, state: HandState) -> float | None:
        if state.seat_to_act is None:
            return None
        return self.deps.clock.now() + config.turn_seconds

    # --- the hand loop -----------------------------------------------------------

    async def advance(self) -> None:
        """After any change: settle a finished hand, act for away or leaving players,
        or open the turn of the player to act."""
        while (live := self.hand) is not None:
            state = live.state
            if state.is_over:
                await self._settle()
                return
            seat = state.seat_to_act
            assert seat is not None
            reason = self._auto_reason(live, seat)
            if reason is None:
                await self._open_turn(live)
                return
            await self._apply(seat, auto_kind(state), auto=reason)

    async def _open_turn(self, live: LiveHand) -> None:
        state = live.state
        seat_no = state.seat_to_act
        assert seat_no is not None
        if live.deadline is None:
            live.deadline = self.deps.clock.now() + live.config.turn_seconds
            await hands_db.set_action_deadline(self.deps.db, live.id, live.deadline)
        legal = legal_actions(state)
        player = live.players[seat_no]
        seat = self.seats.get(player.user_id)
        self.emit(
            out.Turn(
                self.guild_id,
                self.channel_id,
                live.id,
                live.seq,
                seat_no,
                player.user_id,
                player.name,
                tuple(OptionView.of(option) for option in legal.options),
                legal.to_call,
                live.deadline,
                seat.time_bank_seconds if seat is not None else 0.0,
                state.street,
            )
        )
        self.touch()
        self.turn_timer.arm(live.deadline, partial(self._on_turn_timer, live.id, live.seq))

    async def _apply(
        self,
        seat_no: int,
        kind: ActionKind,
        *,
        auto: str | None = None,
        extra: Callable[[], Awaitable[list[Seat]]] | None = None,
        before: Sequence[out.TableEvent] = (),
    ) -> None:
        """Apply one action: engine, then one transaction (log append, seat changes, and the
        settlement when it ends the hand), then memory and events."""
        live = self.hand
        assert live is not None
        new_state, engine_events = apply(live.state, Action(seat_no, kind))
        seq = live.seq
        deadline = self._turn_deadline(live.config, new_state)
        text = kind.value if auto is None else f"{kind.value}:{auto}"
        db = self.deps.db
        changed: list[Seat] = []
        released: tuple[list[CashOut], list[CashOut]] | None = None
        try:
            if extra is None and not new_state.is_over:  # the append alone is atomic
                await hands_db.append_action(
                    db, live.id, seq, seat_no, text, action_deadline=deadline
                )
            else:
                async with db.transaction():
                    await hands_db.append_action(
                        db, live.id, seq, seat_no, text, action_deadline=deadline
                    )
                    if extra is not None:
                        changed = await extra()
                    if new_state.is_over:
                        released = await self._settle_writes(live, new_state)
        except (store_errors.StaleAction, store_errors.HandNotInProgress):
            # The log moved on without us (it should never happen): the log is the truth.
            log.error("table %s hand %s: memory behind the hand log; resyncing", self.id, live.id)
            await self._resync()
            raise errors.StaleActionError("That action was already taken.") from None
        self.turn_timer.cancel()
        live.state, live.seq, live.deadline, live.bank = new_state, seq + 1, deadline, None
        for seat in changed:
            self.seats[seat.user_id] = seat
        for event in before:
            self.emit(event)
        translation = translate(
            self.guild_id,
            self.channel_id,
            live.id,
            live.players,
            engine_events,
            new_state,
            seq,
            auto,
        )
        self._emit_translation(translation)
        self.touch()
        if released is not None:
            await self._after_settle(
                live.record, live.players, new_state, translation.cancelled_reason, *released
            )

    async def act(self, user_id: int, hand_id: int, seq: int, kind: ActionKind) -> None:
        """A player's own action, checked against the hand and number he was offered."""
        seat = self.seat_of(user_id)
        live = self.hand
        if live is None or live.id != hand_id:
            raise errors.StaleActionError()
        seat_no = live.seat_by_user.get(user_id)
        if seat_no is None:
            raise errors.NotInHandError()
        if live.state.seat_to_act != seat_no:
            raise errors.NotYourTurnError()
        if seq != live.seq:
            raise errors.StaleActionError("That button is out of date; use the newest one.")
        try:
            option_for(live.state, kind)
        except engine_errors.ActionError:
            choices = ", ".join(o.label for o in legal_actions(live.state).options)
            action = kind.value.replace("_", " ")
            raise errors.IllegalMoveError(
                f"You cannot {action} now. Your choices: {choices}."
            ) from None
        bank = live.bank
        updates: dict[str, Any] = {}
        if seat.consecutive_timeouts:
            updates["consecutive_timeouts"] = 0
        if bank is not None and bank.seq == seq:
            used = max(0.0, self.deps.clock.now() - bank.started_at)
            updates["time_bank_seconds"] = max(0.0, bank.amount - used)

        async def reset_seat() -> list[Seat]:
            return [await tables_db.update_seat(self.deps.db, self.id, user_id, **updates)]

        await self._apply(seat_no, kind, extra=reset_seat if updates else None)
        await self.advance()

    # --- timers ------------------------------------------------------------------

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
                await self._expire_turn(live, now)
            except Exception:
                log.exception("table %s hand %s: turn timer failed", self.id, hand_id)
                if self.hand is live and live.seq == seq:
                    self.turn_timer.arm(
                        now + RETRY_SECONDS, partial(self._on_turn_timer, hand_id, seq)
                    )

    async def _expire_turn(self, live: LiveHand, now: float) -> None:
        """Time is up: start the time bank if there is one, else check or fold for him."""
        state = live.state
        seat_no = state.seat_to_act
        assert seat_no is not None
        player = live.players[seat_no]
        seat = self.seats.get(player.user_id)
        db = self.deps.db
        if seat is not None and live.bank is None and seat.time_bank_seconds > 0:
            deadline = now + seat.time_bank_seconds
            async with db.transaction():
                await hands_db.set_action_deadline(db, live.id, deadline)
                changed = await tables_db.update_seat(
                    db, self.id, player.user_id, time_bank_seconds=0
                )
            live.deadline = deadline
            live.bank = BankUse(live.seq, now, seat.time_bank_seconds)
            self.remember(changed)
            self.emit(
                out.TimeBankStarted(
                    self.guild_id,
                    self.channel_id,
                    live.id,
                    live.seq,
                    seat_no,
                    player.user_id,
                    deadline,
                )
            )
            self.turn_timer.arm(deadline, partial(self._on_turn_timer, live.id, live.seq))
            return
        kind = auto_kind(state)
        timeouts = (seat.consecutive_timeouts if seat is not None else 0) + 1
        sat_out = timeouts >= 2
        before: list[out.TableEvent] = [
            out.PlayerTimedOut(
                self.guild_id,
                self.channel_id,
                live.id,
                seat_no,
                player.user_id,
                player.name,
                kind,
                sat_out,
            )
        ]
        if sat_out and seat is not None and not seat.sitting_out:
            before.append(
                out.PlayerSatOut(
                    self.guild_id, self.channel_id, player.user_id, player.name, seat_no, "timeouts"
                )
            )

        async def count_timeout() -> list[Seat]:
            if seat is None:
                return []
            return [
                await tables_db.update_seat(
                    db,
                    self.id,
                    player.user_id,
                    consecutive_timeouts=timeouts,
                    sitting_out=True if sat_out else None,
                )
            ]

        await self._apply(seat_no, kind, auto="timeout", extra=count_timeout, before=before)
        await self.advance()

    # --- settlement ----------------------------------------------------------------

    async def _settle(self) -> None:
        """Settle a hand that is already over in memory (recovery, or a hand run out at once)."""
        live = self.hand
        assert live is not None and live.state.result is not None
        async with self.deps.db.transaction():
            released = await self._settle_writes(live, live.state)
        reason = "the hand was cancelled" if live.state.result.cancelled else None
        await self._after_settle(live.record, live.players, live.state, reason, *released)

    async def _settle_writes(
        self, live: LiveHand, state: HandState
    ) -> tuple[list[CashOut], list[CashOut]]:
        """Inside the caller's transaction: stacks and ledger, then leavers, then closing."""
        result = state.result
        assert result is not None
        db = self.deps.db
        if result.cancelled:
            committed = {
                live.players[seat].user_id: chips
                for seat, chips in zip(state.labels, state.committed, strict=True)
            }
            await hands_db.cancel_hand(db, live.id, reason="the deck ran out", committed=committed)
        else:
            deltas = {
                live.players[seat].user_id: result.final_stacks[seat] - start
                for seat, start in zip(state.labels, state.start_stacks, strict=True)
            }
            await hands_db.settle_hand(db, live.id, deltas, result_json(state, live.players))
        return await self._release_writes()

    async def _release_writes(self) -> tuple[list[CashOut], list[CashOut]]:
        db = self.deps.db
        leavers = [
            await tables_db.stand_up(db, self.id, seat.user_id)
            for seat in self.seats.values()
            if seat.leave_after_hand
        ]
        closing: list[CashOut] = []
        if self.status is TableStatus.CLOSING:
            closing = await tables_db.close_table(db, self.id)
        return leavers, closing

    async def _after_settle(
        self,
        record: HandRecord,
        players: dict[int, Player],
        state: HandState | None,
        cancelled: str | None,
        leavers: list[CashOut],
        closing: list[CashOut],
    ) -> None:
        self.hand = None
        self.turn_timer.cancel()
        if state is not None and state.result is not None and not state.result.cancelled:
            finals = state.result.final_stacks
            results = tuple(
                (players[seat].user_id, finals[seat] - start)
                for seat, start in zip(state.labels, state.start_stacks, strict=True)
            )
            stacks = tuple(sorted(finals.items()))
        else:
            results = tuple((p.user_id, 0) for p in players.values())
            stacks = tuple((s.seat_no, s.stack) for s in record.seats)
        self.emit(
            out.HandEnded(
                self.guild_id,
                self.channel_id,
                record.id,
                record.number,
                results,
                stacks,
                cancelled is not None,
                cancelled,
            )
        )
        await self._after_release(leavers, closing)

    async def _after_release(self, leavers: list[CashOut], closing: list[CashOut]) -> None:
        names = {seat.user_id: seat.display_name for seat in self.seats.values()}
        for cash in leavers:
            self.emit(
                out.PlayerLeft(
                    self.guild_id,
                    self.channel_id,
                    cash.user_id,
                    names.get(cash.user_id, str(cash.user_id)),
                    cash.seat_no,
                    cash.amount,
                )
            )
        if self.status is TableStatus.CLOSING:
            for cash in closing:
                self.emit(
                    out.PlayerLeft(
                        self.guild_id,
                        self.channel_id,
                        cash.user_id,
                        names.get(cash.user_id, str(cash.user_id)),
                        cash.seat_no,
                        cash.amount,
                    )
                )
            self._mark_closed(leavers + closing)
            return
        self.seats = {
            seat.user_id: seat for seat in await tables_db.get_seats(self.deps.db, self.id)
        }
        self.touch()
        self.schedule_start()

    def _mark_closed(self, cashed: Sequence[CashOut]) -> None:
        self.closed = True
        self.status = TableStatus.CLOSED
        self.seats = {}
        self.hand = None
        self.next_hand_at = None
        self.turn_timer.cancel()
        self.start_timer.cancel()
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
        self.seats = {seat.user_id: seat for seat in await tables_db.get_seats(db, self.id)}
        self.touch()
        record = await hands_db.current_hand(db, self.id)
        if record is not None:
            await self.resume(record)
        else:
            self.schedule_start()

    async def resume(self, record: HandRecord) -> None:
        """Rebuild the hand in progress from its log; cancel and refund it if that fails."""
        db = self.deps.db
        players = {s.seat_no: Player(s.user_id, s.display_name) for s in record.seats}
        try:
            secret = await hands_db.load_hand_for_recovery(db, record.id)
        except Exception as error:  # a log the store itself cannot read back
            antes = {s.user_id: min(record.config.ante, s.stack) for s in record.seats}
            rebuilt = Replay(None, f"the log cannot be read: {error}", antes)
            actions = 0
        else:
            rebuilt = replay_hand(secret, self.guild_id, self.channel_id, players)
            actions = len(secret.actions)
        if rebuilt.state is None or rebuilt.error is not None:
            log.warning(
                "table %s hand %s cannot be replayed: %s", self.id, record.id, rebuilt.error
            )
            reason = f"the hand could not be restored ({rebuilt.error}); every chip goes back"
            async with db.transaction():
                await hands_db.cancel_hand(
                    db, record.id, reason=reason, committed=rebuilt.committed
                )
                released = await self._release_writes()
            await self._after_settle(record, players, None, reason, *released)
            return
        live = LiveHand(record, rebuilt.state, players, actions, record.action_deadline)
        self.hand = live
        self.button_seat = record.button_seat
        self.last_actions.clear()
        self.last_actions.extend(rebuilt.texts)
        self.touch()
        await self.advance()

    # --- commands (lock held by the caller) ---------------------------------------------

    async def leave(self, user_id: int) -> LeaveOutcome:
        seat = self.seat_of(user_id)
        db = self.deps.db
        live = self.hand
        if live is not None and user_id in live.seat_by_user:
            if not seat.leave_after_hand:
                with store_errors_as_table_errors():
                    self.remember(
                        await tables_db.update_seat(db, self.id, user_id, leave_after_hand=True)
                    )
                if live.state.seat_to_act == live.seat_by_user[user_id]:
                    await self.advance()
            return LeaveOutcome(False, 0)
        with store_errors_as_table_errors():
            cash = await tables_db.stand_up(db, self.id, user_id)
        del self.seats[user_id]
        self.emit(
            out.PlayerLeft(
                self.guild_id,
                self.channel_id,
                user_id,
                seat.display_name,
                seat.seat_no,
                cash.amount,
            )
        )
        self.touch()
        self.schedule_start()
        return LeaveOutcome(True, cash.amount)

    async def set_sitting_out(self, user_id: int, sitting_out: bool) -> Seat:
        seat = self.seat_of(user_id)
        changes: dict[str, Any] = {"sitting_out": sitting_out}
        if not sitting_out:
            changes["consecutive_timeouts"] = 0
        if seat.sitting_out == sitting_out and (sitting_out or not seat.consecutive_timeouts):
            return seat
        with store_errors_as_table_errors():
            seat = await tables_db.update_seat(self.deps.db, self.id, user_id, **changes)
        self.remember(seat)
        if sitting_out:
            event: out.TableEvent = out.PlayerSatOut(
                self.guild_id, self.channel_id, user_id, seat.display_name, seat.seat_no, "asked"
            )
        else:
            event = out.PlayerSatIn(
                self.guild_id, self.channel_id, user_id, seat.display_name, seat.seat_no
            )
        self.emit(event)
        self.schedule_start()
        return seat

    async def add_chips(self, user_id: int, amount: int) -> Seat:
        self.seat_of(user_id)
        if self.hand is not None:
            raise errors.HandInProgressError("You can add chips only between hands.")
        with store_errors_as_table_errors():
            seat = await tables_db.add_chips(self.deps.db, self.id, user_id, amount)
        self.remember(seat)
        self.schedule_start()
        return seat

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
        cashed = await tables_db.close_table(self.deps.db, self.id)
        self.status = TableStatus.CLOSING
        await self._after_release([], cashed)
        return True

    def view(self) -> TableView:
        """The public view: only up cards, never a face-down one."""
        return viewing.table_view(self)

    def player_view(self, user_id: int) -> PlayerView:
        """His own view: the public one plus his cards and, on his turn, his options."""
        return viewing.player_view_of(self, user_id)

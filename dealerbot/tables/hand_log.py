"""The hand in memory (:class:`LiveHand`) and its three writes to the hand log: start,
apply one action, settle (or cancel), and who is cashed out when it ends.

Where the hand's seats and chips are kept is its :class:`Book`: a cash table's seats and
stacks (:class:`CashOutPlan`: its leavers cashed out when the hand ends), or a tournament's
entries (``tables/tournament_table.py``: tournament chips, the places a hand decides).

Each write is one transaction and returns a named result; nothing here touches the
run-time table. The order is always: ask the engine (pure), write, return. If the write
fails, the caller's memory is untouched and the step can be retried. Seat stacks change
only at settlement, so a crash in the middle of a hand loses nothing: recovery replays
the log.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from dealerbot.engine import (
    Action,
    ActionKind,
    HandState,
    PlayNotes,
    SeatSpec,
    apply,
    next_button,
    note_events,
    shuffled_deck,
)
from dealerbot.engine import events as ev
from dealerbot.engine import start_hand as engine_start_hand
from dealerbot.fairness import SaltSource, salt_deck
from dealerbot.store import hand_actions as actions_db
from dealerbot.store import hands as hands_db
from dealerbot.store import seats as seats_db
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord, HandSeat
from dealerbot.store.seats import CashOut, SeatRow
from dealerbot.store.stats import PlayerHandRow

from . import events as out
from . import stats
from .events import AutoReason
from .settings import TableConfig
from .turns import BankUse, turn_deadline


@dataclass(frozen=True, slots=True)
class Player:
    user_id: int
    name: str


@dataclass(slots=True)
class LiveHand:
    record: HandRecord
    state: HandState
    players: dict[int, Player]  # seat -> who sits there, for this hand
    seq: int  # actions logged so far = the number the next action must carry
    deadline: float | None
    bank: BankUse | None = None
    seat_by_user: dict[int, int] = field(default_factory=dict)
    showdown: out.Showdown | None = None  # once the hand has reached it
    play: PlayNotes = field(default_factory=PlayNotes)  # 3rd-street choices, for stats
    public_actions: list[ev.ActionTaken] = field(default_factory=list)  # engine events
    config: TableConfig = field(init=False)  # the settings it was dealt with

    def __post_init__(self) -> None:
        self.seat_by_user = {p.user_id: seat for seat, p in self.players.items()}
        self.config = TableConfig.from_row(self.record.config)

    @property
    def id(self) -> int:
        return self.record.id

    def note_actions(self, events: Sequence[ev.Event]) -> None:
        """Keep the public actions among ``events`` (what a house player decides from)."""
        self.public_actions.extend(e for e in events if isinstance(e, ev.ActionTaken))


class Book(Protocol):
    """Where a hand's seats are kept and what its end writes, inside the hand's own
    transactions: a seat's flags, the settlement, a cancellation."""

    @property
    def table_id(self) -> int: ...

    @property
    def deals_absent(self) -> bool:
        """A player away is dealt in and acted for at once (a tournament's), not after his
        timeouts (a cash table deals him out instead)."""

    @property
    def tournament(self) -> tuple[int, int] | None:
        """(tournament id, level) for a tournament's hand; None at a cash table."""

    async def update_seat(self, db: Database, user_id: int, **changes: Any) -> SeatRow: ...

    async def settle(
        self, db: Database, live: LiveHand, deltas: Mapping[int, int], result: Mapping[str, Any]
    ) -> CashOuts: ...

    async def cancel(
        self, db: Database, hand_id: int, reason: str, committed: Mapping[int, int]
    ) -> CashOuts: ...


@dataclass(frozen=True, slots=True)
class CashOutPlan:
    """A cash table's :class:`Book`: who is cashed out if the hand ends now, seats marked to
    leave and everyone if the table is closing (what :class:`CashOuts` then records)."""

    table_id: int
    leavers: tuple[int, ...]  # user ids
    closing: bool
    deals_absent: ClassVar[bool] = False
    tournament: ClassVar[tuple[int, int] | None] = None

    async def update_seat(self, db: Database, user_id: int, **changes: Any) -> SeatRow:
        return await seats_db.update_seat(db, self.table_id, user_id, **changes)

    async def settle(
        self, db: Database, live: LiveHand, deltas: Mapping[int, int], result: Mapping[str, Any]
    ) -> CashOuts:
        await hands_db.settle_hand(db, live.id, deltas, result)
        return await _cash_out_writes(db, self)

    async def cancel(
        self, db: Database, hand_id: int, reason: str, committed: Mapping[int, int]
    ) -> CashOuts:
        await hands_db.cancel_hand(db, hand_id, reason=reason, committed=dict(committed))
        return await _cash_out_writes(db, self)


@dataclass(frozen=True, slots=True)
class CashOuts:
    """The cash-outs written when a hand ended: the leavers', then every seat's if closing."""

    leavers: tuple[CashOut, ...]
    closing: tuple[CashOut, ...]


@dataclass(frozen=True, slots=True)
class Ended:
    """The hand is over and settled (or cancelled and refunded)."""

    record: HandRecord
    players: Mapping[int, Player]
    state: HandState | None
    cancelled: str | None  # why, when it was cancelled
    cashed: CashOuts
    showdown: out.Showdown | None = None


@dataclass(frozen=True, slots=True)
class SeatChange:
    """Seat columns written with an action (keyword arguments of ``update_seat``)."""

    user_id: int
    changes: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Started:
    hand: LiveHand
    events: tuple[ev.Event, ...]


@dataclass(frozen=True, slots=True)
class Applied:
    """One action written: the new state, its engine events, the seat rows written with it,
    and, when the action ended the hand, who was cashed out by its settlement."""

    state: HandState
    events: tuple[ev.Event, ...]
    deadline: float | None
    seats: tuple[SeatRow, ...]
    cashed: CashOuts | None
    play: PlayNotes = field(default_factory=PlayNotes)


async def start(
    db: Database,
    rng: random.Random,
    salts: SaltSource,
    table_id: int,
    config: TableConfig,
    seats: Sequence[SeatRow],
    previous_button: int | None,
    now: float,
    tournament: tuple[int, int] | None = None,
) -> Started:
    """Shuffle, salt every position and commit (dealerbot-merkle-v1), pick the button
    (R13.1), deal 3rd street and log the hand (``tournament``: its id and level)."""
    salted = salt_deck(shuffled_deck(rng), salts)
    deck = salted.cards
    button = next_button(previous_button, [seat.seat_no for seat in seats])
    state, engine_events = engine_start_hand(
        config.variant,
        config.stakes,
        [SeatSpec(seat.seat_no, seat.stack) for seat in seats],
        deck,
        button,
    )
    deadline = turn_deadline(now, config, state)
    record = await hands_db.start_hand(
        db,
        table_id,
        config=config.to_row(),
        seats=[
            HandSeat(seat.seat_no, seat.user_id, seat.display_name, seat.stack) for seat in seats
        ],
        deck=deck,
        salts=salted.salts,
        commitment=salted.commitment(),
        button_seat=button,
        action_deadline=deadline,
        tournament=tournament,
    )
    players = {seat.seat_no: Player(seat.user_id, seat.display_name) for seat in seats}
    live = LiveHand(record, state, players, 0, deadline)
    live.play = note_events(live.play, engine_events)
    live.note_actions(engine_events)
    return Started(live, tuple(engine_events))


async def apply_action(
    db: Database,
    live: LiveHand,
    seat_no: int,
    kind: ActionKind,
    *,
    now: float,
    auto: AutoReason | None,
    changes: Sequence[SeatChange],
    plan: Book,
) -> Applied:
    """Engine, then one transaction: log append, seat changes, and the settlement when
    the action ends the hand. Raises the store's StaleAction if the log moved on."""
    new_state, engine_events = apply(live.state, Action(seat_no, kind))
    play = note_events(live.play, engine_events)
    rows = _stats_rows(live, new_state, play)  # pure: worked out before the transaction
    deadline = turn_deadline(now, live.config, new_state)
    written: list[SeatRow] = []
    cashed: CashOuts | None = None
    if not changes and not new_state.is_over:  # the append alone is atomic
        await _append(db, live, seat_no, kind, auto, deadline)
    else:
        async with db.transaction():
            await _append(db, live, seat_no, kind, auto, deadline)
            for change in changes:
                written.append(await plan.update_seat(db, change.user_id, **change.changes))
            if new_state.is_over:
                cashed = await _settle_writes(db, live, new_state, plan, rows)
    return Applied(new_state, tuple(engine_events), deadline, tuple(written), cashed, play)


async def _append(
    db: Database,
    live: LiveHand,
    seat_no: int,
    kind: ActionKind,
    auto: AutoReason | None,
    deadline: float | None,
) -> None:
    """Log the action (its kind, and why the service took it as its own field)."""
    await actions_db.append_action(
        db,
        live.id,
        live.seq,
        seat_no,
        kind.value,
        action_deadline=deadline,
        reason=None if auto is None else auto.value,
    )


async def settle(db: Database, live: LiveHand, plan: Book) -> CashOuts:
    """Settle a hand already over in memory (recovery, or a hand run out at once)."""
    rows = _stats_rows(live, live.state, live.play)
    async with db.transaction():
        return await _settle_writes(db, live, live.state, plan, rows)


async def cancel(
    db: Database, hand_id: int, reason: str, committed: Mapping[int, int], plan: Book
) -> CashOuts:
    """Cancel a hand that cannot go on: every committed chip goes back (recovery)."""
    async with db.transaction():
        return await plan.cancel(db, hand_id, reason, committed)


def _stats_rows(live: LiveHand, state: HandState, play: PlayNotes) -> list[PlayerHandRow]:
    """The players' stats rows once the hand is over (none before, none if cancelled)."""
    if not state.is_over:
        return []
    users = {seat: player.user_id for seat, player in live.players.items()}
    return stats.player_rows(state, play, users)


async def _settle_writes(
    db: Database,
    live: LiveHand,
    state: HandState,
    plan: Book,
    rows: Sequence[PlayerHandRow],
) -> CashOuts:
    """Inside the caller's transaction: stats rows, then the book's settlement (a cash
    table's stacks and ledger rows, then leavers, then closing)."""
    result = state.result
    assert result is not None
    if result.cancelled:
        committed = {
            live.players[seat].user_id: chips
            for seat, chips in zip(state.labels, state.committed, strict=True)
        }
        return await plan.cancel(db, live.id, "the deck ran out", committed)
    deltas = {
        live.players[seat].user_id: result.final_stacks[seat] - start
        for seat, start in zip(state.labels, state.start_stacks, strict=True)
    }
    tournament = live.record.tournament_id is not None
    await stats.write(db, live.id, live.record.table_id, state.variant, rows, tournament=tournament)
    return await plan.settle(db, live, deltas, result_json(state, live.players))


async def _cash_out_writes(db: Database, plan: CashOutPlan) -> CashOuts:
    leavers = [await seats_db.stand_up(db, plan.table_id, user) for user in plan.leavers]
    closing: list[CashOut] = []
    if plan.closing:
        closing = await seats_db.close_table(db, plan.table_id)
    return CashOuts(tuple(leavers), tuple(closing))


def result_json(state: HandState, players: Mapping[int, Player]) -> dict[str, Any]:
    """What the hand log keeps of a finished hand (seat labels as strings: JSON keys)."""
    result = state.result
    assert result is not None
    return {
        "players": {str(seat): players[seat].user_id for seat in state.labels},
        "start_stacks": {
            str(seat): stack for seat, stack in zip(state.labels, state.start_stacks, strict=True)
        },
        "final_stacks": {str(seat): stack for seat, stack in result.final_stacks.items()},
        "payouts": {str(seat): chips for seat, chips in result.payouts.items()},
        "returned": {str(seat): chips for seat, chips in result.returned.items()},
        "showdown_order": list(result.showdown_order),
        "pots": [
            {**pot.to_json(), "shares": [list(share) for share in pot.shares]}
            for pot in result.pots
        ],
        "community": str(state.community) if state.community is not None else None,
        "cancelled": result.cancelled,
    }

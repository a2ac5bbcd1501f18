"""The hand loop: who may press an action button now, act for absent players, open turns,
take actions, run out the clock.

:func:`click_refusal` is the one rule (and wording) for "may this member press this action
button now": the table asks it before a player's action, and a front end may ask it first
from the view it holds, to answer a stale click without waiting for the table's lock. Each
other function takes values (the database and clock in :class:`Ctx`, the live hand, the seat
rows) and records what happened in a :class:`Step`: the events to send, the public action
lines, the seat rows written, whether to arm the turn timer, and, when the hand ended, how
(:class:`Ended`). The run-time table owns the memory and applies the step; nothing here
calls back into it. The live hand itself is advanced in place only after each write.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealerbot.engine import ActionError, ActionKind, HandState, legal_actions, option_for
from dealerbot.engine import events as ev
from dealerbot.fairness import SaltSource
from dealerbot.store import hand_actions as actions_db
from dealerbot.store.db import Database
from dealerbot.store.seats import SeatRow

from . import errors, hand_log
from . import events as out
from .errors import is_int
from .events import AutoReason
from .hand_log import Book, Ended, LiveHand, SeatChange
from .narration import narrate
from .settings import TableConfig
from .timers import Clock
from .turns import StartBank, auto_kind, auto_reason, bank_left, on_expiry
from .views import OptionView, TableView


def _plain_command(path: str) -> str:
    return f"`/{path}`"


def click_refusal(
    view: TableView,
    user_id: int,
    *,
    hand_id: object,
    seq: object,
    table_id: int | None = None,
    name_text: Callable[[str], str] = str,
    command_text: Callable[[str], str] = _plain_command,
) -> errors.TableError | None:
    """Why ``user_id`` may not press the action button of (``hand_id``, ``seq``) on the table
    ``view`` shows, in words, or None when he may. ``table_id``: the table the button belongs
    to, when the front end knows it. ``name_text`` and ``command_text`` mark a player's name
    and a command up for the front end (default: as is, and ```/stud join```)."""
    seat = view.seat_of(user_id)
    if seat is None:
        return errors.NotSeatedError(
            f"You are not seated at this table: press **Join…** (or use "
            f"{command_text('stud join')}) to play from the next hand."
        )
    old = table_id is not None and table_id != view.table_id
    if old or not is_int(hand_id) or hand_id != view.hand_id:
        return errors.StaleActionError(
            "That button is from an old hand: that hand is over; the current table is further down."
        )
    if not is_int(seq) or seq != view.seq:
        return errors.StaleActionError("That button is out of date; use the newest one.")
    if user_id == view.to_act_user:
        return None
    if not seat.in_hand:
        return errors.NotInHandError(
            "You are not in this hand; you are dealt in from the next one."
        )
    waiting = next((s.name for s in view.seats if s.to_act), "another player")
    return errors.OutOfTurnError(f"It is not your turn; {name_text(waiting)} is to act.")


@dataclass(frozen=True, slots=True)
class Ctx:
    db: Database
    clock: Clock
    guild_id: int
    channel_id: int
    book: Book  # the hand's seats: a cash table's (its leavers) or a tournament's


@dataclass(slots=True)
class Step:
    """What one command or timer did to the hand, for the table to apply."""

    seats: dict[int, SeatRow]  # every seat row as of now, by user id (rows written replace)
    events: list[out.TableEvent] = field(default_factory=list)
    action_lines: list[str] = field(default_factory=list)  # the public "last actions"
    acted: bool = False  # an action was written: the running turn timer is stale
    turn: tuple[int, int, float] | None = None  # (hand id, seq, deadline) to arm
    ended: Ended | None = None


async def deal(
    ctx: Ctx,
    rng: random.Random,
    salts: SaltSource,
    table_id: int,
    config: TableConfig,
    seats: Sequence[SeatRow],
    button: int | None,
    step: Step,
) -> LiveHand:
    """Start a hand (:func:`hand_log.start`): its HandStarted and 3rd street go into ``step``."""
    now, tournament = ctx.clock.now(), ctx.book.tournament
    started = await hand_log.start(
        ctx.db, rng, salts, table_id, config, seats, button, now, tournament
    )
    live = started.hand
    record = live.record
    step.events.append(
        out.HandStarted(
            ctx.guild_id,
            ctx.channel_id,
            record.id,
            record.number,
            record.commitment,
            record.button_seat,
            tuple(
                out.SeatedPlayer(seat.seat_no, seat.user_id, seat.display_name, seat.stack)
                for seat in seats
            ),
            live.config.variant,
        )
    )
    _narrated(ctx, live, step, started.events, live.state)
    return live


def _narrated(
    ctx: Ctx,
    live: LiveHand,
    step: Step,
    events: Sequence[ev.Event],
    state: HandState,
    seq: int | None = None,
    auto: AutoReason | None = None,
) -> str | None:
    """Engine events into the step's events and action lines; the cancel reason, if any."""
    told = narrate(ctx.guild_id, ctx.channel_id, live.id, live.players, events, state, seq, auto)
    step.events.extend(told.events)
    step.action_lines.extend(told.action_lines)
    if told.showdown is not None:
        live.showdown = told.showdown
    return told.cancelled_reason


async def advance(ctx: Ctx, live: LiveHand, step: Step) -> None:
    """After any change: settle a finished hand, act for away or leaving players,
    or open the turn of the player to act."""
    while step.ended is None:
        state = live.state
        if state.is_over:
            cashed = await hand_log.settle(ctx.db, live, ctx.book)
            assert state.result is not None
            reason = "the hand was cancelled" if state.result.cancelled else None
            step.ended = Ended(live.record, live.players, state, reason, cashed, live.showdown)
            return
        seat_no = state.seat_to_act
        assert seat_no is not None
        why = auto_reason(step.seats.get(live.players[seat_no].user_id), ctx.book.deals_absent)
        if why is None:
            await _open_turn(ctx, live, step)
            return
        await _apply(ctx, live, step, seat_no, auto_kind(state), auto=why)


async def _open_turn(ctx: Ctx, live: LiveHand, step: Step) -> None:
    state = live.state
    seat_no = state.seat_to_act
    assert seat_no is not None
    if live.deadline is None:
        live.deadline = ctx.clock.now() + live.config.turn_seconds
        await actions_db.set_action_deadline(ctx.db, live.id, live.deadline)
    legal = legal_actions(state)
    player = live.players[seat_no]
    seat = step.seats.get(player.user_id)
    step.events.append(
        out.Turn(
            ctx.guild_id,
            ctx.channel_id,
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
    step.turn = (live.id, live.seq, live.deadline)


async def _apply(
    ctx: Ctx,
    live: LiveHand,
    step: Step,
    seat_no: int,
    kind: ActionKind,
    *,
    auto: AutoReason | None = None,
    changes: Sequence[SeatChange] = (),
    before: Sequence[out.TableEvent] = (),
) -> None:
    """One action (one transaction, :func:`hand_log.apply_action`), then the live hand and the
    step: ``before`` goes out ahead of the action's own events."""
    seq = live.seq
    applied = await hand_log.apply_action(
        ctx.db,
        live,
        seat_no,
        kind,
        now=ctx.clock.now(),
        auto=auto,
        changes=changes,
        plan=ctx.book,
    )
    step.acted = True
    step.turn = None
    live.state, live.seq, live.deadline, live.bank = applied.state, seq + 1, applied.deadline, None
    live.play = applied.play
    live.note_actions(applied.events)
    for seat in applied.seats:
        step.seats[seat.user_id] = seat
    step.events.extend(before)
    reason = _narrated(ctx, live, step, applied.events, applied.state, seq, auto)
    if applied.cashed is not None:
        step.ended = Ended(
            live.record, live.players, applied.state, reason, applied.cashed, live.showdown
        )


async def act(ctx: Ctx, live: LiveHand, step: Step, user_id: int, kind: ActionKind) -> None:
    """The action of the player to act (:func:`click_refusal` let him press), checked
    against his options."""
    seat = step.seats[user_id]
    seat_no = live.seat_by_user[user_id]
    seq = live.seq
    assert live.state.seat_to_act == seat_no, "click_refusal lets only the player to act act"
    try:
        option_for(live.state, kind)
    except ActionError:
        choices = ", ".join(o.label for o in legal_actions(live.state).options)
        action = kind.value.replace("_", " ")
        raise errors.IllegalMoveError(
            f"You cannot {action} now. Your choices: {choices}."
        ) from None
    updates: dict[str, Any] = {}
    if seat.consecutive_timeouts:
        updates["consecutive_timeouts"] = 0
    left = bank_left(live.bank, seq, ctx.clock.now())
    if left is not None:
        updates["time_bank_seconds"] = left
    await _apply(
        ctx, live, step, seat_no, kind, changes=[SeatChange(user_id, updates)] if updates else ()
    )
    await advance(ctx, live, step)


async def expire(ctx: Ctx, live: LiveHand, step: Step, table_id: int, now: float) -> None:
    """Time is up: start the time bank if there is one, else check or fold for him."""
    seat_no = live.state.seat_to_act
    assert seat_no is not None
    player = live.players[seat_no]
    seat = step.seats.get(player.user_id)
    ids = (ctx.guild_id, ctx.channel_id)
    expiry = on_expiry(seat, live.bank, live.seq, now, live.state)
    if isinstance(expiry, StartBank):
        async with ctx.db.transaction():
            await actions_db.set_action_deadline(ctx.db, live.id, expiry.deadline)
            changed = await ctx.book.update_seat(ctx.db, player.user_id, time_bank_seconds=0)
        live.deadline, live.bank = expiry.deadline, expiry.bank
        step.seats[changed.user_id] = changed
        step.events.append(
            out.TimeBankStarted(*ids, live.id, live.seq, seat_no, player.user_id, expiry.deadline)
        )
        step.turn = (live.id, live.seq, expiry.deadline)
        return
    before: list[out.TableEvent] = [
        out.PlayerTimedOut(
            *ids, live.id, seat_no, player.user_id, player.name, expiry.kind, expiry.sat_out
        )
    ]
    if expiry.sits_out_now:
        before.append(
            out.PlayerSatOut(*ids, player.user_id, player.name, seat_no, out.SitOutReason.TIMEOUTS)
        )
    changes: list[SeatChange] = []
    if seat is not None:
        sitting_out = True if expiry.sat_out else None
        counts = {"consecutive_timeouts": expiry.timeouts, "sitting_out": sitting_out}
        changes.append(SeatChange(player.user_id, counts))
    await _apply(
        ctx,
        live,
        step,
        seat_no,
        expiry.kind,
        auto=AutoReason.TIMEOUT,
        changes=changes,
        before=before,
    )
    await advance(ctx, live, step)

"""Crash recovery: rebuild a hand in progress from its log, or say why it cannot be.

The engine is deterministic, so the logged deck, seats, button and actions give back
exactly the state (and events) the hand had. Anything that does not fit (a deck that
does not match its commitment, an action out of turn or not legal, a gap in the
sequence numbers) makes the hand unrecoverable: the caller cancels it and every chip
committed to it is returned (the seat stacks were never touched mid-hand).

:func:`replay_hand` is the pure replay; :func:`resume_policy` decides, from what the store
could read back, whether the hand goes on (:class:`Resume`) or is refunded (:class:`Refund`).
A resumed hand carries its actions (the same :class:`~.events.ActionTaken` events a hand that
never restarted sent), so a front end tells it street by street as before.

Why a hand cannot be replayed is logged (WARNING) and told to the players without a card: a
deck that does not read back names its bad card, so that detail goes only to the
``dealerbot.secrets`` logger at DEBUG, which :mod:`dealerbot.logs` holds at INFO unless
``LOG_SECRETS=1``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from dealerbot.engine import (
    Action,
    ActionKind,
    CardError,
    EngineError,
    Event,
    HandState,
    PlayNotes,
    SeatSpec,
    apply,
    deck_commitment,
    note_events,
    start_hand,
)
from dealerbot.fairness import FairnessError, SaltedDeck
from dealerbot.store import hand_actions as actions_db
from dealerbot.store.db import Database
from dealerbot.store.hand_actions import HandAction, RecoveryHand
from dealerbot.store.hands import HandRecord

from . import events as out
from . import hand_log
from .events import AutoReason
from .hand_log import Book, Ended, LiveHand, Player
from .narration import LAST_ACTIONS, narrate
from .settings import TableConfig

log = logging.getLogger(__name__)
# Card-bearing detail (a bad deck names its card): DEBUG only, held back unless LOG_SECRETS=1.
secret_log = logging.getLogger("dealerbot.secrets.recovery")


def unreadable(error: Exception) -> str:
    """Why a hand's log cannot be read back, in words without a card (the error's own text
    may name one: "card As appears twice")."""
    if isinstance(error, CardError):
        return "the logged deck is not 52 readable, distinct cards"
    if isinstance(error, FairnessError):
        return "the logged salts cannot be read"
    return f"the log cannot be read ({type(error).__name__})"


@dataclass(slots=True)
class Replay:
    """``state`` is the rebuilt hand; on failure ``error`` says why and ``committed``
    holds the chips each user had put in as far as the log could be followed."""

    state: HandState | None
    error: str | None = None
    committed: dict[int, int] = field(default_factory=dict)
    action_lines: list[str] = field(default_factory=list)
    actions: list[out.ActionTaken] = field(default_factory=list)  # every one, in order
    moves: list[Event] = field(default_factory=list)  # the engine's events (house players)
    showdown: out.Showdown | None = None
    play: PlayNotes = field(default_factory=PlayNotes)  # 3rd-street choices, for stats


def logged_action(logged: HandAction) -> tuple[ActionKind, AutoReason | None]:
    """The logged action's kind and why the service took it (None: the player did)."""
    reason = None if logged.reason is None else AutoReason(logged.reason)
    return ActionKind(logged.action), reason


def deck_matches(secret: RecoveryHand) -> bool:
    """The logged deck (and its salts) give the commitment published for the hand."""
    if secret.salts is None:  # a hand logged under the old whole-deck scheme
        return deck_commitment(secret.deck, secret.salt) == secret.hand.commitment
    try:
        salted = SaltedDeck(secret.deck, secret.salts)
    except FairnessError:
        return False
    return salted.commitment() == secret.hand.commitment


def replay_hand(
    secret: RecoveryHand, guild_id: int, channel_id: int, players: Mapping[int, Player]
) -> Replay:
    record = secret.hand
    config = TableConfig.from_row(record.config)
    antes = {s.user_id: min(config.ante, s.stack) for s in record.seats}
    if not deck_matches(secret):
        return Replay(None, "the deck does not match its commitment", antes)
    try:
        state, dealt = start_hand(
            config.variant,
            config.stakes,
            [SeatSpec(s.seat_no, s.stack) for s in record.seats],
            secret.deck,
            record.button_seat,
        )
    except EngineError as error:
        secret_log.debug("hand %s cannot be dealt again: %s", record.id, error)
        why = unreadable(error) if isinstance(error, CardError) else str(error)
        return Replay(None, f"the hand cannot be dealt again: {why}", antes)
    result = Replay(state)
    result.moves.extend(dealt)
    for expected, logged in enumerate(sorted(secret.actions, key=lambda a: a.seq)):
        problem: str | None = None
        if logged.seq != expected:
            problem = f"action {expected} is missing from the log"
        elif state.is_over:
            problem = f"action {logged.seq} was logged after the hand ended"
        elif logged.seat is None or logged.seat != state.seat_to_act:
            problem = f"action {logged.seq} is by seat {logged.seat}, not the seat to act"
        if problem is None:
            try:
                kind, auto = logged_action(logged)
                state, events = apply(state, Action(logged.seat or 0, kind))
            except (ValueError, EngineError) as error:
                problem = f"action {logged.seq} ({logged.action!r}) cannot be applied: {error}"
            else:
                told = narrate(
                    guild_id, channel_id, record.id, players, events, state, logged.seq, auto
                )
                result.action_lines.extend(told.action_lines)
                result.actions.extend(e for e in told.events if isinstance(e, out.ActionTaken))
                result.play = note_events(result.play, events)
                result.moves.extend(events)
                result.showdown = told.showdown or result.showdown
        if problem is not None:
            result.error = problem
            result.committed = committed_by_user(state, players)
            return result
        result.state = state
    del result.action_lines[:-LAST_ACTIONS]
    return result


def committed_by_user(state: HandState, players: Mapping[int, Player]) -> dict[int, int]:
    return {
        players[seat].user_id: chips
        for seat, chips in zip(state.labels, state.committed, strict=True)
    }


@dataclass(frozen=True, slots=True)
class Resume:
    """The hand goes on from its log, with its last public action lines and every action
    (as the events a hand that never restarted sent)."""

    hand: LiveHand
    action_lines: tuple[str, ...]
    actions: tuple[out.ActionTaken, ...] = ()


@dataclass(frozen=True, slots=True)
class Refund:
    """The hand cannot be rebuilt: cancel it, every committed chip goes back."""

    error: str
    reason: str  # what the hand log and the players are told
    committed: dict[int, int]


async def restore(
    db: Database, record: HandRecord, guild_id: int, channel_id: int, plan: Book
) -> Resume | Ended:
    """Read the hand's log back and apply :func:`resume_policy`; a refund is written here
    (one transaction: the hand cancelled, its chips back, leavers cashed out)."""
    logged: RecoveryHand | Exception
    try:
        logged = await actions_db.load_hand_for_recovery(db, record.id)
    except Exception as error:  # a log the store itself cannot read back
        logged = error
    decided = resume_policy(record, logged, guild_id, channel_id)
    if isinstance(decided, Resume):
        return decided
    refund = decided
    log.warning("table %s hand %s cannot be replayed: %s", record.table_id, record.id, refund.error)
    done = await hand_log.cancel(db, record.id, refund.reason, refund.committed, plan)
    return Ended(record, players_of(record), None, refund.reason, done)


def players_of(record: HandRecord) -> dict[int, Player]:
    return {s.seat_no: Player(s.user_id, s.display_name) for s in record.seats}


def resume_policy(
    record: HandRecord, logged: RecoveryHand | Exception, guild_id: int, channel_id: int
) -> Resume | Refund:
    """Resume the hand when its log replays cleanly; otherwise refund it.

    ``logged`` is what the store read back for the hand, or the error it raised reading it.
    """
    players = players_of(record)
    if isinstance(logged, Exception):
        secret_log.debug("hand %s: the log cannot be read: %s", record.id, logged)
        antes = {s.user_id: min(record.config.ante, s.stack) for s in record.seats}
        rebuilt = Replay(None, unreadable(logged), antes)
        actions = 0
    else:
        rebuilt = replay_hand(logged, guild_id, channel_id, players)
        actions = len(logged.actions)
    if rebuilt.state is None or rebuilt.error is not None:
        reason = f"the hand could not be restored ({rebuilt.error}); every chip goes back"
        return Refund(str(rebuilt.error), reason, rebuilt.committed)
    live = LiveHand(record, rebuilt.state, players, actions, record.action_deadline)
    live.showdown = rebuilt.showdown
    live.play = rebuilt.play
    live.note_actions(rebuilt.moves)
    return Resume(live, tuple(rebuilt.action_lines), tuple(rebuilt.actions))

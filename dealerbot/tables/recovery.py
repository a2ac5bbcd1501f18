"""Crash recovery: rebuild a hand in progress from its log, or say why it cannot be.

The engine is deterministic, so the logged deck, seats, button and actions give back
exactly the state (and events) the hand had. Anything that does not fit (a deck that
does not match its commitment, an action out of turn or not legal, a gap in the
sequence numbers) makes the hand unrecoverable: the caller cancels it and every chip
committed to it is returned (the seat stacks were never touched mid-hand).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dealerbot.engine import errors as engine_errors
from dealerbot.engine.cards import deck_commitment
from dealerbot.engine.events import Action, ActionKind
from dealerbot.engine.state import HandState, SeatSpec, apply, start_hand
from dealerbot.store.hands import RecoveryHand

from .translate import Player, translate

LAST_ACTIONS = 8


@dataclass(slots=True)
class Replay:
    """``state`` is the rebuilt hand; on failure ``error`` says why and ``committed``
    holds the chips each user had put in as far as the log could be followed."""

    state: HandState | None
    error: str | None = None
    committed: dict[int, int] = field(default_factory=dict)
    texts: list[str] = field(default_factory=list)


def parse_logged_action(text: str) -> tuple[ActionKind, str | None]:
    """``"fold"`` or ``"fold:timeout"`` -> the action kind and why the service took it."""
    kind, _, auto = text.partition(":")
    return ActionKind(kind), (auto or None)


def replay_hand(
    secret: RecoveryHand, guild_id: int, channel_id: int, players: Mapping[int, Player]
) -> Replay:
    record = secret.hand
    config = record.config
    antes = {s.user_id: min(config.ante, s.stack) for s in record.seats}
    if deck_commitment(secret.deck, secret.salt) != record.commitment:
        return Replay(None, "the deck does not match its commitment", antes)
    try:
        state, _ = start_hand(
            config.variant,
            config.stakes,
            [SeatSpec(s.seat_no, s.stack) for s in record.seats],
            secret.deck,
            record.button_seat,
        )
    except engine_errors.EngineError as error:
        return Replay(None, f"the hand cannot be dealt again: {error}", antes)
    result = Replay(state)
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
                kind, auto = parse_logged_action(logged.action)
                state, events = apply(state, Action(logged.seat or 0, kind))
            except (ValueError, engine_errors.EngineError) as error:
                problem = f"action {logged.seq} ({logged.action!r}) cannot be applied: {error}"
            else:
                translated = translate(
                    guild_id, channel_id, record.id, players, events, state, logged.seq, auto
                )
                result.texts.extend(translated.actions)
        if problem is not None:
            result.error = problem
            result.committed = committed_by_user(state, players)
            return result
        result.state = state
    del result.texts[:-LAST_ACTIONS]
    return result


def committed_by_user(state: HandState, players: Mapping[int, Player]) -> dict[int, int]:
    return {
        players[seat].user_id: chips
        for seat, chips in zip(state.labels, state.committed, strict=True)
    }


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

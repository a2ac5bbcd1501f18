"""Recording each finished hand's player facts: at settlement, and a backfill for old hands.

The facts are the engine's (:func:`dealerbot.engine.seat_facts`); this module only maps
seats to users and hands the rows to the store. At settlement the rows go into the same
transaction as the chips. Hands finished before the stats tables existed are replayed from
the hand log by :func:`backfill` (run by ``dealerbot db upgrade`` and at every start: a
migration cannot run the engine); it is idempotent, since it only takes finished hands
that have no row yet.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealerbot.engine import (
    Action,
    ActionKind,
    EngineError,
    HandState,
    PlayNotes,
    SeatSpec,
    Variant,
    apply,
    format_cards,
    note_events,
    parse_deck_text,
    seat_facts,
    start_hand,
)
from dealerbot.store import hand_actions as actions_db
from dealerbot.store import stats as stats_db
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord
from dealerbot.store.stats import PlayerHandRow

from .config import TableConfig

log = logging.getLogger(__name__)

BATCH = 200
FOLD_EVERY = 16  # a table's hands between two folds of the pending stats rows


async def fold_now_and_then(db: Database, hand_number: int) -> None:
    """After a settlement's transaction (never in it): every FOLD_EVERY hands of a table,
    fold the pending stats rows into the rollups (every table's; the reads fold too, so
    this only keeps the batch a read may meet small)."""
    if hand_number % FOLD_EVERY == 0:
        await stats_db.fold_pending(db)


def player_rows(
    state: HandState, notes: PlayNotes, users: Mapping[int, int]
) -> list[PlayerHandRow]:
    """One row per dealt-in player (``users``: seat -> user id); none for a cancelled hand."""
    return [
        PlayerHandRow(
            users[f.seat],
            f.seat,
            f.put_in,
            f.won,
            f.net,
            f.last_street,
            int(f.entered_third),
            int(f.raised_third),
            int(f.showdown),
            int(f.won_showdown),
            f.shown_rank,
            None if f.shown_cards is None else format_cards(f.shown_cards, False),
        )
        for f in seat_facts(state, notes)
    ]


async def write(
    db: Database,
    hand_id: int,
    table_id: int,
    variant: Variant,
    rows: Sequence[PlayerHandRow],
    at: float | None = None,
) -> None:
    """Write the hand's rows: in the settlement's transaction (one statement; the rows were
    worked out before it), or for a hand settled long ago (the backfill)."""
    if rows:
        await stats_db.record_hand(db, hand_id, table_id, variant.value, rows, at)


@dataclass(frozen=True, slots=True)
class Replayed:
    state: HandState
    notes: PlayNotes


def replay(record: HandRecord, kinds: list[tuple[int | None, str]]) -> Replayed | None:
    """The hand played again from its log, or None if the log no longer gives the hand that
    was settled (pruned deck or actions, or a log the engine refuses)."""
    if record.revealed_deck is None or record.result is None:
        return None
    config = TableConfig.from_row(record.config)
    try:
        deck = parse_deck_text(record.revealed_deck)
        state, events = start_hand(
            config.variant,
            config.stakes,
            [SeatSpec(s.seat_no, s.stack) for s in record.seats],
            deck,
            record.button_seat,
        )
        notes = note_events(PlayNotes(), events)
        for seat, kind in kinds:
            state, events = apply(state, Action(-1 if seat is None else seat, ActionKind(kind)))
            notes = note_events(notes, events)
    except (EngineError, ValueError):
        return None
    finals = record.result.get("final_stacks", {})
    if state.result is None or {str(k): v for k, v in state.result.final_stacks.items()} != finals:
        return None
    return Replayed(state, notes)


async def backfill(db: Database, batch: int = BATCH) -> tuple[int, int]:
    """Rows for every finished hand that has none; returns (hands recorded, hands skipped).

    Each hand is its own transaction, so an interrupted backfill resumes where it stopped.
    """
    recorded = skipped = 0
    after = 0
    while True:
        hands = await stats_db.hands_without_rows(db, after, batch)
        if not hands:
            return recorded, skipped
        for record_ in hands:
            after = record_.id
            logged = await actions_db.get_actions(db, record_.id)
            replayed = replay(record_, [(a.seat, a.action) for a in logged])
            if replayed is None or replayed.state.result is None:
                log.warning("hand %s cannot be replayed for stats; skipped", record_.id)
                skipped += 1
                continue
            if replayed.state.result.cancelled:
                skipped += 1
                continue
            users = {s.seat_no: s.user_id for s in record_.seats}
            rows = player_rows(replayed.state, replayed.notes, users)
            state = replayed.state
            async with db.transaction():
                await write(db, record_.id, record_.table_id, state.variant, rows, record_.ended_at)
            recorded += 1
        await stats_db.fold_pending(db)  # a batch at a time, not all at the first read

"""The hand log's actions: one numbered row per action, and the secret read for recovery.

An action is appended with ONE conditional statement (it inserts only if the hand is live
and ``seq`` is the next number), so a repeated, stale or racing submission changes
nothing. Secrecy: :func:`load_hand_for_recovery` is the only function that reads the deck
of a hand in progress.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealerbot.engine import Card, parse_deck_text
from dealerbot.fairness import parse_salts_text

from .db import Database, Row, execute, fetch_all, fetch_one
from .errors import StaleAction, StoreError
from .hands import HandRecord, check_deadline, hand_in, live_hand_in
from .validate import check_id

MAX_ACTION_TEXT = 200
ACTION_REASONS = ("timeout", "leaving", "away")  # the CHECK on hand_actions.reason


@dataclass(frozen=True, slots=True)
class HandAction:
    hand_id: int
    seq: int  # 0-based, contiguous
    seat: int | None
    action: str  # the action kind's value, e.g. "fold"
    created_at: float
    deadline: float | None = None  # the deadline this action set for the next actor
    reason: str | None = None  # why the service acted for the player: timeout/leaving/away


@dataclass(frozen=True, slots=True)
class RecoveryHand:
    """SECRET: the full hand including the deck; for crash recovery only, never for players."""

    hand: HandRecord
    deck: tuple[Card, ...]
    salt: bytes  # the old scheme's one salt (empty for a merkle-v1 hand)
    actions: tuple[HandAction, ...]
    salts: tuple[bytes, ...] | None = None  # merkle-v1: one per deck position


def _action(row: Row) -> HandAction:
    return HandAction(
        row["hand_id"],
        row["seq"],
        row["seat"],
        row["action"],
        row["created_at"],
        row["deadline"],
        row["reason"],
    )


async def append_action(
    db: Database,
    hand_id: int,
    seq: int,
    seat: int | None,
    action: str,
    *,
    action_deadline: float | None,
    reason: str | None = None,
) -> HandAction:
    """Log action number ``seq`` (0-based) and set the next deadline, atomically.

    ``seq`` must be exactly the number of actions already logged: a repeated, stale or
    racing submission gets StaleAction and changes nothing.
    """
    check_id(hand_id, "hand id")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise StaleAction(f"action number {seq!r} is not valid")
    if seat is not None and (not isinstance(seat, int) or not 0 <= seat <= 7):
        raise StoreError("the seat must be a seat number 0..7 or None")
    if not isinstance(action, str) or not action or len(action) > MAX_ACTION_TEXT:
        raise StoreError(f"the action must be text of 1 to {MAX_ACTION_TEXT} characters")
    if reason is not None and reason not in ACTION_REASONS:
        raise StoreError(f"the reason must be one of {', '.join(ACTION_REASONS)} or None")
    deadline = check_deadline(action_deadline)
    now = db.now()
    # One conditional statement (a trigger copies the deadline to the hand): it inserts only
    # if the hand is live and seq is the next number, atomically, in one round trip.
    async with db.reading() as conn:
        try:
            inserted = await execute(
                conn,
                "INSERT INTO hand_actions"
                " (hand_id, seq, seat, action, created_at, deadline, reason)"
                " SELECT :hand, :seq, :seat, :action, :now, :deadline, :reason"
                " WHERE EXISTS (SELECT 1 FROM hands WHERE id = :hand AND status = 'in_progress')"
                " AND :seq = (SELECT COALESCE(MAX(seq) + 1, 0) FROM hand_actions"
                "             WHERE hand_id = :hand)",
                {
                    "hand": hand_id,
                    "seq": seq,
                    "seat": seat,
                    "action": action,
                    "now": now,
                    "deadline": deadline,
                    "reason": reason,
                },
            )
        except Exception as error:
            # Two submissions of the same number at once (PostgreSQL runs them side by
            # side): the key refuses the second one.
            if not conn.is_unique_violation(error):
                raise
            inserted = 0
        if inserted != 1:
            hand = await live_hand_in(conn, hand_id)
            row = await fetch_one(
                conn,
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?",
                (hand_id,),
            )
            expected = int(row[0]) if row is not None else 0
            raise StaleAction(
                f"that action is out of date (hand #{hand.number} is at action {expected}, "
                f"not {seq})"
            )
    return HandAction(hand_id, seq, seat, action, now, deadline, reason)


async def set_action_deadline(db: Database, hand_id: int, deadline: float | None) -> None:
    check_id(hand_id, "hand id")
    value = check_deadline(deadline)
    async with db.reading() as conn:  # one statement: atomic on its own
        changed = await execute(
            conn,
            "UPDATE hands SET action_deadline = ? WHERE id = ? AND status = 'in_progress'",
            (value, hand_id),
        )
        if changed != 1:
            await live_hand_in(conn, hand_id)  # raises UnknownHand or HandNotInProgress


async def get_actions(db: Database, hand_id: int) -> list[HandAction]:
    """The public action log of a hand, in order."""
    check_id(hand_id, "hand id")
    async with db.reading() as conn:
        rows = await fetch_all(
            conn, "SELECT * FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
        )
    return [_action(r) for r in rows]


async def load_hand_for_recovery(db: Database, hand_id: int) -> RecoveryHand:
    """SECRET PATH: the hand with its deck, salt and actions, to replay it after a restart.

    The only function that reads the deck of a hand in progress. Never call it to answer
    a player.
    """
    check_id(hand_id, "hand id")
    async with db.reading() as conn:
        hand = await hand_in(conn, hand_id)
        secret = await fetch_one(
            conn, "SELECT deck, salt_hex, deck_salts FROM hands WHERE id = ?", (hand_id,)
        )
        rows = await fetch_all(
            conn, "SELECT * FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,)
        )
    assert secret is not None
    return RecoveryHand(
        hand=hand,
        deck=parse_deck_text(secret["deck"]),
        salt=bytes.fromhex(secret["salt_hex"]),
        actions=tuple(_action(r) for r in rows),
        salts=None if secret["deck_salts"] is None else parse_salts_text(secret["deck_salts"]),
    )

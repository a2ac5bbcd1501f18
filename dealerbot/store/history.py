"""The hand log read back for histories, and its retention (``dealerbot db prune``).

Only hands that are over are read here: a finished hand's deck is no longer a secret (its
record reveals it), so a history can be built from it; what each viewer may see of it is
the history model's business (``dealerbot.history.model.view_of``), not the store's.

Pruning keeps every ``hands`` row (ledger rows reference it, and the hand id a player saw
must never be reused) with its seats, result and commitment; it deletes the action log and
overwrites the deck and salt, and marks the hand ``pruned_at``. Ledger rows are never
touched, so the audit stays clean.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .db import Database, execute, fetch_all, fetch_one
from .hand_actions import HandAction
from .hands import HandRecord, HandStatus, hand_in
from .validate import check_id

if TYPE_CHECKING:
    from .db import Connection

# What a pruned hand's deck column holds (the column must keep 104 characters).
PRUNED_DECK = "-" * 104


@dataclass(frozen=True, slots=True)
class LoggedHand:
    """A hand that is over, as its log keeps it, with the channel of its table.

    ``actions`` is empty and ``pruned`` true once retention removed the log (the deck in
    ``record.revealed_deck`` is then :data:`PRUNED_DECK`, not a deck)."""

    record: HandRecord
    guild_id: int
    channel_id: int
    actions: tuple[HandAction, ...]
    pruned: bool


@dataclass(frozen=True, slots=True)
class PruneReport:
    hands: int  # hands whose log was pruned by this run
    actions: int  # action rows deleted


async def guild_hand(db: Database, guild_id: int, hand_id: int) -> HandRecord | None:
    """The hand ``hand_id`` if it was played at a table of ``guild_id`` (any status)."""
    check_id(guild_id, "guild id")
    check_id(hand_id, "hand id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT h.id FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE h.id = ? AND t.guild_id = ?",
            (hand_id, guild_id),
        )
        return None if row is None else await hand_in(conn, hand_id)


async def player_hand_ids(db: Database, guild_id: int, user_id: int, limit: int) -> list[int]:
    """The ids of the last ``limit`` finished hands ``user_id`` was dealt into in this guild,
    newest first.

    The seats are stored as JSON text written by :func:`.hands.start_hand`; the pattern
    starts at the object's brace, which a display name cannot forge (its quotes are escaped),
    and the caller checks the seats again anyway.
    """
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    pattern = f'%{{"seat_no": _, "user_id": {user_id},%'
    async with db.reading() as conn:
        rows = await fetch_all(
            conn,
            "SELECT h.id FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE t.guild_id = ? AND h.status = 'finished' AND h.seats_json LIKE ?"
            " ORDER BY h.id DESC LIMIT ?",
            (guild_id, pattern, max(1, int(limit))),
        )
    return [int(row[0]) for row in rows]


async def guild_hand_ids(db: Database, guild_id: int, since: float | None = None) -> list[int]:
    """Every finished hand of the guild (started at or after ``since``), oldest first."""
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        rows = await fetch_all(
            conn,
            "SELECT h.id FROM hands h JOIN tables t ON t.id = h.table_id"
            " WHERE t.guild_id = ? AND h.status = 'finished' AND h.started_at >= ?"
            " ORDER BY h.id",
            (guild_id, float("-inf") if since is None else float(since)),
        )
    return [int(row[0]) for row in rows]


async def load_hands(db: Database, hand_ids: list[int]) -> list[LoggedHand]:
    """The hands with these ids that are over, in the order given (others are left out)."""
    loaded: list[LoggedHand] = []
    async with db.reading() as conn:
        for hand_id in hand_ids:
            check_id(hand_id, "hand id")
            logged = await _logged(conn, hand_id)
            if logged is not None:
                loaded.append(logged)
    return loaded


async def _logged(conn: Connection, hand_id: int) -> LoggedHand | None:
    place = await fetch_one(
        conn,
        "SELECT t.guild_id, t.channel_id, h.pruned_at FROM hands h"
        " JOIN tables t ON t.id = h.table_id WHERE h.id = ? AND h.status != 'in_progress'",
        (hand_id,),
    )
    if place is None:
        return None
    record = await hand_in(conn, hand_id)
    if record.status is HandStatus.IN_PROGRESS:  # pragma: no cover - checked just above
        return None
    rows = await fetch_all(
        conn,
        "SELECT hand_id, seq, seat, action, created_at, deadline, reason FROM hand_actions"
        " WHERE hand_id = ? ORDER BY seq",
        (hand_id,),
    )
    actions = tuple(HandAction(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows)
    return LoggedHand(record, int(place[0]), int(place[1]), actions, place[2] is not None)


async def prune(db: Database, older_than: float) -> PruneReport:
    """Forget the action logs and decks of hands that ended before ``older_than`` (unix
    seconds), in one transaction. Hands in progress are never touched; the hand rows, their
    results and every ledger row stay."""
    async with db.transaction() as conn:
        rows = await fetch_all(
            conn,
            "SELECT id FROM hands WHERE status != 'in_progress' AND pruned_at IS NULL"
            " AND ended_at < ?",
            (float(older_than),),
        )
        ids = [int(row[0]) for row in rows]
        deleted = 0
        now = db.now()
        for hand_id in ids:
            deleted += await execute(conn, "DELETE FROM hand_actions WHERE hand_id = ?", (hand_id,))
            await execute(
                conn,
                "UPDATE hands SET deck = ?, salt_hex = '', deck_salts = NULL, pruned_at = ?"
                " WHERE id = ?",
                (PRUNED_DECK, now, hand_id),
            )
    return PruneReport(len(ids), deleted)

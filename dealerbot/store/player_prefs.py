"""A player's own front-end settings (one row per user): turn alerts on or off, and the
deck his private views draw cards with (0016).

No row means the defaults (alerts on, no deck chosen); each setter is one upsert that
leaves the other setting as it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from .db import Database, execute, fetch_all, fetch_one
from .validate import check_id


async def alerts_off(db: Database, user_ids: Iterable[int]) -> set[int]:
    """Which of ``user_ids`` turned turn alerts off."""
    ids = sorted({check_id(user_id, "user") for user_id in user_ids})
    if not ids:
        return set()
    marks = ", ".join("?" for _ in ids)
    sql = f"SELECT user_id FROM player_prefs WHERE turn_alerts = 0 AND user_id IN ({marks})"
    async with db.reading() as conn:
        rows = await fetch_all(conn, sql, ids)
    return {int(row[0]) for row in rows}


async def set_turn_alerts(db: Database, user_id: int, on: bool) -> None:
    params = (check_id(user_id, "user"), 1 if on else 0, db.now())
    async with db.reading() as conn:
        await execute(
            conn,
            "INSERT INTO player_prefs (user_id, turn_alerts, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE"
            " SET turn_alerts = excluded.turn_alerts, updated_at = excluded.updated_at",
            params,
        )


async def deck_of(db: Database, user_id: int) -> str | None:
    """The deck the player chose ("classic", "four-colour", "text"), or None: none."""
    async with db.reading() as conn:
        row = await fetch_one(
            conn, "SELECT deck FROM player_prefs WHERE user_id = ?", (check_id(user_id, "user"),)
        )
    return None if row is None or row[0] is None else str(row[0])


async def set_deck(db: Database, user_id: int, deck: str) -> None:
    """Store the player's deck (the service checked the name; the column's CHECK too)."""
    params = (check_id(user_id, "user"), deck, db.now())
    async with db.reading() as conn:
        await execute(
            conn,
            "INSERT INTO player_prefs (user_id, deck, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE"
            " SET deck = excluded.deck, updated_at = excluded.updated_at",
            params,
        )

"""A player's own front-end settings (one row per user): turn alerts on or off.

No row means the defaults (alerts on); ``set_turn_alerts`` is one upsert.
"""

from __future__ import annotations

from collections.abc import Iterable

from .db import Database, execute, fetch_all
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

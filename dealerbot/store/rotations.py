"""Stored rotation state of mixed-game tables (0008): one row per table, so a restart
resumes the rotation where it was. Rows only; the policy is :mod:`dealerbot.tables.rotation`."""

from __future__ import annotations

from dataclasses import dataclass

from .db import Database, fetch_one
from .validate import check_id


@dataclass(frozen=True, slots=True)
class RotationRow:
    game: str  # "stud", "stud8" or "razz": the game being played
    hands_played: int
    chosen: bool


async def get_rotation(db: Database, table_id: int) -> RotationRow | None:
    check_id(table_id, "table id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT game, hands_played, chosen FROM table_rotations WHERE table_id = ?",
            (table_id,),
        )
    return None if row is None else RotationRow(row[0], row[1], bool(row[2]))


async def put_rotation(db: Database, table_id: int, row: RotationRow) -> None:
    """Store the table's rotation (inside the caller's transaction when there is one)."""
    check_id(table_id, "table id")
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO table_rotations (table_id, game, hands_played, chosen, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET game = excluded.game,"
            " hands_played = excluded.hands_played, chosen = excluded.chosen,"
            " updated_at = excluded.updated_at",
            (table_id, row.game, row.hands_played, int(row.chosen), db.now()),
        )


async def reset_rotation(db: Database, table_id: int) -> None:
    """Forget the table's place (its game settings changed): the rotation starts afresh."""
    check_id(table_id, "table id")
    async with db.transaction() as conn:
        await conn.execute("DELETE FROM table_rotations WHERE table_id = ?", (table_id,))

"""Stored rotation state of mixed-game tables (0008): one row per table, so a restart
resumes the rotation where it was; and dealer's-choice picks (0015, ``table_picks``): the
number of the table's latest offer and, while it waits, who picks by when, so a restart
neither offers a made pick again nor forgets one being waited for. Rows only; the policy is
:mod:`dealerbot.tables.rotation`."""

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


@dataclass(frozen=True, slots=True)
class PickRow:
    """A table's dealer's-choice offers: ``pick_id`` numbers the latest; the chooser, his
    seat and name and the deadline are set while it waits (None once answered or lapsed)."""

    pick_id: int
    user_id: int | None = None
    seat_no: int | None = None
    name: str | None = None
    deadline: float | None = None

    @property
    def waiting(self) -> bool:
        return self.deadline is not None


async def get_pick(db: Database, table_id: int) -> PickRow | None:
    check_id(table_id, "table id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT pick_id, user_id, seat_no, name, deadline FROM table_picks WHERE table_id = ?",
            (table_id,),
        )
    return None if row is None else PickRow(row[0], row[1], row[2], row[3], row[4])


async def put_pick(db: Database, table_id: int, row: PickRow) -> None:
    """Store the table's latest offer (inside the caller's transaction when there is one)."""
    check_id(table_id, "table id")
    async with db.transaction() as conn:
        await conn.execute(
            "INSERT INTO table_picks (table_id, pick_id, user_id, seat_no, name, deadline)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET"
            " pick_id = excluded.pick_id, user_id = excluded.user_id,"
            " seat_no = excluded.seat_no, name = excluded.name, deadline = excluded.deadline",
            (table_id, row.pick_id, row.user_id, row.seat_no, row.name, row.deadline),
        )


async def end_pick(db: Database, table_id: int) -> None:
    """The offer waiting (if any) is answered or lapsed: its number stays, so a button of it
    is still known as an old one."""
    check_id(table_id, "table id")
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE table_picks SET user_id = NULL, seat_no = NULL, name = NULL, deadline = NULL"
            " WHERE table_id = ?",
            (table_id,),
        )

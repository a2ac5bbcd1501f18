"""The hand log's hands: start, settlement or cancellation, and reading them back.

The actions of a hand are in :mod:`.hand_actions`. Secrecy: the deck and the salt of a
hand in progress are read by exactly one function,
:func:`~dealerbot.store.hand_actions.load_hand_for_recovery`. Everything here returns
:class:`HandRecord`, which carries the deck and salt only once the hand is over (so anyone
can check the commitment).
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from dealerbot.engine import Card, CardError, deck_text, validate_deck

from .commitments import OLD_SCHEME, commitment_columns
from .config import ConfigRow
from .db import Connection, Database, Row, fetch_all, fetch_one
from .errors import (
    HandInProgress,
    HandNotInProgress,
    InvalidSettlement,
    StoreError,
    TableNotOpen,
    UnknownHand,
)
from .ledger import Account, Reason, record
from .seats import seats_in
from .tables import TableStatus, table_in
from .validate import MAX_AMOUNT, check_id, check_player_id


class HandStatus(Enum):
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class HandSeat:
    """A player dealt into a hand, with the stack they started it with."""

    seat_no: int
    user_id: int
    display_name: str
    stack: int

    def to_json(self) -> dict[str, Any]:
        return {
            "seat_no": self.seat_no,
            "user_id": self.user_id,
            "display_name": self.display_name,
            "stack": self.stack,
        }


@dataclass(frozen=True, slots=True)
class HandRecord:
    """What may be shown to players: no deck and no salt while the hand is in progress."""

    id: int
    table_id: int
    number: int
    config: ConfigRow  # the table's settings for this hand
    seats: tuple[HandSeat, ...]
    button_seat: int
    commitment: str
    status: HandStatus
    result: dict[str, Any] | None
    action_deadline: float | None
    started_at: float
    ended_at: float | None
    revealed_deck: str | None  # deck text, once the hand is over
    revealed_salt_hex: str | None
    commitment_scheme: str = OLD_SCHEME  # how ``commitment`` was made (docs/fairness.md)
    tournament_id: int | None = None  # a tournament's hand (migration 0013) ...
    tournament_level: int | None = None  # ... dealt at this level of its ladder


# Every query that player-facing functions run names its columns; none of them is `deck`.
_PUBLIC_COLUMNS = (
    "id, table_id, number, config_json, seats_json, button_seat, commitment, status,"
    " result_json, action_deadline, started_at, ended_at,"
    " CASE WHEN status = 'in_progress' THEN NULL ELSE deck END AS revealed_deck,"
    " CASE WHEN status = 'in_progress' THEN NULL ELSE salt_hex END AS revealed_salt_hex,"
    " commitment_scheme, tournament_id, tournament_level"
)


def _record(row: Row) -> HandRecord:
    return HandRecord(
        id=row["id"],
        table_id=row["table_id"],
        number=row["number"],
        config=ConfigRow(**json.loads(row["config_json"])),
        seats=tuple(HandSeat(**s) for s in json.loads(row["seats_json"])),
        button_seat=row["button_seat"],
        commitment=row["commitment"],
        status=HandStatus(row["status"]),
        result=None if row["result_json"] is None else json.loads(row["result_json"]),
        action_deadline=row["action_deadline"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        revealed_deck=row["revealed_deck"],
        revealed_salt_hex=row["revealed_salt_hex"],
        commitment_scheme=row["commitment_scheme"],
        tournament_id=row["tournament_id"],
        tournament_level=row["tournament_level"],
    )


async def hand_in(conn: Connection, hand_id: int) -> HandRecord:
    row = await fetch_one(conn, f"SELECT {_PUBLIC_COLUMNS} FROM hands WHERE id = ?", (hand_id,))
    if row is None:
        raise UnknownHand(f"there is no hand #{hand_id}")
    return _record(row)


async def live_hand_in(conn: Connection, hand_id: int) -> HandRecord:
    hand = await hand_in(conn, hand_id)
    if hand.status is not HandStatus.IN_PROGRESS:
        raise HandNotInProgress(f"hand #{hand.number} is already over")
    return hand


def check_deadline(deadline: object) -> float | None:
    if deadline is None:
        return None
    if (
        not isinstance(deadline, int | float)
        or isinstance(deadline, bool)
        or not math.isfinite(deadline)
    ):
        raise StoreError("an action deadline must be a finite number of unix seconds")
    return float(deadline)


def _json(value: Mapping[str, Any], what: str) -> str:
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise InvalidSettlement(f"the {what} cannot be stored as JSON: {exc}") from None


async def _dealt_seats(
    conn: Connection, table_id: int, tournament: tuple[int, int] | None
) -> dict[int, tuple[int, int]]:
    """Who sits where with how many chips, for a new hand: (user, stack) by seat number; a
    tournament's players still in, seated at its table, or the table's cash seats."""
    if tournament is None:
        return {s.seat_no: (s.user_id, s.stack) for s in await seats_in(conn, table_id)}
    rows = await fetch_all(
        conn,
        "SELECT e.seat_no, e.user_id, e.stack FROM tournament_entries e"
        " JOIN tournaments t ON t.id = e.tournament_id"
        " WHERE t.id = ? AND t.table_id = ? AND t.status = 'running' AND e.status = 'playing'"
        " AND e.place IS NULL AND e.seat_no IS NOT NULL",
        (tournament[0], table_id),
    )
    return {int(r[0]): (int(r[1]), int(r[2])) for r in rows}


async def start_hand(
    db: Database,
    table_id: int,
    *,
    config: ConfigRow,
    seats: Sequence[HandSeat],
    deck: Sequence[Card],
    commitment: str,
    button_seat: int,
    salts: Sequence[bytes] | None = None,
    salt: bytes = b"",
    action_deadline: float | None = None,
    tournament: tuple[int, int] | None = None,
) -> HandRecord:
    """Log a new hand; bumps the table's hand counter and button in the same transaction.

    With ``salts`` (one per deck position) the commitment is ``dealerbot-merkle-v1``'s
    Merkle root; with a single ``salt`` instead it is the old whole-deck SHA-256 (kept for
    hands logged before, and their tests). Every HandSeat must match a current seat
    (number, user and stack), the commitment must match the deck and salts, and the table
    may have no other hand in progress. ``tournament`` (id, level): a tournament's hand,
    whose seats are its players' (``tournament_entries``), not the table's cash seats.
    """
    check_id(table_id, "table id")
    if not isinstance(config, ConfigRow):
        raise StoreError("config must be a ConfigRow")
    try:
        cards = validate_deck(deck)
    except CardError as exc:
        raise StoreError(f"bad deck: {exc}") from None
    scheme, salt_hex, deck_salts = commitment_columns(cards, commitment, salts, salt)
    if not isinstance(button_seat, int) or not 0 <= button_seat <= 7:
        raise StoreError("the button must be a seat number 0..7")
    deadline = check_deadline(action_deadline)
    if len(seats) < 2 or len({s.seat_no for s in seats}) != len(seats):
        raise StoreError("a hand needs at least two players in distinct seats")
    async with db.transaction() as conn:
        table = await table_in(conn, table_id, lock=True)
        if table.status is TableStatus.CLOSED:
            raise TableNotOpen("this table is closed")
        live = await fetch_one(
            conn,
            "SELECT number FROM hands WHERE table_id = ? AND status = 'in_progress'",
            (table_id,),
        )
        if live is not None:
            raise HandInProgress(f"hand #{live[0]} is still in progress at this table")
        current = await _dealt_seats(conn, table_id, tournament)
        for hs in seats:
            seat = current.get(hs.seat_no)
            if seat is None or seat != (hs.user_id, hs.stack):
                raise StoreError(
                    f"seat {hs.seat_no + 1} does not match the table "
                    "(player or stack changed since the hand was set up)"
                )
        number = table.hand_count + 1
        await conn.execute(
            "UPDATE tables SET hand_count = ?, button_seat = ? WHERE id = ?",
            (number, button_seat, table_id),
        )
        seats_json = json.dumps([s.to_json() for s in sorted(seats, key=lambda s: s.seat_no)])
        inserted = await fetch_one(
            conn,
            "INSERT INTO hands (table_id, number, config_json, seats_json, button_seat, deck,"
            " commitment, salt_hex, action_deadline, started_at, commitment_scheme, deck_salts"
            + (", tournament_id, tournament_level" if tournament else "")
            + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?"
            + (", ?, ?" if tournament else "")
            + ") RETURNING id",
            (
                table_id,
                number,
                json.dumps(dataclasses.asdict(config), sort_keys=True),
                seats_json,
                button_seat,
                deck_text(cards),
                commitment,
                salt_hex,
                deadline,
                db.now(),
                scheme,
                deck_salts,
                *(tournament or ()),
            ),
        )
        assert inserted is not None
        return await hand_in(conn, inserted[0])


async def settle_hand(
    db: Database, hand_id: int, deltas: Mapping[int, int], result: Mapping[str, Any]
) -> HandRecord:
    """Write a finished hand: stacks, 'hand_result' ledger rows and status in ONE transaction.

    ``deltas`` maps user id -> net chips won (+) or lost (-) over the whole hand (antes,
    bets, pots). They must sum to zero, name only players dealt into the hand, and no loss
    may exceed the stack the player started with.
    """
    check_id(hand_id, "hand id")
    clean: dict[int, int] = {}
    for user_id, delta in deltas.items():
        check_player_id(user_id)
        if not isinstance(delta, int) or isinstance(delta, bool) or abs(delta) > MAX_AMOUNT:
            raise InvalidSettlement(f"the result for user {user_id} is not a chip amount")
        clean[user_id] = delta
    if sum(clean.values()) != 0:
        raise InvalidSettlement(f"hand results must sum to zero, not {sum(clean.values())}")
    result_json = _json(result, "result")
    async with db.transaction() as conn:
        table = await table_in(conn, (await hand_in(conn, hand_id)).table_id, lock=True)
        hand = await live_hand_in(conn, hand_id)  # read again under the table's lock
        if hand.tournament_id is not None:  # its chips are entry stacks: store/tournaments.py
            raise InvalidSettlement(f"hand #{hand.number} is a tournament hand")
        started = {s.user_id: s for s in hand.seats}
        seated = {s.user_id: s for s in await seats_in(conn, hand.table_id)}
        for user_id, delta in clean.items():
            if user_id not in started:
                raise InvalidSettlement(f"user {user_id} was not dealt into hand #{hand.number}")
            if user_id not in seated:
                raise InvalidSettlement(f"user {user_id} left the table during the hand")
            if -delta > started[user_id].stack or seated[user_id].stack + delta < 0:
                raise InvalidSettlement(f"user {user_id} cannot lose more than their stack")
        now = db.now()
        moved = [(user_id, delta) for user_id, delta in sorted(clean.items()) if delta]
        await conn.executemany(
            "UPDATE seats SET stack = stack + ? WHERE table_id = ? AND user_id = ?",
            [(delta, hand.table_id, user_id) for user_id, delta in moved],
        )
        await conn.executemany(
            "INSERT INTO ledger (guild_id, user_id, account, table_id, delta, reason, hand_id,"
            " created_at) VALUES (?, ?, 'table', ?, ?, 'hand_result', ?, ?)",
            [(table.guild_id, u, hand.table_id, d, hand_id, now) for u, d in moved],
        )
        await conn.execute(
            "UPDATE hands SET status = 'finished', result_json = ?, ended_at = ?,"
            " action_deadline = NULL WHERE id = ?",
            (result_json, now, hand_id),
        )
        return await hand_in(conn, hand_id)


async def cancel_hand(
    db: Database, hand_id: int, *, reason: str, committed: Mapping[int, int] | None = None
) -> HandRecord:
    """Call a hand off. Stacks are untouched: committed chips never left them.

    For each player in ``committed`` (user id -> chips they had put in) a zero-delta
    'refund' ledger row records that those chips went back to the stack; a tournament's
    hand has none (its chips are no ledger chips), only the result's ``returned``.
    """
    check_id(hand_id, "hand id")
    if not isinstance(reason, str) or not reason.strip():
        raise StoreError("a cancelled hand needs a reason")
    returned: dict[int, int] = {}
    for user_id, amount in (committed or {}).items():
        check_player_id(user_id)
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise InvalidSettlement(f"the committed amount for user {user_id} is not valid")
        returned[user_id] = amount
    async with db.transaction() as conn:
        table = await table_in(conn, (await hand_in(conn, hand_id)).table_id, lock=True)
        hand = await live_hand_in(conn, hand_id)  # read again under the table's lock
        players = {s.user_id for s in hand.seats}
        now = db.now()
        for user_id, amount in sorted(returned.items()):
            if user_id not in players:
                raise InvalidSettlement(f"user {user_id} was not dealt into hand #{hand.number}")
            if hand.tournament_id is not None:
                continue
            await record(
                conn,
                guild_id=table.guild_id,
                user_id=user_id,
                account=Account.TABLE,
                table_id=hand.table_id,
                delta=0,
                reason=Reason.REFUND,
                hand_id=hand_id,
                at=now,
                note=f"hand #{hand.number} cancelled ({reason.strip()}): {amount} committed "
                "chips returned to the stack",
            )
        result = {
            "cancelled": True,
            "reason": reason.strip(),
            "returned": {str(u): a for u, a in sorted(returned.items())},
        }
        await conn.execute(
            "UPDATE hands SET status = 'cancelled', result_json = ?, ended_at = ?,"
            " action_deadline = NULL WHERE id = ?",
            (_json(result, "result"), now, hand_id),
        )
        return await hand_in(conn, hand_id)


async def get_hand(db: Database, hand_id: int) -> HandRecord:
    check_id(hand_id, "hand id")
    async with db.reading() as conn:
        return await hand_in(conn, hand_id)


async def current_hand(db: Database, table_id: int) -> HandRecord | None:
    """The table's hand in progress, if any (no deck)."""
    check_id(table_id, "table id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            f"SELECT {_PUBLIC_COLUMNS} FROM hands WHERE table_id = ? AND status = 'in_progress'",
            (table_id,),
        )
    return None if row is None else _record(row)


async def hands_in_progress(db: Database) -> list[HandRecord]:
    """Every hand a crash interrupted (or still running), oldest first."""
    async with db.reading() as conn:
        rows = await fetch_all(
            conn, f"SELECT {_PUBLIC_COLUMNS} FROM hands WHERE status = 'in_progress' ORDER BY id"
        )
    return [_record(r) for r in rows]


async def recent_hands(db: Database, table_id: int, limit: int = 20) -> list[HandRecord]:
    """Finished and cancelled hands at a table, newest first (decks revealed)."""
    check_id(table_id, "table id")
    limit = max(1, min(int(limit), 1000))
    async with db.reading() as conn:
        rows = await fetch_all(
            conn,
            f"SELECT {_PUBLIC_COLUMNS} FROM hands WHERE table_id = ? AND status != 'in_progress'"
            " ORDER BY number DESC LIMIT ?",
            (table_id, limit),
        )
    return [_record(r) for r in rows]

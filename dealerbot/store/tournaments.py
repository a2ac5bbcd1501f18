"""Sit & Go tournaments: the tournament row, its entries, and its prize pool as a ledger account.

A buy-in is one transaction: the wallet row -X, the pool row +X (account 'pool', with the
tournament's id) and ``tournaments.pool`` up by X, under the conditional wallet statement
that refuses an overdraft. A refund or a prize is the same the other way, and the entry
row that says why (``refund``, or its ``place`` and ``prize``) is written in that
transaction: a place is decided once (``WHERE place IS NULL`` and a unique index), so a
prize can never be paid twice, whatever a restart replays. Tournament chips are the entry
stacks; they change only when a tournament hand settles (:func:`settle_hand`, with the
busts it decides), never through a wallet.

The rules (who may register, the seat draw, places and prizes) are the table service's and
the tournament core's (:mod:`dealerbot.tournament`); this refuses what the rows say.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from .config import ensure_guild
from .db import Connection, Database, Row, execute, fetch_all, fetch_one
from .errors import (
    AlreadyRegistered,
    InvalidSettlement,
    LiveTournament,
    NotRegistered,
    StoreError,
    TournamentFull,
    TournamentNotOpen,
    UnknownTournament,
)
from .ledger import Account, Reason, record
from .seats import SeatRow, display_name_of
from .tables import table_in
from .validate import MAX_AMOUNT, check_amount, check_id
from .wallets import ensure_wallet, move_wallet_chips


class TournamentStatus(Enum):
    REGISTERING = "registering"
    RUNNING = "running"
    PAUSED = "paused"  # between hands, the level clock stopped
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def live(self) -> bool:
        """Registering or being played: the channel's one tournament."""
        return self in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING, self.PAUSED)


class EntryStatus(Enum):
    REGISTERED = "registered"  # before the start
    PLAYING = "playing"  # seated with chips (the winner keeps this status, with place 1)
    BUSTED = "busted"
    FORFEITED = "forfeited"  # left the tournament in the place he held; his chips stay dead


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    table_id: int
    settings: dict[str, Any]  # TournamentSettings.to_dict()
    seats: int
    buy_in: int
    starting_chips: int
    status: TournamentStatus
    pool: int  # chips in the pool now: the sum of its ledger rows
    entrants: int  # fixed at the start (0 before)
    clock: dict[str, Any] | None  # LevelClock.to_dict(), from the start
    button_seat: int | None
    created_by: int
    created_at: float
    started_at: float | None
    ended_at: float | None
    note: str
    message_id: int | None


@dataclass(frozen=True, slots=True)
class EntryRow:
    tournament_id: int
    user_id: int
    guild_id: int
    display_name: str
    status: EntryStatus
    seat_no: int | None
    stack: int
    sitting_out: bool
    consecutive_timeouts: int
    time_bank_seconds: float
    forfeit: bool  # asked to forfeit during a hand: out when it ends
    place: int | None
    shares: tuple[int, ...]  # the places his tie group shares (his own alone if none)
    prize: int
    refund: int
    registered_at: float
    finished_at: float | None

    @property
    def in_play(self) -> bool:
        """Seated with chips and no place yet: dealt into the next hand."""
        return self.status is EntryStatus.PLAYING and self.place is None and self.stack > 0

    def seat_row(self, table_id: int) -> SeatRow:
        """The entry as the hand loop sees a seat (a forfeit is a seat leaving)."""
        assert self.seat_no is not None, "only a seated entry has a seat"
        return SeatRow(
            table_id=table_id,
            seat_no=self.seat_no,
            guild_id=self.guild_id,
            user_id=self.user_id,
            display_name=self.display_name,
            stack=self.stack,
            sitting_out=self.sitting_out,
            consecutive_timeouts=self.consecutive_timeouts,
            time_bank_seconds=self.time_bank_seconds,
            leave_after_hand=self.forfeit,
            joined_at=self.registered_at,
        )


@dataclass(frozen=True, slots=True)
class Finished:
    """A place decided: who, which place (and the places his tie group shares), what the pool
    pays him, and how he went out (busted, forfeited, or the winner: still playing)."""

    user_id: int
    place: int
    shares: tuple[int, ...]
    prize: int
    status: EntryStatus


def _tournament(row: Row) -> TournamentRow:
    return TournamentRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        table_id=row["table_id"],
        settings=json.loads(row["settings_json"]),
        seats=row["seats"],
        buy_in=row["buy_in"],
        starting_chips=row["starting_chips"],
        status=TournamentStatus(row["status"]),
        pool=row["pool"],
        entrants=row["entrants"],
        clock=None if row["clock_json"] is None else json.loads(row["clock_json"]),
        button_seat=row["button_seat"],
        created_by=row["created_by"],
        created_at=row["created_at"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
        note=row["note"],
        message_id=row["message_id"],
    )


def _entry(row: Row) -> EntryRow:
    shares = row["shares"]
    return EntryRow(
        tournament_id=row["tournament_id"],
        user_id=row["user_id"],
        guild_id=row["guild_id"],
        display_name=row["display_name"],
        status=EntryStatus(row["status"]),
        seat_no=row["seat_no"],
        stack=row["stack"],
        sitting_out=bool(row["sitting_out"]),
        consecutive_timeouts=row["consecutive_timeouts"],
        time_bank_seconds=row["time_bank_seconds"],
        forfeit=bool(row["forfeit"]),
        place=row["place"],
        shares=tuple(int(p) for p in shares.split(",")) if shares else (),
        prize=row["prize"],
        refund=row["refund"],
        registered_at=row["registered_at"],
        finished_at=row["finished_at"],
    )


def _dump(value: Mapping[str, Any], what: str) -> str:
    try:
        return json.dumps(dict(value), sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise StoreError(f"the {what} cannot be stored as JSON: {exc}") from None


async def tournament_in(
    conn: Connection, tournament_id: int, *, lock: bool = False
) -> TournamentRow:
    suffix = conn.lock_suffix if lock else ""
    row = await fetch_one(conn, f"SELECT * FROM tournaments WHERE id = ?{suffix}", (tournament_id,))
    if row is None:
        raise UnknownTournament(f"there is no tournament #{tournament_id}")
    return _tournament(row)


async def entries_in(conn: Connection, tournament_id: int) -> list[EntryRow]:
    rows = await fetch_all(
        conn,
        "SELECT * FROM tournament_entries WHERE tournament_id = ? ORDER BY registered_at, user_id",
        (tournament_id,),
    )
    return [_entry(r) for r in rows]


async def entry_in(conn: Connection, tournament_id: int, user_id: int) -> EntryRow:
    row = await fetch_one(
        conn,
        "SELECT * FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )
    if row is None:
        raise NotRegistered(f"user {user_id} is not in tournament #{tournament_id}")
    return _entry(row)


def _expect(t: TournamentRow, *statuses: TournamentStatus) -> None:
    if t.status not in statuses:
        raise TournamentNotOpen(t.status.value)


# --- reading -----------------------------------------------------------------------------


async def get_tournament(db: Database, tournament_id: int) -> TournamentRow:
    check_id(tournament_id, "tournament id")
    async with db.reading() as conn:
        return await tournament_in(conn, tournament_id)


async def get_entries(db: Database, tournament_id: int) -> list[EntryRow]:
    check_id(tournament_id, "tournament id")
    async with db.reading() as conn:
        return await entries_in(conn, tournament_id)


async def live_in_channel(db: Database, guild_id: int, channel_id: int) -> TournamentRow | None:
    """The channel's tournament registering or being played, if any."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT * FROM tournaments WHERE guild_id = ? AND channel_id = ?"
            " AND status IN ('registering', 'running', 'paused')",
            (guild_id, channel_id),
        )
    return None if row is None else _tournament(row)


async def latest_in_channel(db: Database, guild_id: int, channel_id: int) -> TournamentRow | None:
    """The channel's most recent tournament, whatever its state."""
    check_id(guild_id, "guild id")
    check_id(channel_id, "channel id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT * FROM tournaments WHERE guild_id = ? AND channel_id = ?"
            " ORDER BY id DESC LIMIT 1",
            (guild_id, channel_id),
        )
    return None if row is None else _tournament(row)


async def live_tournaments(db: Database) -> list[TournamentRow]:
    async with db.reading() as conn:
        rows = await fetch_all(
            conn,
            "SELECT * FROM tournaments WHERE status IN ('registering', 'running', 'paused')"
            " ORDER BY id",
        )
    return [_tournament(r) for r in rows]


# --- registration ------------------------------------------------------------------------


async def create_tournament(
    db: Database,
    guild_id: int,
    channel_id: int,
    table_id: int,
    *,
    settings: Mapping[str, Any],
    seats: int,
    buy_in: int,
    starting_chips: int,
    created_by: int,
) -> TournamentRow:
    """A new tournament, registering, at the channel's table; refused (LiveTournament) while
    the channel has one registering or being played."""
    for value, what in ((guild_id, "guild id"), (channel_id, "channel id"), (table_id, "table id")):
        check_id(value, what)
    check_id(created_by, "user id")
    check_amount(buy_in, "buy-in")
    check_amount(starting_chips, "starting chips")
    if not isinstance(seats, int) or isinstance(seats, bool) or not 2 <= seats <= 8:
        raise StoreError("a tournament has 2 to 8 seats")
    text = _dump(settings, "settings")
    async with db.transaction() as conn:
        now = db.now()
        await ensure_guild(conn, guild_id, now)
        table = await table_in(conn, table_id, lock=True)
        if (table.guild_id, table.channel_id) != (guild_id, channel_id):
            raise StoreError("the table is not in that channel")
        if await _live_id(conn, guild_id, channel_id) is not None:
            raise LiveTournament("the channel has a tournament already")
        inserted = await fetch_one(
            conn,
            "INSERT INTO tournaments (guild_id, channel_id, table_id, settings_json, seats, buy_in,"
            " starting_chips, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " RETURNING id",
            (guild_id, channel_id, table_id, text, seats, buy_in, starting_chips, created_by, now),
        )
        assert inserted is not None
        return await tournament_in(conn, int(inserted[0]))


async def _live_id(conn: Connection, guild_id: int, channel_id: int) -> int | None:
    row = await fetch_one(
        conn,
        "SELECT id FROM tournaments WHERE guild_id = ? AND channel_id = ?"
        " AND status IN ('registering', 'running', 'paused')",
        (guild_id, channel_id),
    )
    return None if row is None else int(row[0])


async def register(db: Database, tournament_id: int, user_id: int, display_name: str) -> EntryRow:
    """The buy-in from the wallet to the pool and the entry, in one transaction; refused
    after the start, twice, when every seat is taken, or without the chips in the wallet."""
    check_id(tournament_id, "tournament id")
    check_id(user_id, "user id")
    name = display_name_of(display_name)
    async with db.transaction() as conn:
        now = db.now()
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.REGISTERING)
        entries = await entries_in(conn, tournament_id)
        if any(e.user_id == user_id for e in entries):
            raise AlreadyRegistered(f"user {user_id} is registered already")
        if len(entries) >= t.seats:
            raise TournamentFull(f"all {t.seats} seats are taken")
        await ensure_wallet(conn, t.guild_id, user_id, now)
        await _pool_move(conn, t, user_id, t.buy_in, Reason.BUY_IN, now, "tournament buy-in")
        await conn.execute(
            "INSERT INTO tournament_entries (tournament_id, user_id, guild_id, display_name,"
            " registered_at) VALUES (?, ?, ?, ?, ?)",
            (tournament_id, user_id, t.guild_id, name, now),
        )
        return await entry_in(conn, tournament_id, user_id)


async def unregister(db: Database, tournament_id: int, user_id: int) -> EntryRow:
    """Before the start only: the buy-in back to the wallet, the entry gone (the ledger
    keeps both rows); returns the entry as it was, its refund filled in."""
    check_id(tournament_id, "tournament id")
    check_id(user_id, "user id")
    async with db.transaction() as conn:
        now = db.now()
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.REGISTERING)
        entry = await entry_in(conn, tournament_id, user_id)
        await _pool_move(conn, t, user_id, -t.buy_in, Reason.REFUND, now, "unregistered")
        await execute(
            conn,
            "DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )
    return replace(entry, refund=t.buy_in, finished_at=now)


async def _pool_move(
    conn: Connection,
    t: TournamentRow,
    user_id: int,
    delta: int,
    reason: Reason,
    now: float,
    note: str,
) -> None:
    """``delta`` chips into the pool from the player's wallet (> 0: his buy-in) or out of it
    to his wallet (< 0: a refund or a prize): the pool, its row and his wallet's row."""
    if delta == 0:
        return
    if abs(delta) > MAX_AMOUNT:
        raise StoreError("a pool movement beyond the chip bound")
    if delta > 0:  # the wallet first: InsufficientChips leaves the pool alone
        await move_wallet_chips(
            conn, t.guild_id, user_id, -delta, reason, at=now, note=note, tournament_id=t.id
        )
    changed = await execute(
        conn,
        "UPDATE tournaments SET pool = pool + ? WHERE id = ? AND pool + ? >= 0",
        (delta, t.id, delta),
    )
    if changed != 1:
        raise InvalidSettlement(f"tournament #{t.id}'s pool cannot pay {-delta:,}")
    await record(
        conn,
        guild_id=t.guild_id,
        user_id=user_id,
        account=Account.POOL,
        delta=delta,
        reason=reason,
        at=now,
        note=note,
        tournament_id=t.id,
    )
    if delta < 0:
        await move_wallet_chips(
            conn, t.guild_id, user_id, -delta, reason, at=now, note=note, tournament_id=t.id
        )


# --- the start, the clock, a player's flags ----------------------------------------------


async def start_tournament(
    db: Database,
    tournament_id: int,
    seat_of: Mapping[int, int],
    *,
    button: int,
    clock: Mapping[str, Any],
    time_bank_seconds: float,
) -> TournamentRow:
    """Seat every entrant as drawn (``seat_of``: user -> seat) with the starting chips and
    start the level clock; refused unless it is registering and ``seat_of`` names exactly
    its entrants."""
    check_id(tournament_id, "tournament id")
    text = _dump(clock, "level clock")
    async with db.transaction() as conn:
        now = db.now()
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.REGISTERING)
        entries = await entries_in(conn, tournament_id)
        if {e.user_id for e in entries} != set(seat_of) or len(entries) < 2:
            raise StoreError("the seat draw must name every entrant, two at least")
        if len(set(seat_of.values())) != len(seat_of) or not all(
            isinstance(s, int) and 0 <= s < t.seats for s in seat_of.values()
        ):
            raise StoreError("each entrant needs a seat of his own at the table")
        await conn.executemany(
            "UPDATE tournament_entries SET status = 'playing', seat_no = ?, stack = ?,"
            " time_bank_seconds = ? WHERE tournament_id = ? AND user_id = ?",
            [
                (seat, t.starting_chips, time_bank_seconds, tournament_id, user)
                for user, seat in sorted(seat_of.items())
            ],
        )
        await conn.execute(
            "UPDATE tournaments SET status = 'running', entrants = ?, clock_json = ?,"
            " button_seat = ?, started_at = ? WHERE id = ?",
            (len(entries), text, button, now, tournament_id),
        )
        return await tournament_in(conn, tournament_id)

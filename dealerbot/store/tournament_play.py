"""A tournament being played: its level clock, its players' flags, each hand's settlement
with the places it decides and their prizes, and a cancellation's refunds.

Every place is written with its prize in one transaction (:func:`_decide`): the entry's
``place`` is set only where it is still NULL (and a unique index holds one player per
place), and the pool pays the prize in that transaction, so a prize is paid exactly once
however often a restart replays what led to it. When the last place is decided the pool
must be empty: the prizes add up to it exactly, or nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .db import Connection, Database, execute, fetch_one
from .errors import HandInProgress, InvalidSettlement, NotRegistered, StoreError
from .hands import live_hand_in
from .ledger import Reason
from .tables import table_in
from .tournaments import (
    EntryRow,
    EntryStatus,
    Finished,
    TournamentRow,
    TournamentStatus,
    _dump,
    _entry,
    _expect,
    _pool_move,
    entries_in,
    entry_in,
    tournament_in,
)
from .validate import MAX_AMOUNT, check_id, check_player_id

__all__ = [
    "cancel_tournament",
    "finish_players",
    "save_clock",
    "set_message",
    "settle_hand",
    "update_entry",
]


async def save_clock(
    db: Database,
    tournament_id: int,
    clock: Mapping[str, Any],
    *,
    status: TournamentStatus | None = None,
) -> TournamentRow:
    """The level clock as of now (a deal, a pause, a resume, a level move), and the status
    that goes with it (running or paused)."""
    check_id(tournament_id, "tournament id")
    if status not in (None, TournamentStatus.RUNNING, TournamentStatus.PAUSED):
        raise StoreError("the clock is saved running or paused")
    text = _dump(clock, "level clock")
    async with db.transaction() as conn:
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        new = t.status if status is None else status
        await conn.execute(
            "UPDATE tournaments SET clock_json = ?, status = ? WHERE id = ?",
            (text, new.value, tournament_id),
        )
        return await tournament_in(conn, tournament_id)


async def update_entry(
    db: Database,
    tournament_id: int,
    user_id: int,
    *,
    sitting_out: bool | None = None,
    consecutive_timeouts: int | None = None,
    time_bank_seconds: float | None = None,
    forfeit: bool | None = None,
    leave_after_hand: bool | None = None,
) -> EntryRow:
    """A player's flags and counters (never his stack); ``leave_after_hand`` is the hand
    loop's name for ``forfeit``."""
    check_id(tournament_id, "tournament id")
    check_id(user_id, "user id")
    forfeit = leave_after_hand if forfeit is None else forfeit
    changes: dict[str, object] = {}
    for name, flag in (("sitting_out", sitting_out), ("forfeit", forfeit)):
        if flag is not None:
            if not isinstance(flag, bool):
                raise StoreError(f"{name} must be True or False")
            changes[name] = int(flag)
    if consecutive_timeouts is not None:
        if not isinstance(consecutive_timeouts, int) or consecutive_timeouts < 0:
            raise StoreError("consecutive_timeouts must be a whole number >= 0")
        changes["consecutive_timeouts"] = consecutive_timeouts
    if time_bank_seconds is not None:
        if not isinstance(time_bank_seconds, int | float) or not 0 <= time_bank_seconds < 1e9:
            raise StoreError("time_bank_seconds must be a number >= 0")
        changes["time_bank_seconds"] = float(time_bank_seconds)
    async with db.reading() as conn:  # one statement: atomic on its own
        if not changes:
            return await entry_in(conn, tournament_id, user_id)
        assignments = ", ".join(f"{name} = ?" for name in changes)
        row = await fetch_one(
            conn,
            f"UPDATE tournament_entries SET {assignments} WHERE tournament_id = ? AND user_id = ?"
            " RETURNING *",
            (*changes.values(), tournament_id, user_id),
        )
    if row is None:
        raise NotRegistered(f"user {user_id} is not in tournament #{tournament_id}")
    return _entry(row)


async def set_message(db: Database, tournament_id: int, message_id: int | None) -> None:
    """Remember (or forget) the front end's lobby message."""
    check_id(tournament_id, "tournament id")
    if message_id is not None:
        check_id(message_id, "message id")
    async with db.reading() as conn:
        await conn.execute(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )


# --- a hand settled, places decided ------------------------------------------------------


async def settle_hand(
    db: Database,
    tournament_id: int,
    hand_id: int,
    deltas: Mapping[int, int],
    result: Mapping[str, Any],
    finished: Sequence[Finished],
    *,
    clock: Mapping[str, Any],
) -> TournamentRow:
    """A tournament hand's result: the stacks, the hand finished, the places it decided
    with their prizes, and the level clock, in ONE transaction (the caller's, if any).

    ``deltas`` (user id -> chips won or lost) must sum to zero and name players dealt in;
    ``finished`` are the places the service decided from them (the tournament core's)."""
    check_id(tournament_id, "tournament id")
    check_id(hand_id, "hand id")
    clean: dict[int, int] = {}
    for user_id, delta in deltas.items():
        check_player_id(user_id)
        if not isinstance(delta, int) or isinstance(delta, bool) or abs(delta) > MAX_AMOUNT:
            raise InvalidSettlement(f"the result for user {user_id} is not a chip amount")
        clean[user_id] = delta
    if sum(clean.values()) != 0:
        raise InvalidSettlement(f"hand results must sum to zero, not {sum(clean.values())}")
    result_text = _dump(result, "result")
    clock_text = _dump(clock, "level clock")
    async with db.transaction() as conn:
        now = db.now()
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        await table_in(conn, t.table_id, lock=True)
        hand = await live_hand_in(conn, hand_id)
        if hand.tournament_id != tournament_id:
            raise InvalidSettlement(f"hand #{hand.number} is not this tournament's")
        started = {s.user_id: s.stack for s in hand.seats}
        entries = {e.user_id: e for e in await entries_in(conn, tournament_id)}
        for user_id, delta in clean.items():
            entry = entries.get(user_id)
            if user_id not in started or entry is None or entry.stack != started[user_id]:
                raise InvalidSettlement(f"user {user_id} was not dealt into hand #{hand.number}")
            if entry.stack + delta < 0:
                raise InvalidSettlement(f"user {user_id} cannot lose more than his stack")
        await conn.executemany(
            "UPDATE tournament_entries SET stack = stack + ? WHERE tournament_id = ?"
            " AND user_id = ?",
            [(d, tournament_id, u) for u, d in sorted(clean.items()) if d],
        )
        await conn.execute(
            "UPDATE hands SET status = 'finished', result_json = ?, ended_at = ?,"
            " action_deadline = NULL WHERE id = ?",
            (result_text, now, hand_id),
        )
        await conn.execute(
            "UPDATE tournaments SET clock_json = ?, button_seat = ? WHERE id = ?",
            (clock_text, hand.button_seat, tournament_id),
        )
        await _decide(conn, t, finished, now)
        return await tournament_in(conn, tournament_id)


async def finish_players(
    db: Database, tournament_id: int, finished: Sequence[Finished]
) -> TournamentRow:
    """Places decided between hands (a forfeit, and the winner it leaves) with their
    prizes, in one transaction."""
    check_id(tournament_id, "tournament id")
    async with db.transaction() as conn:
        now = db.now()
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        await table_in(conn, t.table_id, lock=True)
        await _decide(conn, t, finished, now)
        return await tournament_in(conn, tournament_id)


async def _decide(
    conn: Connection, t: TournamentRow, finished: Sequence[Finished], now: float
) -> None:
    """Each place once, its prize from the pool in the same transaction; the tournament is
    over when every entrant has a place, and then the pool must be empty."""
    for f in finished:
        check_player_id(f.user_id)
        if f.status is EntryStatus.REGISTERED or not 1 <= f.place <= t.entrants:
            raise InvalidSettlement(f"place {f.place} of {t.entrants} for user {f.user_id}")
        if f.prize < 0 or f.place not in f.shares:
            raise InvalidSettlement(f"prize {f.prize} for place {f.place} shared {f.shares}")
        changed = await execute(
            conn,
            "UPDATE tournament_entries SET status = ?, place = ?, shares = ?, prize = ?,"
            " finished_at = ? WHERE tournament_id = ? AND user_id = ? AND place IS NULL"
            " AND status = 'playing'",
            (
                f.status.value,
                f.place,
                ",".join(str(p) for p in f.shares),
                f.prize,
                now,
                t.id,
                f.user_id,
            ),
        )
        if changed != 1:  # decided before (a replay) or not in play: nothing may be paid twice
            raise InvalidSettlement(f"user {f.user_id} already has a place in #{t.id}")
        await _pool_move(conn, t, f.user_id, -f.prize, Reason.PRIZE, now, _place_note(f))
    left = await fetch_one(
        conn,
        "SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ? AND place IS NULL",
        (t.id,),
    )
    if left is not None and int(left[0]) == 0:
        pool = await fetch_one(conn, "SELECT pool FROM tournaments WHERE id = ?", (t.id,))
        if pool is None or int(pool[0]) != 0:
            raise InvalidSettlement(f"tournament #{t.id} ends with chips left in its pool")
        await conn.execute(
            "UPDATE tournaments SET status = 'finished', ended_at = ? WHERE id = ?", (now, t.id)
        )


def _place_note(f: Finished) -> str:
    if len(f.shares) > 1:
        return f"tournament place {f.place} (places {f.shares[0]}-{f.shares[-1]} shared)"
    return f"tournament place {f.place}"


# --- cancelled ---------------------------------------------------------------------------


async def cancel_tournament(
    db: Database, tournament_id: int, shares: Mapping[int, int], note: str
) -> TournamentRow:
    """Call the tournament off: ``shares`` (user id -> chips) empty the pool back to the
    wallets, a refund row each (before the start: every buy-in; after it: the pool left,
    split by the service in proportion to the chips in play). Refused while one of its
    hands is being played (cancel that hand first)."""
    check_id(tournament_id, "tournament id")
    if not isinstance(note, str) or not note.strip():
        raise StoreError("a cancelled tournament needs a reason")
    async with db.transaction() as conn:
        now = db.now()
        t = await tournament_in(conn, tournament_id, lock=True)
        _expect(t, TournamentStatus.REGISTERING, TournamentStatus.RUNNING, TournamentStatus.PAUSED)
        await table_in(conn, t.table_id, lock=True)
        live = await fetch_one(
            conn,
            "SELECT number FROM hands WHERE tournament_id = ? AND status = 'in_progress'",
            (tournament_id,),
        )
        if live is not None:
            raise HandInProgress(f"hand #{live[0]} of the tournament is being played")
        entries = {e.user_id: e for e in await entries_in(conn, tournament_id)}
        if sum(shares.values()) != t.pool or any(v < 0 for v in shares.values()):
            raise InvalidSettlement(f"the shares must empty the pool of {t.pool:,}")
        for user_id, chips in sorted(shares.items()):
            if user_id not in entries or entries[user_id].place is not None:
                raise InvalidSettlement(f"user {user_id} has no share of tournament #{t.id}")
            await _pool_move(conn, t, user_id, -chips, Reason.REFUND, now, note.strip()[:200])
            await conn.execute(
                "UPDATE tournament_entries SET refund = refund + ? WHERE tournament_id = ?"
                " AND user_id = ?",
                (chips, tournament_id, user_id),
            )
        await conn.execute(
            "UPDATE tournament_entries SET finished_at = ? WHERE tournament_id = ?"
            " AND finished_at IS NULL",
            (now, tournament_id),
        )
        await conn.execute(
            "UPDATE tournaments SET status = 'cancelled', ended_at = ?, note = ? WHERE id = ?",
            (now, note.strip()[:200], tournament_id),
        )
        return await tournament_in(conn, tournament_id)

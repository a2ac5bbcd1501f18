"""The house bankroll and the house players' seats (issue 20), as rows.

A guild's house bankroll is the wallet of :data:`~.validate.HOUSE_BANK_ID`: the ledger's
``wallet`` account of that id, so every chip in it is a ledger row and the audit checks it
as it checks a member's wallet. It starts empty (no starting grant) and grows only by a
fund (:func:`fund`: an ``admin`` row, chips from nothing, as an admin grant) and by house
players cashing out. A house player (one of :data:`~.validate.HOUSE_PLAYER_IDS`) buys in
from the bankroll: a bankroll ``wallet`` row -X and the player's ``table`` row +X, in the
transaction that creates the seat, as a member's buy-in moves his wallet; its cash-out goes
back to the bankroll (:func:`.seats.cash_out_in`). Each house player has a wallet row of
its own that always holds 0 chips (the seats' foreign key and their ``table_chips``
triggers need it). No house wallet counts as a player: the leaderboard, its page count and
the winnings boards skip ids below 1.

The bankroll's result by day and game is read from the house players' ``hand_players``
rows, which settlement writes as for anyone; the rollups (player_days, winnings) skip them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import ensure_guild
from .db import Connection, Database, fetch_all, fetch_one
from .errors import StoreError
from .ledger import Account, Reason, record
from .seats import SeatRow, check_seat_no, display_name_of, free_seat_in, seat_in
from .validate import HOUSE_BANK_ID, check_amount, check_id, is_house_player_id
from .wallets import MAX_NOTE, move_wallet_chips, wallet_in

# Negative ids are the house's (validate.py); hand_players rows of members only: > 0.
MEMBERS_ONLY = "user_id > 0"


@dataclass(frozen=True, slots=True)
class HouseDay:
    """The house players' result on one UTC day in one game: hands played, chips won (+) or
    lost (-) by the house."""

    day: int  # days since 1970-01-01 (UTC), as the stats rows key them
    variant: str
    hands: int
    net: int


@dataclass(frozen=True, slots=True)
class HouseBook:
    """A guild's house bankroll: chips in it, chips its players hold at tables now, what was
    funded, and the result by day and game (newest day first)."""

    guild_id: int
    balance: int
    at_tables: int
    funded: int
    days: tuple[HouseDay, ...]

    @property
    def net(self) -> int:
        """What the house players have won (+) or lost (-) over every day listed."""
        return sum(day.net for day in self.days)


async def ensure_house_wallet(conn: Connection, guild_id: int, user_id: int, now: float) -> None:
    """The bankroll's or a house player's wallet row, created empty (no grant) if new."""
    await ensure_guild(conn, guild_id, now)
    await conn.execute(
        "INSERT INTO wallets (guild_id, user_id, chips, net_worth, created_at)"
        " VALUES (?, ?, 0, 0, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id, now),
    )


async def balance_in(conn: Connection, guild_id: int) -> int:
    wallet = await wallet_in(conn, guild_id, HOUSE_BANK_ID)
    return 0 if wallet is None else wallet.chips


async def fund(db: Database, guild_id: int, amount: int, *, note: str = "") -> int:
    """Add ``amount`` chips to the bankroll from nothing (an ``admin`` ledger row, as an
    admin grant); the new balance."""
    check_id(guild_id, "guild id")
    check_amount(amount)
    if not isinstance(note, str):
        raise StoreError("the note must be text")
    text = ("house fund " + note.strip()).strip()[:MAX_NOTE]
    async with db.transaction() as conn:
        now = db.now()
        await ensure_house_wallet(conn, guild_id, HOUSE_BANK_ID, now)
        await move_wallet_chips(
            conn, guild_id, HOUSE_BANK_ID, amount, Reason.ADMIN, at=now, note=text
        )
        return await balance_in(conn, guild_id)


async def sit_down_house(
    db: Database,
    table_id: int,
    user_id: int,
    display_name: str,
    buy_in: int,
    *,
    seat_no: int,
    time_bank_seconds: float,
) -> SeatRow:
    """Seat house player ``user_id`` with ``buy_in`` chips from the bankroll, in one
    transaction; InsufficientChips when the bankroll holds less."""
    check_id(table_id, "table id")
    if not is_house_player_id(user_id):
        raise StoreError(f"{user_id!r} is not a house player's id")
    name = display_name_of(display_name)
    check_amount(buy_in, "buy-in")
    check_seat_no(seat_no)
    async with db.transaction() as conn:
        now = db.now()
        table = await free_seat_in(
            conn, table_id, user_id, seat_no, who="that house player already has"
        )
        guild = table.guild_id
        await ensure_house_wallet(conn, guild, HOUSE_BANK_ID, now)
        await ensure_house_wallet(conn, guild, user_id, now)
        note = f"house player sat down at table {table_id}"
        await move_wallet_chips(
            conn, guild, HOUSE_BANK_ID, -buy_in, Reason.BUY_IN, at=now, note=note
        )
        await record(
            conn,
            guild_id=guild,
            user_id=user_id,
            account=Account.TABLE,
            table_id=table_id,
            delta=buy_in,
            reason=Reason.BUY_IN,
            at=now,
        )
        await conn.execute(
            "INSERT INTO seats (table_id, seat_no, guild_id, user_id, display_name, stack,"
            " time_bank_seconds, joined_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat_no, guild, user_id, name, buy_in,
             time_bank_seconds, now),
        )  # fmt: skip
        return await seat_in(conn, table_id, user_id)


async def balance(db: Database, guild_id: int) -> int:
    """The chips in the guild's bankroll now (0 before it was first funded)."""
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        return await balance_in(conn, guild_id)


async def book(db: Database, guild_id: int, *, days: int = 30) -> HouseBook:
    """The bankroll, the house's chips at tables, what was funded, and the house players'
    result per day and game over the last ``days`` days that had house hands."""
    check_id(guild_id, "guild id")
    limit = max(1, min(int(days), 3660))
    async with db.reading() as conn:
        held = await balance_in(conn, guild_id)
        seated = await fetch_one(
            conn,
            "SELECT COALESCE(SUM(table_chips), 0) FROM wallets WHERE guild_id = ? AND user_id < 0",
            (guild_id,),
        )
        funded = await fetch_one(
            conn,
            "SELECT COALESCE(SUM(delta), 0) FROM ledger"
            " WHERE guild_id = ? AND user_id = ? AND reason = 'admin'",
            (guild_id, HOUSE_BANK_ID),
        )
        recent = await fetch_all(
            conn,
            "SELECT DISTINCT day FROM hand_players WHERE guild_id = ? AND user_id < 0"
            " ORDER BY day DESC LIMIT ?",
            (guild_id, limit),
        )
        rows = []
        if recent:
            first = min(int(r[0]) for r in recent)
            rows = await fetch_all(
                conn,
                "SELECT day, variant, COUNT(DISTINCT hand_id), SUM(net) FROM hand_players"
                " WHERE guild_id = ? AND user_id < 0 AND day >= ?"
                " GROUP BY day, variant ORDER BY day DESC, variant",
                (guild_id, first),
            )
    return HouseBook(
        guild_id,
        held,
        int(seated[0]) if seated is not None else 0,
        int(funded[0]) if funded is not None else 0,
        tuple(HouseDay(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows),
    )

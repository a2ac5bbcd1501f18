"""Wallets per (guild, user): creation with the starting grant, daily bonus, admin changes.

Chips leave a wallet in one conditional statement (``... WHERE chips >= ?``) whose row count
says whether there were enough; the ledger row is written in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import economy_in, ensure_guild
from .db import Connection, Database, Row, execute, fetch_one
from .errors import DailyNotReady, InsufficientChips, NoWallet, StoreError
from .ledger import Account, Reason, record
from .validate import check_amount, check_id

MAX_NOTE = 200


@dataclass(frozen=True, slots=True)
class Wallet:
    guild_id: int
    user_id: int
    chips: int  # in the wallet
    table_chips: int  # in seat stacks at this guild's tables
    net_worth: int  # chips + table_chips: what the leaderboard ranks
    last_daily_at: float | None
    created_at: float


@dataclass(frozen=True, slots=True)
class DailyClaim:
    amount: int
    wallet: Wallet
    next_claim_at: float


_SELECT = (
    "SELECT guild_id, user_id, chips, table_chips, net_worth, last_daily_at, created_at"
    " FROM wallets WHERE guild_id = ? AND user_id = ?"
)


def _wallet(row: Row) -> Wallet:
    return Wallet(*row)


async def wallet_in(conn: Connection, guild_id: int, user_id: int) -> Wallet | None:
    row = await fetch_one(conn, _SELECT, (guild_id, user_id))
    return None if row is None else _wallet(row)


async def ensure_wallet(conn: Connection, guild_id: int, user_id: int, now: float) -> Wallet:
    """The wallet, created with the guild's starting balance and its 'grant' row if new."""
    existing = await wallet_in(conn, guild_id, user_id)
    if existing is not None:
        return existing
    await ensure_guild(conn, guild_id, now)
    start = (await economy_in(conn, guild_id)).starting_chips
    # A concurrent transaction (PostgreSQL) may have created it since: then no grant here.
    created = await execute(
        conn,
        "INSERT INTO wallets (guild_id, user_id, chips, net_worth, created_at)"
        " VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
        (guild_id, user_id, start, start, now),
    )
    if start and created:
        await record(
            conn,
            guild_id=guild_id,
            user_id=user_id,
            account=Account.WALLET,
            delta=start,
            reason=Reason.GRANT,
            at=now,
            note="starting chips",
        )
    wallet = await wallet_in(conn, guild_id, user_id)
    assert wallet is not None
    return wallet


async def move_wallet_chips(
    conn: Connection,
    guild_id: int,
    user_id: int,
    delta: int,
    reason: Reason,
    *,
    at: float,
    hand_id: int | None = None,
    note: str = "",
    tournament_id: int | None = None,
) -> None:
    """Add (delta > 0) or take (delta < 0) wallet chips plus the ledger row; never overdraws.

    Call inside a transaction, after :func:`ensure_wallet`.
    """
    if delta < 0:
        changed = await execute(
            conn,
            "UPDATE wallets SET chips = chips - ?, net_worth = net_worth - ?"
            " WHERE guild_id = ? AND user_id = ? AND chips >= ?",
            (-delta, -delta, guild_id, user_id, -delta),
        )
        if changed != 1:
            wallet = await wallet_in(conn, guild_id, user_id)
            raise InsufficientChips(-delta, wallet.chips if wallet else 0)
    else:
        changed = await execute(
            conn,
            "UPDATE wallets SET chips = chips + ?, net_worth = net_worth + ?"
            " WHERE guild_id = ? AND user_id = ?",
            (delta, delta, guild_id, user_id),
        )
        if changed != 1:
            raise NoWallet(f"no wallet for user {user_id} in guild {guild_id}")
    await record(
        conn,
        guild_id=guild_id,
        user_id=user_id,
        account=Account.WALLET,
        delta=delta,
        reason=reason,
        at=at,
        hand_id=hand_id,
        note=note,
        tournament_id=tournament_id,
    )


def _note(note: object) -> str:
    if not isinstance(note, str):
        raise StoreError("the note must be text")
    return note.strip()[:MAX_NOTE]


async def get_wallet(db: Database, guild_id: int, user_id: int) -> Wallet:
    """The player's wallet in this guild, created with the starting balance if new."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    async with db.reading() as conn:
        found = await wallet_in(conn, guild_id, user_id)
    if found is not None:
        return found
    async with db.transaction() as conn:
        return await ensure_wallet(conn, guild_id, user_id, db.now())


async def find_wallet(db: Database, guild_id: int, user_id: int) -> Wallet | None:
    """The wallet if it exists; never creates one."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    async with db.reading() as conn:
        return await wallet_in(conn, guild_id, user_id)


async def claim_daily(db: Database, guild_id: int, user_id: int) -> DailyClaim:
    """Add the guild's daily bonus once per cooldown; DailyNotReady says when to come back."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    async with db.transaction() as conn:
        now = db.now()
        await ensure_wallet(conn, guild_id, user_id, now)
        locked = await fetch_one(conn, _SELECT + conn.lock_suffix, (guild_id, user_id))
        assert locked is not None
        wallet = _wallet(locked)
        economy = await economy_in(conn, guild_id)
        if wallet.last_daily_at is not None:
            ready = wallet.last_daily_at + economy.daily_cooldown_seconds
            if now < ready:
                raise DailyNotReady(ready, now)
        await conn.execute(
            "UPDATE wallets SET last_daily_at = ? WHERE guild_id = ? AND user_id = ?",
            (now, guild_id, user_id),
        )
        if economy.daily_chips:
            await move_wallet_chips(
                conn,
                guild_id,
                user_id,
                economy.daily_chips,
                Reason.DAILY,
                at=now,
                note="daily bonus",
            )
        updated = await wallet_in(conn, guild_id, user_id)
        assert updated is not None
    return DailyClaim(economy.daily_chips, updated, now + economy.daily_cooldown_seconds)


async def admin_give(
    db: Database, guild_id: int, user_id: int, amount: int, *, note: str = ""
) -> Wallet:
    """An administrator adds chips to a wallet (an 'admin' ledger row)."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    check_amount(amount)
    text = _note(note)
    async with db.transaction() as conn:
        now = db.now()
        await ensure_wallet(conn, guild_id, user_id, now)
        await move_wallet_chips(conn, guild_id, user_id, amount, Reason.ADMIN, at=now, note=text)
        wallet = await wallet_in(conn, guild_id, user_id)
    assert wallet is not None
    return wallet


async def admin_take(
    db: Database, guild_id: int, user_id: int, amount: int, *, note: str = ""
) -> Wallet:
    """An administrator removes chips; refused (InsufficientChips) beyond the wallet's balance.

    Chips in seat stacks cannot be taken: they are in play.
    """
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    check_amount(amount)
    text = _note(note)
    async with db.transaction() as conn:
        now = db.now()
        wallet = await wallet_in(conn, guild_id, user_id)
        if wallet is None:
            raise InsufficientChips(amount, 0)
        if wallet.chips < amount:
            raise InsufficientChips(amount, wallet.chips)
        await move_wallet_chips(conn, guild_id, user_id, -amount, Reason.ADMIN, at=now, note=text)
        wallet = await wallet_in(conn, guild_id, user_id)
    assert wallet is not None
    return wallet

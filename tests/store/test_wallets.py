"""Wallets: starting grant, daily bonus, admin give/take, no overdraw under concurrency."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from dealerbot.store import config, ledger, tables, wallets
from dealerbot.store.audit import audit
from dealerbot.store.config import EconomyRow
from dealerbot.store.db import Database
from dealerbot.store.errors import (
    DailyNotReady,
    InsufficientChips,
    InvalidAmount,
    InvalidId,
    StoreError,
)
from dealerbot.store.ledger import Account, Reason
from dealerbot.store.opening import open_database

from .conftest import ALICE, BOB, CHANNEL, GUILD, FakeClock, sit, snapshot


async def test_new_wallet_gets_starting_chips_as_a_grant(db: Database) -> None:
    assert await wallets.find_wallet(db, GUILD, ALICE) is None
    wallet = await wallets.get_wallet(db, GUILD, ALICE)
    assert (wallet.chips, wallet.table_chips, wallet.net_worth) == (1000, 0, 1000)
    again = await wallets.get_wallet(db, GUILD, ALICE)
    assert again == wallet
    rows = await ledger.entries(db, GUILD, ALICE)
    assert [(r.account, r.delta, r.reason) for r in rows] == [(Account.WALLET, 1000, Reason.GRANT)]


async def test_each_guild_is_its_own_economy(db: Database) -> None:
    other = GUILD + 1
    await config.put_economy(db, other, EconomyRow(250, 100, 86_400))
    await wallets.admin_give(db, GUILD, ALICE, 5)
    assert (await wallets.get_wallet(db, GUILD, ALICE)).chips == 1005
    assert (await wallets.get_wallet(db, other, ALICE)).chips == 250


async def test_daily_bonus_respects_cooldown(db: Database, clock: FakeClock) -> None:
    await config.put_economy(db, GUILD, EconomyRow(1000, 75, 3600))
    claim = await wallets.claim_daily(db, GUILD, ALICE)
    assert claim.amount == 75
    assert claim.wallet.chips == 1075
    assert claim.next_claim_at == clock.now + 3600
    clock.advance(3599)
    before = await snapshot(db)
    with pytest.raises(DailyNotReady) as info:
        await wallets.claim_daily(db, GUILD, ALICE)
    assert info.value.retry_at == claim.next_claim_at
    assert info.value.retry_at - info.value.now == 1  # the service words the wait
    assert await snapshot(db) == before
    clock.advance(1)
    assert (await wallets.claim_daily(db, GUILD, ALICE)).wallet.chips == 1150
    reasons = [r.reason for r in await ledger.entries(db, GUILD, ALICE)]
    assert reasons == [Reason.DAILY, Reason.DAILY, Reason.GRANT]


async def test_admin_give_and_take_are_logged(db: Database) -> None:
    assert (await wallets.admin_give(db, GUILD, ALICE, 500, note="prize")).chips == 1500
    assert (await wallets.admin_take(db, GUILD, ALICE, 1200, note="oops")).chips == 300
    rows = await ledger.entries(db, GUILD, ALICE)
    assert [(r.delta, r.reason, r.note) for r in rows] == [
        (-1200, Reason.ADMIN, "oops"),
        (500, Reason.ADMIN, "prize"),
        (1000, Reason.GRANT, "starting chips"),
    ]
    assert (await audit(db)).ok


async def test_admin_take_beyond_balance_is_refused(db: Database) -> None:
    await wallets.get_wallet(db, GUILD, ALICE)
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, ALICE, "Alice", 900)
    before = await snapshot(db)
    with pytest.raises(InsufficientChips) as info:
        await wallets.admin_take(db, GUILD, ALICE, 101)
    assert (info.value.needed, info.value.available) == (101, 100)
    with pytest.raises(InsufficientChips):
        await wallets.admin_take(db, GUILD, BOB, 1)  # no wallet at all
    assert await snapshot(db) == before


@pytest.mark.parametrize("amount", [0, -5, 1.5, "10", True, None, 10**13, 2**70])
async def test_bad_amounts_change_nothing(db: Database, amount: object) -> None:
    await wallets.get_wallet(db, GUILD, ALICE)
    before = await snapshot(db)
    for call in (wallets.admin_give, wallets.admin_take):
        with pytest.raises(InvalidAmount):
            await call(db, GUILD, ALICE, amount)  # type: ignore[arg-type]
    assert await snapshot(db) == before


@pytest.mark.parametrize("bad_id", [0, -1, 2**63, "123", 1.0, None, False])
async def test_bad_ids_are_refused(db: Database, bad_id: object) -> None:
    with pytest.raises(InvalidId):
        await wallets.get_wallet(db, bad_id, ALICE)  # type: ignore[arg-type]
    with pytest.raises(InvalidId):
        await wallets.admin_give(db, GUILD, bad_id, 10)  # type: ignore[arg-type]


async def test_largest_discord_ids_round_trip(db: Database) -> None:
    guild, user = 2**63 - 1, 2**63 - 2
    wallet = await wallets.get_wallet(db, guild, user)
    assert (wallet.guild_id, wallet.user_id) == (guild, user)


async def test_concurrent_buy_ins_never_overdraw(db_path: Path, clock: FakeClock) -> None:
    """Two connections (as two processes would) race 24 buy-ins of 150 against 1,000 chips."""
    first = await open_database(db_path, clock=clock)
    second = await open_database(db_path, clock=clock)
    try:
        await wallets.get_wallet(first, GUILD, ALICE)
        table_ids = [(await tables.open_table(first, GUILD, CHANNEL + i)).id for i in range(24)]

        async def buy(i: int, table_id: int) -> bool:
            db = first if i % 2 else second
            try:
                await sit(db, table_id, ALICE, "Alice", 150)
            except InsufficientChips:
                return False
            return True

        results = await asyncio.gather(*(buy(i, t) for i, t in enumerate(table_ids)))
        assert sum(results) == 6  # 6 * 150 = 900 <= 1000 < 7 * 150
        wallet = await wallets.get_wallet(first, GUILD, ALICE)
        assert (wallet.chips, wallet.table_chips) == (100, 900)
        report = await audit(second)
        assert report.ok, report.render()
    finally:
        await first.close()
        await second.close()


async def test_concurrent_admin_takes_never_overdraw(db_path: Path, clock: FakeClock) -> None:
    dbs = [await open_database(db_path, clock=clock) for _ in range(3)]
    try:
        await wallets.get_wallet(dbs[0], GUILD, BOB)

        async def take(i: int) -> bool:
            try:
                await wallets.admin_take(dbs[i % 3], GUILD, BOB, 70)
            except InsufficientChips:
                return False
            return True

        results = await asyncio.gather(*(take(i) for i in range(30)))
        assert sum(results) == 14  # 14 * 70 = 980
        assert (await wallets.get_wallet(dbs[1], GUILD, BOB)).chips == 20
        assert (await audit(dbs[2])).ok
    finally:
        for d in dbs:
            await d.close()


async def test_ledger_refuses_updates_and_deletes(db: Database) -> None:
    await wallets.get_wallet(db, GUILD, ALICE)
    for sql in ("UPDATE ledger SET delta = 5", "DELETE FROM ledger"):
        with pytest.raises(Exception, match="append-only"):
            async with db.transaction() as conn:
                await conn.execute(sql)


async def test_note_must_be_text(db: Database) -> None:
    with pytest.raises(StoreError):
        await wallets.admin_give(db, GUILD, ALICE, 5, note=5)  # type: ignore[arg-type]

"""The house bankroll and house seats in the store (issue 20), on both backends: a fund is
one 'admin' row, a house buy-in and cash-out move the bankroll's wallet with a ledger row
each, a short bankroll seats nobody and changes nothing, and no house wallet is a player
(leaderboard, its page count, ranks)."""

from __future__ import annotations

import pytest

from dealerbot.store import audit as audit_db
from dealerbot.store import house as house_db
from dealerbot.store import leaderboard as leaderboard_db
from dealerbot.store import seats as seats_db
from dealerbot.store import tables as tables_db
from dealerbot.store import wallets as wallets_db
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.errors import InsufficientChips, InvalidAmount, InvalidId, StoreError
from dealerbot.store.validate import HOUSE_BANK_ID, HOUSE_PLAYER_IDS, is_id, is_player_id

from .conftest import ALICE, CHANNEL, GUILD, snapshot

ACE, BEA = HOUSE_PLAYER_IDS[:2]


async def open_table(db: Database) -> int:
    await tables_db.open_table(db, GUILD, CHANNEL)
    record = await tables_db.find_table(db, GUILD, CHANNEL)
    assert record is not None
    return record.id


async def ledger(db: Database) -> list[tuple[object, ...]]:
    async with db.reading() as conn:
        rows = await fetch_all(
            conn, "SELECT user_id, account, delta, reason FROM ledger ORDER BY id"
        )
    return [tuple(row) for row in rows]


def test_house_ids_are_never_discord_ids() -> None:
    assert not any(is_id(user) for user in (HOUSE_BANK_ID, *HOUSE_PLAYER_IDS))
    assert all(is_player_id(user) for user in HOUSE_PLAYER_IDS)
    assert not is_player_id(HOUSE_BANK_ID)  # the bankroll never sits
    assert not is_player_id(-100) and is_player_id(ALICE)


async def test_fund_buy_in_and_cash_out_are_ledger_rows(db: Database) -> None:
    table = await open_table(db)
    assert await house_db.balance(db, GUILD) == 0
    assert await house_db.fund(db, GUILD, 500, note="start") == 500
    seat = await house_db.sit_down_house(
        db, table, ACE, "Ace (house)", 200, seat_no=1, time_bank_seconds=0
    )
    assert (seat.user_id, seat.stack, seat.display_name) == (ACE, 200, "Ace (house)")
    assert await house_db.balance(db, GUILD) == 300
    cash = await seats_db.stand_up(db, table, ACE)
    assert cash.amount == 200 and cash.wallet.user_id == HOUSE_BANK_ID
    assert await house_db.balance(db, GUILD) == 500
    assert await ledger(db) == [
        (HOUSE_BANK_ID, "wallet", 500, "admin"),
        (HOUSE_BANK_ID, "wallet", -200, "buy_in"),
        (ACE, "table", 200, "buy_in"),
        (ACE, "table", -200, "cash_out"),
        (HOUSE_BANK_ID, "wallet", 200, "cash_out"),
    ]
    book = await house_db.book(db, GUILD)
    assert (book.balance, book.at_tables, book.funded, book.days) == (500, 0, 500, ())
    report = await audit_db.audit(db)
    assert report.ok, report.render()


async def test_a_short_bankroll_seats_nobody_and_changes_nothing(db: Database) -> None:
    table = await open_table(db)
    await house_db.fund(db, GUILD, 150)
    before = await snapshot(db)
    with pytest.raises(InsufficientChips):
        await house_db.sit_down_house(
            db, table, ACE, "Ace (house)", 200, seat_no=0, time_bank_seconds=0
        )
    assert await snapshot(db) == before


@pytest.mark.parametrize("amount", [0, -1, 10**12 + 1, True, "5"])
async def test_a_bad_fund_is_refused(db: Database, amount: object) -> None:
    await house_db.fund(db, GUILD, 10)
    before = await snapshot(db)
    with pytest.raises(InvalidAmount):
        await house_db.fund(db, GUILD, amount)  # type: ignore[arg-type]
    assert await snapshot(db) == before


async def test_only_house_ids_sit_from_the_bankroll(db: Database) -> None:
    table = await open_table(db)
    await house_db.fund(db, GUILD, 500)
    for user in (ALICE, HOUSE_BANK_ID):
        with pytest.raises(StoreError):
            await house_db.sit_down_house(
                db, table, user, "Mallory", 100, seat_no=0, time_bank_seconds=0
            )
    with pytest.raises(InvalidId):  # and no member's path takes a house id
        await wallets_db.admin_give(db, GUILD, ACE, 100)


async def test_no_house_wallet_is_ranked_or_counted(db: Database) -> None:
    table = await open_table(db)
    await wallets_db.get_wallet(db, GUILD, ALICE)  # 1,000 starting chips
    await house_db.fund(db, GUILD, 100_000)
    for seat_no, user in enumerate((ACE, BEA)):
        await house_db.sit_down_house(
            db, table, user, "house", 5000, seat_no=seat_no, time_bank_seconds=0
        )
    page = await leaderboard_db.page(db, GUILD)
    assert [e.user_id for e in page.entries] == [ALICE]
    assert (page.total_players, page.pages) == (1, 1)
    assert [e.user_id for e in await leaderboard_db.top(db, GUILD)] == [ALICE]
    alice = await leaderboard_db.rank_of(db, GUILD, ALICE)
    assert alice is not None and alice.rank == 1  # the richer house wallets are not ahead
    assert await leaderboard_db.page_of_user(db, GUILD, ALICE) == 1
    report = await audit_db.audit(db)
    assert report.ok, report.render()  # wallet_count: members only, as the trigger keeps it

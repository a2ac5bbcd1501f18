"""The tournament rows on both backends: the buy-in from the wallet to the pool in one
transaction with its ledger rows, refusals that change nothing, a hand's settlement with the
places it decides and their prizes (paid once: a replay is refused whole), the pool emptied
exactly at the end, cancellation, a player's record and the board, and the audit of every
pool (it catches a pool, a prize or a stack out of step)."""

from __future__ import annotations

import random

import pytest

from dealerbot.engine.cards import deck_commitment, shuffled_deck
from dealerbot.store import hands, tables, wallets
from dealerbot.store import tournament_play as play
from dealerbot.store import tournament_results as results
from dealerbot.store import tournaments as tdb
from dealerbot.store.audit import audit
from dealerbot.store.db import Database
from dealerbot.store.errors import (
    AlreadyRegistered,
    HandInProgress,
    InsufficientChips,
    InvalidSettlement,
    LiveTournament,
    NotRegistered,
    TournamentFull,
    TournamentNotOpen,
)
from dealerbot.store.hands import HandSeat
from dealerbot.store.tournaments import EntryStatus, Finished, TournamentStatus

from .conftest import ALICE, BOB, CAROL, CHANNEL, CONFIG, GUILD, FakeClock, snapshot

CLOCK = {"version": 1, "level_seconds": 60, "from_level": 1, "from_elapsed": 0.0,
         "elapsed": 0.0, "running": True, "dealt": None}  # fmt: skip


async def new_tournament(db: Database, seats: int = 3, buy_in: int = 100) -> tdb.TournamentRow:
    table = await tables.open_table(db, GUILD, CHANNEL)
    return await tdb.create_tournament(
        db, GUILD, CHANNEL, table.id, settings={"any": "thing"}, seats=seats, buy_in=buy_in,
        starting_chips=500, created_by=ALICE,
    )  # fmt: skip


async def audited(db: Database) -> None:
    report = await audit(db)
    assert report.ok, report.render()


async def pool_of(db: Database, tid: int) -> int:
    return (await tdb.get_tournament(db, tid)).pool


async def started(db: Database) -> tdb.TournamentRow:
    t = await new_tournament(db)
    for user in (ALICE, BOB, CAROL):
        await tdb.register(db, t.id, user, f"u{user}")
    seat_of = {ALICE: 0, BOB: 1, CAROL: 2}
    return await tdb.start_tournament(
        db, t.id, seat_of, button=2, clock=CLOCK, time_bank_seconds=30
    )


async def deal(db: Database, t: tdb.TournamentRow, users: list[int]) -> hands.HandRecord:
    entries = {e.user_id: e for e in await tdb.get_entries(db, t.id)}
    seats = [HandSeat(entries[u].seat_no or 0, u, f"u{u}", entries[u].stack) for u in users]
    deck = shuffled_deck(random.Random(3))
    return await hands.start_hand(
        db, t.table_id, config=CONFIG, seats=seats, deck=deck, salt=b"s" * 16,
        commitment=deck_commitment(deck, b"s" * 16), button_seat=2, tournament=(t.id, 1),
    )  # fmt: skip


async def test_registration_moves_the_buy_in_to_the_pool_in_one_transaction(
    db: Database,
) -> None:
    t = await new_tournament(db, seats=2)
    entry = await tdb.register(db, t.id, ALICE, "alice")
    assert entry.status is EntryStatus.REGISTERED and await pool_of(db, t.id) == 100
    assert (await wallets.get_wallet(db, GUILD, ALICE)).chips == 900
    await audited(db)
    before = await snapshot(db)
    with pytest.raises(AlreadyRegistered):
        await tdb.register(db, t.id, ALICE, "alice")
    await wallets.get_wallet(db, GUILD, BOB)
    await wallets.admin_take(db, GUILD, BOB, 950)
    before = await snapshot(db)
    with pytest.raises(InsufficientChips):
        await tdb.register(db, t.id, BOB, "bob")
    assert await snapshot(db) == before  # no pool row, no entry, no wallet row
    await tdb.register(db, t.id, CAROL, "carol")
    before = await snapshot(db)
    with pytest.raises(TournamentFull):
        await tdb.register(db, t.id, BOB, "bob")
    with pytest.raises(NotRegistered):
        await tdb.unregister(db, t.id, BOB)
    with pytest.raises(LiveTournament):
        await new_tournament(db)
    assert await snapshot(db) == before
    gone = await tdb.unregister(db, t.id, CAROL)
    assert gone.refund == 100 and await pool_of(db, t.id) == 100
    assert (await wallets.get_wallet(db, GUILD, CAROL)).chips == 1000
    await audited(db)


async def test_a_hand_settles_with_its_places_and_prizes_paid_once(
    db: Database, clock: FakeClock
) -> None:
    t = await started(db)
    with pytest.raises(TournamentNotOpen):
        await tdb.register(db, t.id, 300_000_000_000_000_009, "late")
    hand = await deal(db, t, [ALICE, BOB, CAROL])
    bust = [Finished(CAROL, 3, (3,), 0, EntryStatus.BUSTED)]
    await play.settle_hand(
        db, t.id, hand.id, {ALICE: 500, BOB: 0, CAROL: -500}, {}, bust, clock=CLOCK
    )
    entries = {e.user_id: e for e in await tdb.get_entries(db, t.id)}
    assert (entries[ALICE].stack, entries[CAROL].stack, entries[CAROL].place) == (1000, 0, 3)
    await audited(db)
    # A replay of the same places (a restart that settles again) is refused whole.
    hand2 = await deal(db, t, [ALICE, BOB])
    before = await snapshot(db)
    with pytest.raises(InvalidSettlement, match="already has a place"):
        await play.settle_hand(db, t.id, hand2.id, {ALICE: 0, BOB: 0}, {}, bust, clock=CLOCK)
    # The last place must empty the pool exactly, or nothing is written.
    short = [
        Finished(BOB, 2, (2,), 0, EntryStatus.BUSTED),
        Finished(ALICE, 1, (1,), 299, EntryStatus.PLAYING),
    ]
    with pytest.raises(InvalidSettlement, match="chips left in its pool"):
        await play.settle_hand(db, t.id, hand2.id, {ALICE: 500, BOB: -500}, {}, short, clock=CLOCK)
    assert await snapshot(db) == before
    done = [short[0], Finished(ALICE, 1, (1,), 300, EntryStatus.PLAYING)]
    row = await play.settle_hand(db, t.id, hand2.id, {ALICE: 500, BOB: -500}, {}, done, clock=CLOCK)
    assert row.status is TournamentStatus.FINISHED and row.pool == 0
    assert (await wallets.get_wallet(db, GUILD, ALICE)).chips == 900 + 300
    await audited(db)
    record = await results.player_record(db, GUILD, ALICE)
    assert record == results.TournamentTotals(played=1, cashes=1, wins=1, net=200)
    board = await results.board(db, GUILD)
    assert [(r.user_id, r.net) for r in board] == [(ALICE, 200), (BOB, -100), (CAROL, -100)]
    assert await results.player_record(db, GUILD, ALICE, since=clock.now + 1) == (
        results.TournamentTotals(0, 0, 0, 0)
    )


async def test_a_tournament_hand_is_no_cash_hand(db: Database) -> None:
    t = await started(db)
    hand = await deal(db, t, [ALICE, BOB, CAROL])
    with pytest.raises(InvalidSettlement, match="tournament hand"):
        await hands.settle_hand(db, hand.id, {ALICE: 5, BOB: -5}, {})
    await hands.cancel_hand(db, hand.id, reason="test", committed={ALICE: 5})
    rows = await _rows(db, "SELECT COUNT(*) FROM ledger WHERE hand_id = ?", (hand.id,))
    assert rows == [(0,)]  # tournament chips: no ledger row, not even a zero one
    await audited(db)


async def test_cancellation_empties_the_pool_and_the_audit_catches_what_is_out_of_step(
    db: Database,
) -> None:
    t = await started(db)
    with pytest.raises(InvalidSettlement):
        await play.cancel_tournament(db, t.id, {ALICE: 100, BOB: 100}, "short")
    hand = await deal(db, t, [ALICE, BOB, CAROL])
    with pytest.raises(HandInProgress):
        await play.cancel_tournament(db, t.id, {ALICE: 100, BOB: 100, CAROL: 100}, "now")
    await hands.cancel_hand(db, hand.id, reason="host", committed={})
    row = await play.cancel_tournament(db, t.id, {ALICE: 150, BOB: 100, CAROL: 50}, "host")
    assert row.status is TournamentStatus.CANCELLED and row.pool == 0
    assert (await wallets.get_wallet(db, GUILD, ALICE)).chips == 1050
    await audited(db)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_entries SET stack = stack + 1 WHERE user_id = ?", (ALICE,)
        )
    report = await audit(db)
    assert not report.ok and "chips in play" in report.render()
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE tournament_entries SET stack = stack - 1, prize = 5 WHERE user_id = ?", (ALICE,)
        )
    report = await audit(db)
    assert not report.ok and "his entry says" in report.render()
    async with db.transaction() as conn:
        await conn.execute("UPDATE tournament_entries SET prize = 0 WHERE user_id = ?", (ALICE,))
        await conn.execute("UPDATE tournaments SET pool = 7 WHERE id = ?", (t.id,))
    report = await audit(db)
    text = report.render()
    assert "the pool holds 7, its ledger rows say 0" in text and "cancelled with 7 chips" in text


async def _rows(db: Database, sql: str, params: tuple[object, ...]) -> list[tuple[object, ...]]:
    async with db.reading() as conn:
        return [tuple(r) for r in await conn.fetch_all(sql, params)]

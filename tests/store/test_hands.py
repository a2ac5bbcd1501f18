"""The hand log: round trip, sequence numbers, settlement, cancellation, deck secrecy."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import random
from pathlib import Path

import pytest

import dealerbot.store
from dealerbot.engine.cards import deck_commitment, deck_text, shuffled_deck, verify_commitment
from dealerbot.store import config, hand_actions, hands, ledger, migrate, seats, tables, wallets
from dealerbot.store.audit import audit
from dealerbot.store.db import Database
from dealerbot.store.errors import (
    HandInProgress,
    HandNotInProgress,
    InvalidSettlement,
    StaleAction,
    StoreError,
    UnknownHand,
)
from dealerbot.store.hands import HandSeat, HandStatus
from dealerbot.store.ledger import Reason
from dealerbot.store.opening import open_database

from .conftest import ALICE, BOB, CAROL, CHANNEL, CONFIG, GUILD, FakeClock, sit, snapshot
from .hand_helpers import begin_hand


async def seated_table(db: Database, *users: int) -> int:
    table = await tables.open_table(db, GUILD, CHANNEL)
    for i, user in enumerate(users):
        await sit(db, table.id, user, f"P{i}", 200)
    return table.id


async def test_round_trip_and_recovery(db: Database, clock: FakeClock) -> None:
    table_id = await seated_table(db, ALICE, BOB, CAROL)
    await config.put_table_config(db, GUILD, CHANNEL, dataclasses.replace(CONFIG, variant="stud8"))
    hand = await begin_hand(db, table_id, seed=3, deadline=clock.now + 45)
    assert (hand.number, hand.status, hand.action_deadline) == (
        1,
        HandStatus.IN_PROGRESS,
        clock.now + 45,
    )
    assert hand.config == await config.get_table_config(db, GUILD, CHANNEL)
    assert [s.user_id for s in hand.seats] == [ALICE, BOB, CAROL]
    assert (await tables.get_table(db, table_id)).hand_count == 1
    actions = ["ante", "bring_in", "complete", "call", "fold"]
    for seq, action in enumerate(actions):
        clock.advance(1)
        await hand_actions.append_action(
            db, hand.id, seq, seq % 3, action, action_deadline=clock.now + 45
        )
    logged = await hand_actions.get_actions(db, hand.id)
    assert [(a.seq, a.seat, a.action) for a in logged] == [
        (i, i % 3, a) for i, a in enumerate(actions)
    ]
    assert (await hands.get_hand(db, hand.id)).action_deadline == clock.now + 45
    assert [h.id for h in await hands.hands_in_progress(db)] == [hand.id]

    recovery = await hand_actions.load_hand_for_recovery(db, hand.id)
    expected_deck = shuffled_deck(random.Random(3))
    assert recovery.deck == expected_deck
    assert verify_commitment(hand.commitment, recovery.deck, recovery.salt)
    assert recovery.actions == tuple(logged)
    assert recovery.hand == await hands.get_hand(db, hand.id)


async def test_deck_is_secret_while_the_hand_runs(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id, seed=11)
    secret = deck_text(shuffled_deck(random.Random(11)))
    salt_hex = random.Random(11).randbytes(16).hex()
    player_facing = [
        hand,
        await hands.get_hand(db, hand.id),
        await hands.current_hand(db, table_id),
        await hands.hands_in_progress(db),
        await hand_actions.get_actions(db, hand.id),
        await hands.recent_hands(db, table_id),
    ]
    for value in player_facing:
        assert secret not in repr(value)
        assert salt_hex not in repr(value)
        assert secret[:20] not in repr(value)
    await hands.settle_hand(db, hand.id, {ALICE: 1, BOB: -1}, {"winner": ALICE})
    done = await hands.get_hand(db, hand.id)
    assert done.revealed_deck == secret and done.revealed_salt_hex == salt_hex
    assert verify_commitment(
        done.commitment, shuffled_deck(random.Random(11)), bytes.fromhex(salt_hex)
    )


def test_only_the_recovery_function_reads_the_deck_column() -> None:
    """Structural guard: a new query selecting the deck must be a conscious decision."""
    package = Path(inspect.getfile(dealerbot.store)).parent
    readers = []
    for path in sorted(package.glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "FROM player_prefs" in line:  # the card style a player chose, not a deal
                continue
            if "SELECT deck" in line or ("SELECT *" in line and "hands " in line):
                readers.append((path.name, number))
    assert len(readers) == 1 and readers[0][0] == "hand_actions.py"
    source = inspect.getsource(hand_actions.load_hand_for_recovery)
    assert "SELECT deck" in source


async def test_stale_and_duplicate_actions_are_refused(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)
    await hand_actions.append_action(db, hand.id, 0, 0, "bring_in", action_deadline=None)
    before = await snapshot(db)
    for seq in (0, 2, -1):
        with pytest.raises(StaleAction):
            await hand_actions.append_action(db, hand.id, seq, 1, "call", action_deadline=None)
    assert await snapshot(db) == before


async def test_fifty_identical_submissions_log_once(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)

    async def submit() -> bool:
        try:
            await hand_actions.append_action(db, hand.id, 0, 1, "call", action_deadline=None)
        except StaleAction:
            return False
        return True

    results = await asyncio.gather(*(submit() for _ in range(50)))
    assert sum(results) == 1
    assert len(await hand_actions.get_actions(db, hand.id)) == 1


async def test_settle_moves_stacks_and_writes_result_rows(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB, CAROL)
    hand = await begin_hand(db, table_id)
    with pytest.raises(HandInProgress):
        await begin_hand(db, table_id)
    done = await hands.settle_hand(
        db, hand.id, {ALICE: 30, BOB: -20, CAROL: -10}, {"pots": [{"amount": 45}]}
    )
    assert done.status is HandStatus.FINISHED and done.result == {"pots": [{"amount": 45}]}
    assert done.action_deadline is None and done.ended_at is not None
    stacks = {s.user_id: s.stack for s in await seats.get_seats(db, table_id)}
    assert stacks == {ALICE: 230, BOB: 180, CAROL: 190}
    rows = await ledger.entries_for_hand(db, hand.id)
    assert sorted((r.user_id, r.delta) for r in rows) == [(ALICE, 30), (BOB, -20), (CAROL, -10)]
    assert {r.reason for r in rows} == {Reason.HAND_RESULT}
    assert (await wallets.get_wallet(db, GUILD, ALICE)).net_worth == 1030
    with pytest.raises(HandNotInProgress):
        await hands.settle_hand(db, hand.id, {ALICE: 0}, {})
    with pytest.raises(HandNotInProgress):
        await hand_actions.append_action(db, hand.id, 0, 0, "fold", action_deadline=None)
    second = await begin_hand(db, table_id)
    assert second.number == 2
    report = await audit(db)
    assert report.ok, report.render()


@pytest.mark.parametrize(
    "deltas",
    [
        {ALICE: 10, BOB: -9},  # does not sum to zero
        {ALICE: 10, CAROL: -10},  # Carol not dealt in
        {ALICE: 201, BOB: -201},  # Bob cannot lose more than his stack
        {ALICE: 1.0, BOB: -1},  # not whole chips
    ],
)
async def test_bad_settlements_change_nothing(db: Database, deltas: dict[int, int]) -> None:
    table_id = await seated_table(db, ALICE, BOB, CAROL)
    hand = await begin_hand(db, table_id, users=(ALICE, BOB))
    before = await snapshot(db)
    with pytest.raises(InvalidSettlement):
        await hands.settle_hand(db, hand.id, deltas, {})
    assert await snapshot(db) == before


async def test_unserialisable_result_is_refused(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)
    with pytest.raises(InvalidSettlement):
        await hands.settle_hand(db, hand.id, {ALICE: 1, BOB: -1}, {"x": object()})


async def test_cancel_returns_nothing_because_nothing_left_the_stacks(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)
    await hand_actions.append_action(db, hand.id, 0, 0, "bet", action_deadline=None)
    done = await hands.cancel_hand(
        db, hand.id, reason="log unreadable", committed={ALICE: 6, BOB: 1}
    )
    assert done.status is HandStatus.CANCELLED
    assert done.result == {
        "cancelled": True,
        "reason": "log unreadable",
        "returned": {str(ALICE): 6, str(BOB): 1},
    }
    rows = await ledger.entries_for_hand(db, hand.id)
    assert [(r.reason, r.delta) for r in rows] == [(Reason.REFUND, 0), (Reason.REFUND, 0)]
    assert "6 committed chips returned" in rows[0].note
    assert {s.stack for s in await seats.get_seats(db, table_id)} == {200}
    assert await hands.hands_in_progress(db) == []
    assert (await audit(db)).ok
    with pytest.raises(HandNotInProgress):
        await hands.cancel_hand(db, hand.id, reason="again")


async def test_start_hand_checks_its_inputs(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    deck = shuffled_deck(random.Random(1))
    salt = b"salt"
    seats = [HandSeat(0, ALICE, "P0", 200), HandSeat(1, BOB, "P1", 200)]
    cfg = CONFIG
    good = {
        "config": cfg,
        "seats": seats,
        "deck": deck,
        "salt": salt,
        "commitment": deck_commitment(deck, salt),
        "button_seat": 0,
    }
    before = await snapshot(db)
    for change in (
        {"commitment": "0" * 64},
        {"deck": deck[:51]},
        {"seats": seats[:1]},
        {"seats": [HandSeat(0, ALICE, "P0", 250), seats[1]]},
        {"seats": [HandSeat(0, BOB, "P0", 200), HandSeat(1, ALICE, "P1", 200)]},
        {"salt": b""},
        {"button_seat": 9},
    ):
        with pytest.raises(StoreError):
            await hands.start_hand(db, table_id, **{**good, **change})  # type: ignore[arg-type]
    assert await snapshot(db) == before
    with pytest.raises(UnknownHand):
        await hands.get_hand(db, 12345)


async def test_each_action_records_the_deadline_it_set(db: Database, clock: FakeClock) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id, deadline=clock.now + 45)
    first = await hand_actions.append_action(
        db, hand.id, 0, 0, "bring_in", action_deadline=clock.now + 30
    )
    assert first.deadline == clock.now + 30
    await hand_actions.append_action(db, hand.id, 1, 1, "call", action_deadline=None)
    assert (await hands.get_hand(db, hand.id)).action_deadline is None
    await hand_actions.set_action_deadline(db, hand.id, clock.now + 60)
    assert (await hands.get_hand(db, hand.id)).action_deadline == clock.now + 60
    logged = await hand_actions.get_actions(db, hand.id)
    assert [a.deadline for a in logged] == [clock.now + 30, None]
    await hands.settle_hand(db, hand.id, {}, {})
    with pytest.raises(HandNotInProgress):
        await hand_actions.set_action_deadline(db, hand.id, clock.now)
    with pytest.raises(UnknownHand):
        await hand_actions.set_action_deadline(db, hand.id + 1, clock.now)
    with pytest.raises(UnknownHand):
        await hand_actions.append_action(db, hand.id + 1, 0, 0, "fold", action_deadline=None)


async def test_action_joins_an_outer_transaction(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)
    with pytest.raises(RuntimeError):
        async with db.transaction():
            await hand_actions.append_action(db, hand.id, 0, 0, "bring_in", action_deadline=5.0)
            raise RuntimeError("the rest of the service's transaction failed")
    assert await hand_actions.get_actions(db, hand.id) == []
    assert (await hands.get_hand(db, hand.id)).action_deadline is None


async def test_why_the_service_acted_is_its_own_column(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)
    await hand_actions.append_action(db, hand.id, 0, 0, "bring_in", action_deadline=None)
    await hand_actions.append_action(
        db, hand.id, 1, 1, "fold", action_deadline=None, reason="timeout"
    )
    logged = await hand_actions.get_actions(db, hand.id)
    assert [(a.action, a.reason) for a in logged] == [("bring_in", None), ("fold", "timeout")]
    before = await snapshot(db)
    with pytest.raises(StoreError):
        await hand_actions.append_action(
            db, hand.id, 2, 0, "call", action_deadline=None, reason="nap"
        )
    assert await snapshot(db) == before


async def test_migration_0003_splits_actions_logged_with_their_reason(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    async with await open_database(path, migrate_now=False) as db:
        await migrate.upgrade(db, target=2)
        conn = db.conn
        await conn.execute("PRAGMA foreign_keys = OFF")  # a bare log row is enough here
        await conn.executemany(
            "INSERT INTO hand_actions (hand_id, seq, seat, action, created_at)"
            " VALUES (1, ?, 0, ?, 0)",
            [(0, "bring_in"), (1, "fold:timeout"), (2, "check:away"), (3, "call")],
        )
        await migrate.upgrade(db)
        rows = await (
            await conn.execute("SELECT action, reason FROM hand_actions ORDER BY seq")
        ).fetchall()
    assert [tuple(r) for r in rows] == [
        ("bring_in", None),
        ("fold", "timeout"),
        ("check", "away"),
        ("call", None),
    ]

"""The hand log keeps each hand's commitment scheme: merkle-v1 for new hands, the old
whole-deck SHA-256 for hands logged before migration 0004, and the secret half of each."""

from __future__ import annotations

import random
from pathlib import Path

import aiosqlite
import pytest

from dealerbot.engine.cards import deck_commitment, shuffled_deck
from dealerbot.fairness import SCHEME, SaltedDeck, salt_deck
from dealerbot.store import hand_actions, hands, migrate, proofs
from dealerbot.store.commitments import OLD_SCHEME
from dealerbot.store.db import Database
from dealerbot.store.errors import StoreError
from dealerbot.store.hands import HandSeat

from .conftest import ALICE, BOB, CONFIG, GUILD, snapshot
from .hand_helpers import begin_hand
from .test_hands import seated_table


def _seats() -> list[HandSeat]:
    return [HandSeat(0, ALICE, "P0", 200), HandSeat(1, BOB, "P1", 200)]


async def test_a_merkle_hand_keeps_its_salts_for_recovery_only(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    salted = salt_deck(shuffled_deck(random.Random(4)), random.Random(5).randbytes)
    hand = await hands.start_hand(
        db,
        table_id,
        config=CONFIG,
        seats=_seats(),
        deck=salted.cards,
        salts=salted.salts,
        commitment=salted.commitment(),
        button_seat=0,
    )
    assert hand.commitment_scheme == SCHEME and hand.commitment == salted.commitment()
    assert hand.revealed_deck is None  # in progress: nothing of the deck is readable
    secret = await hand_actions.load_hand_for_recovery(db, hand.id)
    assert secret.salts == salted.salts and secret.deck == salted.cards and secret.salt == b""
    assert SaltedDeck(secret.deck, secret.salts).commitment() == hand.commitment


async def test_an_old_scheme_hand_keeps_one_salt(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    hand = await begin_hand(db, table_id)
    assert hand.commitment_scheme == OLD_SCHEME
    secret = await hand_actions.load_hand_for_recovery(db, hand.id)
    assert secret.salts is None
    assert deck_commitment(secret.deck, secret.salt) == hand.commitment


@pytest.mark.parametrize("problem", ["wrong commitment", "short salts", "both", "bad salt"])
async def test_a_commitment_that_does_not_match_logs_nothing(db: Database, problem: str) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    salted = salt_deck(shuffled_deck(random.Random(4)), random.Random(5).randbytes)
    salts: tuple[bytes, ...] = salted.salts
    commitment, salt = salted.commitment(), b""
    if problem == "wrong commitment":
        commitment = salt_deck(salted.cards, random.Random(6).randbytes).commitment()
    elif problem == "short salts":
        salts = salts[:51]
    elif problem == "both":
        salt = b"x" * 16
    else:
        salts = (b"short", *salts[1:])
    before = await snapshot(db)
    with pytest.raises(StoreError):
        await hands.start_hand(
            db,
            table_id,
            config=CONFIG,
            seats=_seats(),
            deck=salted.cards,
            salts=salts,
            salt=salt,
            commitment=commitment,
            button_seat=0,
        )
    assert await snapshot(db) == before


async def test_migration_0004_marks_hands_already_logged_as_the_old_scheme(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    deck = shuffled_deck(random.Random(1))
    salt = bytes(range(16))
    commitment = deck_commitment(deck, salt)
    async with aiosqlite.connect(path, isolation_level=None) as conn:
        await migrate.upgrade(conn, target=3)
        await conn.execute("PRAGMA foreign_keys = OFF")  # a bare hand row is enough here
        await conn.execute(
            "INSERT INTO hands (table_id, number, config_json, seats_json, button_seat, deck,"
            " commitment, salt_hex, status, started_at) VALUES (1, 1, '{}', '[]', 0, ?, ?, ?,"
            " 'finished', 0)",
            ("".join(str(c) for c in deck), commitment, salt.hex()),
        )
        await migrate.upgrade(conn)
        row = await (
            await conn.execute("SELECT commitment_scheme, deck_salts, commitment FROM hands")
        ).fetchone()
    assert row is not None and tuple(row) == (OLD_SCHEME, None, commitment)


async def test_the_sealed_read_gives_a_deck_only_once_the_hand_is_over(db: Database) -> None:
    table_id = await seated_table(db, ALICE, BOB)
    salted = salt_deck(shuffled_deck(random.Random(8)), random.Random(9).randbytes)
    hand = await hands.start_hand(
        db,
        table_id,
        config=CONFIG,
        seats=_seats(),
        deck=salted.cards,
        salts=salted.salts,
        commitment=salted.commitment(),
        button_seat=0,
    )
    live = await proofs.sealed_hand(db, GUILD, hand.id)
    assert live is not None and live.deck is None and live.salts is None and not live.actions
    assert await proofs.sealed_hand(db, GUILD + 1, hand.id) is None  # another server's
    assert await proofs.sealed_hand(db, GUILD, hand.id + 1) is None
    await hand_actions.append_action(db, hand.id, 0, 0, "fold", action_deadline=None)
    await hands.settle_hand(db, hand.id, {ALICE: -1, BOB: 1}, {"note": "test"})
    done = await proofs.sealed_hand(db, GUILD, hand.id)
    assert done is not None and done.record.commitment == salted.commitment()
    assert (done.deck, done.salts) == (salted.cards, salted.salts)
    assert [a.action for a in done.actions] == ["fold"]
    assert "salts" not in repr(done) and str(salted.cards[0]) not in repr(done)

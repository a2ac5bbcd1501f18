"""The docs/fairness.md test-vector deck, shared by the fairness tests."""

from __future__ import annotations

import hashlib

from dealerbot.engine.cards import new_deck
from dealerbot.fairness import DealingRecord, DealtCard, Face, HandRef, SaltedDeck


def vector_salt(position: int) -> bytes:
    """Salt of position i: the first 32 hex characters of SHA-256("salt-{i}")."""
    return bytes.fromhex(hashlib.sha256(f"salt-{position}".encode()).hexdigest()[:32])


def vector_deck() -> SaltedDeck:
    """The unshuffled deck in code order (2c 2d 2h 2s 3c ... As) with the vector salts."""
    return SaltedDeck(tuple(new_deck()), tuple(vector_salt(i) for i in range(52)))


def sample_record() -> DealingRecord:
    """A three-seat stud hand dealt from positions in engine order.

    Seat 1 folds on 4th street; seats 2 and 5 play to the river, where seat 5 shows
    and seat 2 mucks, so seat 1's and seat 2's down cards stay private.
    """
    down, up = Face.DOWN, Face.UP
    cards: list[DealtCard] = []
    position = 0
    # 3rd street: two down and one up to each seat in turn.
    for face in (down, down, up):
        for seat in (1, 2, 5):
            cards.append(DealtCard(position, seat, 3, face))
            position += 1
    for street, face in ((4, up), (5, up), (6, up), (7, down)):
        for seat in (1, 2, 5) if street == 4 else (2, 5):
            cards.append(DealtCard(position, seat, street, face))
            position += 1
    return DealingRecord.of(cards, shown_seats={5})


PLAYERS = {1: "alice", 2: "bob", 5: "carol"}
HAND = HandRef("123456789012345678901", "456", 17)

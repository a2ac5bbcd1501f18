"""The FAIRNESS.md test-vector deck, shared by the fairness tests."""

from __future__ import annotations

import hashlib

from dealerbot.engine.cards import new_deck
from dealerbot.fairness import SaltedDeck


def vector_salt(position: int) -> bytes:
    """Salt of position i: the first 32 hex characters of SHA-256("salt-{i}")."""
    return bytes.fromhex(hashlib.sha256(f"salt-{position}".encode()).hexdigest()[:32])


def vector_deck() -> SaltedDeck:
    """The unshuffled deck in code order (2c 2d 2h 2s 3c ... As) with the vector salts."""
    return SaltedDeck(tuple(new_deck()), tuple(vector_salt(i) for i in range(52)))

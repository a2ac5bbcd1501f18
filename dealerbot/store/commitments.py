"""Which deck commitment a hand carries, and the columns that keep its secret half.

Hands logged before migration 0004 carry the old whole-deck SHA-256 (``sha256-deck``): it
can only be checked by revealing the deck, folded cards included. New hands carry
``dealerbot-merkle-v1`` (docs/fairness.md): one salt per deck position, a Merkle root, so a
proof can open single cards. The store checks the commitment before logging a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealerbot.engine import Card, deck_commitment
from dealerbot.fairness import SCHEME, FairnessError, SaltedDeck, salts_text

from .errors import StoreError

OLD_SCHEME = "sha256-deck"
MERKLE_SCHEME = SCHEME
SCHEMES = (OLD_SCHEME, MERKLE_SCHEME)  # the CHECK on hands.commitment_scheme


def commitment_columns(
    cards: Sequence[Card], commitment: str, salts: Sequence[bytes] | None, salt: bytes
) -> tuple[str, str, str | None]:
    """(commitment_scheme, salt_hex, deck_salts) to store, once the commitment is checked.

    ``salts`` (one per position) means merkle-v1; a single ``salt`` the old scheme.
    """
    if salts is None:
        if not isinstance(salt, bytes) or not salt:
            raise StoreError("the salt must be non-empty bytes")
        if deck_commitment(cards, salt) != commitment:
            raise StoreError("the commitment does not match the deck and salt")
        return OLD_SCHEME, salt.hex(), None
    if salt:
        raise StoreError("a hand has per-position salts or one salt, not both")
    try:
        salted = SaltedDeck(tuple(cards), tuple(salts))
    except FairnessError as exc:
        raise StoreError(f"bad salts: {exc}") from None
    if salted.commitment() != commitment:
        raise StoreError("the commitment does not match the deck and salts")
    return MERKLE_SCHEME, "", salts_text(salted.salts)

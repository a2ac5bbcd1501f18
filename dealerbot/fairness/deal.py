"""Scheme ``dealerbot-merkle-v1``: one salt per deck position, a Merkle root over the deck.

The root is published before the first card; after the hand, a proof (position, card,
salt, audit path) opens one card without saying anything about the others, so a
viewer can be shown exactly the cards they saw and nothing that was folded or undealt.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from ..engine.cards import Card
from .merkle import MerkleTree, leaf_hash, root_from_path

SCHEME = "dealerbot-merkle-v1"
DECK_SIZE = 52
SALT_SIZE = 16

SaltSource = Callable[[int], bytes]
"""Gives ``n`` random bytes; production: :func:`secrets.token_bytes`."""

_HASH_HEX = re.compile(r"[0-9a-f]{64}")
_SALT_HEX = re.compile(r"[0-9a-f]{32}")


class FairnessError(ValueError):
    """A deck, salt or position that the scheme cannot take."""


def leaf_data(position: int, card: Card, salt: bytes) -> bytes:
    """``dealerbot-merkle-v1:{i}:{card}:{salt_hex}`` as UTF-8."""
    return f"{SCHEME}:{position}:{card}:{salt.hex()}".encode()


def is_hash_hex(text: str) -> bool:
    """64 lowercase hex characters: how commitments and path entries are written."""
    return _HASH_HEX.fullmatch(text) is not None


def is_salt_hex(text: str) -> bool:
    """32 lowercase hex characters: how a salt is written."""
    return _SALT_HEX.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class CardProof:
    """What opens one position: the card there, its salt and the audit path."""

    position: int
    card: Card
    salt: bytes
    path: tuple[bytes, ...]

    def leaf(self) -> bytes:
        return leaf_hash(leaf_data(self.position, self.card, self.salt))

    def root(self) -> bytes | None:
        """The commitment this proof leads to, or None if it leads nowhere."""
        if not 0 <= self.position < DECK_SIZE or len(self.salt) != SALT_SIZE:
            return None
        return root_from_path(self.position, DECK_SIZE, self.leaf(), self.path)

    def verifies(self, commitment: str) -> bool:
        """True when this card was at this position in the deck behind ``commitment``."""
        if not is_hash_hex(commitment):
            return False
        root = self.root()
        return root is not None and root.hex() == commitment


@dataclass(frozen=True)
class SaltedDeck:
    """A shuffled deck with its salts: the secret behind a published commitment.

    Its repr shows only the commitment, so a stray log line cannot leak the deck.
    """

    cards: tuple[Card, ...] = field(repr=False)
    salts: tuple[bytes, ...] = field(repr=False)
    _tree: MerkleTree = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cards = tuple(self.cards)
        if len(cards) != DECK_SIZE or not all(isinstance(c, Card) for c in cards):
            raise FairnessError(f"a deck is {DECK_SIZE} cards, not {len(cards)} items")
        if len(set(cards)) != DECK_SIZE:
            raise FairnessError("a deck holds every card once")
        salts = tuple(self.salts)
        if len(salts) != DECK_SIZE:
            raise FairnessError(f"a deck needs {DECK_SIZE} salts, not {len(salts)}")
        for i, salt in enumerate(salts):
            if not isinstance(salt, bytes) or len(salt) != SALT_SIZE:
                raise FairnessError(f"the salt of position {i} is not {SALT_SIZE} bytes")
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "salts", salts)
        leaves = [leaf_data(i, c, s) for i, (c, s) in enumerate(zip(cards, salts, strict=True))]
        object.__setattr__(self, "_tree", MerkleTree(leaves))

    def commitment(self) -> str:
        """The Merkle tree hash of the 52 leaves, 64 lowercase hex characters."""
        return self._tree.root().hex()

    def proof(self, position: int) -> CardProof:
        """The proof of one position; the caller decides who may have it."""
        if not 0 <= position < DECK_SIZE:
            raise FairnessError(f"no deck position {position}: positions are 0-{DECK_SIZE - 1}")
        return CardProof(
            position, self.cards[position], self.salts[position], self._tree.audit_path(position)
        )

    def proofs(self, positions: Iterable[int]) -> tuple[CardProof, ...]:
        return tuple(self.proof(p) for p in positions)

    def __repr__(self) -> str:
        return f"SaltedDeck(commitment={self.commitment()!r})"


def draw_salts(source: SaltSource = secrets.token_bytes) -> tuple[bytes, ...]:
    """A fresh salt for every position, from the injected source."""
    salts = tuple(source(SALT_SIZE) for _ in range(DECK_SIZE))
    for salt in salts:
        if not isinstance(salt, bytes) or len(salt) != SALT_SIZE:
            raise FairnessError(f"the salt source must give {SALT_SIZE} bytes per call")
    return salts


def salt_deck(deck: Sequence[Card], source: SaltSource = secrets.token_bytes) -> SaltedDeck:
    """Salt a shuffled deck (production: ``secrets.token_bytes``) ready to commit to."""
    return SaltedDeck(tuple(deck), draw_salts(source))


def salts_text(salts: Sequence[bytes]) -> str:
    """The salts as one string of hex (32 characters each), for storing with the deck."""
    return "".join(salt.hex() for salt in salts)


def parse_salts_text(text: str) -> tuple[bytes, ...]:
    """Inverse of :func:`salts_text`."""
    size = SALT_SIZE * 2
    if len(text) != DECK_SIZE * size:
        raise FairnessError(f"stored salts must be {DECK_SIZE * size} hex characters")
    parts = [text[i : i + size] for i in range(0, len(text), size)]
    if not all(is_salt_hex(part) for part in parts):
        raise FairnessError("stored salts must be lowercase hex")
    return tuple(bytes.fromhex(part) for part in parts)

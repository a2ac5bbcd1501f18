"""Cards and decks: ranks, suits, parsing (``As``, ``Td``) and display (``A♠``, ``10♦``).

A :class:`Card` is an ``int`` from 0 to 51, ``(rank - 2) * 4 + suit``, so that the
natural integer order is rank first, then suit ♣ < ♦ < ♥ < ♠ (see R3.1, R11.3) and the
evaluator can index tables with it directly. Only the 52 interned instances exist.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Protocol

from .errors import CardError


class Rank(IntEnum):
    """Card ranks; ace is high (14) everywhere except in the eight-or-better low."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 2]

    @property
    def label(self) -> str:
        """Player-facing rank: ``10`` rather than ``T``."""
        return "10" if self is Rank.TEN else self.char


class Suit(IntEnum):
    """Suits in the order used for the bring-in and odd chips: ♣ < ♦ < ♥ < ♠ (R3.1, R11.3)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"


class Card(int):
    """One of the 52 cards; an ``int`` so tables can be indexed by it."""

    __slots__ = ()

    def __new__(cls, code: int) -> Card:
        """The interned card with this code; CardError outside 0..51."""
        if not isinstance(code, int) or not 0 <= code < 52:
            raise CardError(f"no card has code {code!r}")
        return ALL_CARDS[code]

    @staticmethod
    def of(rank: Rank | int, suit: Suit | int) -> Card:
        return ALL_CARDS[(int(rank) - 2) * 4 + int(suit)]

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``As``, ``Td``, ``10h`` (case of the rank does not matter)."""
        if not isinstance(text, str):
            raise CardError(f"a card is written like 'As' or 'Td', not {text!r}")
        stripped = text.strip()
        rank_text, suit_text = stripped[:-1].upper(), stripped[-1:].lower()
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANK_CHARS or suit_text not in SUIT_CHARS:
            raise CardError(
                f"unknown card {text!r}: write a rank 2-9, T, J, Q, K, A and a suit c, d, h, s"
            )
        return ALL_CARDS[RANK_CHARS.index(rank_text) * 4 + SUIT_CHARS.index(suit_text)]

    @property
    def rank(self) -> Rank:
        return Rank(self // 4 + 2)

    @property
    def suit(self) -> Suit:
        return Suit(self % 4)

    @property
    def pretty(self) -> str:
        """Player-facing text with a suit symbol: ``A♠``, ``10♦``."""
        return self.rank.label + self.suit.symbol

    def __str__(self) -> str:
        return RANK_CHARS[self // 4] + SUIT_CHARS[self % 4]

    def __repr__(self) -> str:
        return f"Card('{self}')"


ALL_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, code) for code in range(52))


_CARD_OF_CODE: dict[int, Card] = {card: card for card in ALL_CARDS}

RANK_INDEX: tuple[int, ...] = tuple(code // 4 for code in range(52))
"""Each card code's rank as 0 (deuce) .. 12 (ace): a table so hot loops index, not divide."""
SUIT_INDEX: tuple[int, ...] = tuple(code % 4 for code in range(52))
"""Each card code's suit as 0 (♣) .. 3 (♠)."""


def ace_low_order(card: int) -> int:
    """A card's place when aces are lowest: rank first (ace as 1), then suit ♣ < ♦ < ♥ < ♠."""
    rank = card // 4 + 2
    return (1 if rank == 14 else rank) * 4 + card % 4


_BY_TEXT = {str(card): card for card in ALL_CARDS}


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse ``"As Kd"`` or ``["As", "Kd"]``; duplicates are refused."""
    parts = text.split() if isinstance(text, str) else list(text)
    cards = tuple(Card.parse(part) for part in parts)
    ensure_distinct(cards)
    return cards


def ensure_distinct(cards: Iterable[Card]) -> None:
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise CardError(f"card {card} appears twice")
        seen.add(card)


def format_cards(cards: Iterable[Card], pretty: bool = True) -> str:
    return " ".join(card.pretty if pretty else str(card) for card in cards)


class RandomSource(Protocol):
    """What the engine needs of a generator: ``random.Random`` or ``secrets.SystemRandom``."""

    def shuffle(self, x: list[Card]) -> None: ...


def new_deck() -> list[Card]:
    """The 52 cards in code order (2♣ first, A♠ last)."""
    return list(ALL_CARDS)


def shuffled_deck(rng: RandomSource) -> tuple[Card, ...]:
    """A deck shuffled by the injected generator (production: ``secrets.SystemRandom()``)."""
    deck = new_deck()
    rng.shuffle(deck)
    return tuple(deck)


def validate_deck(deck: Sequence[Card | int]) -> tuple[Card, ...]:
    """A full 52-card deck order, every card once (R2.1)."""
    if len(deck) != 52:
        raise CardError(f"a deck has 52 cards, not {len(deck)}")
    try:  # the usual deck: Cards or codes, each once, in one pass of C loops
        cards = tuple(map(_CARD_OF_CODE.__getitem__, deck))
    except (KeyError, TypeError):
        cards = tuple(Card(int(c)) if not isinstance(c, Card) else c for c in deck)
    if len(set(cards)) != 52:
        ensure_distinct(cards)  # names the card given twice
    return cards


def deck_text(deck: Sequence[Card]) -> str:
    return "".join(str(card) for card in deck)


def deck_commitment(deck: Sequence[Card], salt: bytes) -> str:
    """SHA-256 over the salt and the deck order, published before the hand.

    After the hand the salt and deck are revealed; anyone can recompute the hash
    and see the deck was fixed before the first card was dealt.
    """
    return hashlib.sha256(salt.hex().encode() + b":" + deck_text(deck).encode()).hexdigest()


def verify_commitment(commitment: str, deck: Sequence[Card], salt: bytes) -> bool:
    return deck_commitment(deck, salt) == commitment


def parse_deck_text(text: str) -> tuple[Card, ...]:
    """Inverse of :func:`deck_text`: 104 characters, two per card."""
    if len(text) % 2:
        raise CardError("deck text has an odd length")
    return validate_deck([card_of_text(text[i : i + 2]) for i in range(0, len(text), 2)])


def card_of_text(text: str) -> Card:
    """:meth:`Card.parse` with a dict lookup first (``As``, ``Td``: the usual spelling)."""
    card = _BY_TEXT.get(text)
    return card if card is not None else Card.parse(text)

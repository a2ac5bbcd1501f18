"""Emoji names of the card art: one name per (deck, face), and back from a name.

A name spells the deck, the rank and the suit: ``sc_as`` (classic deck, ace of spades),
``sc_10h``, ``s4_qd`` (four-colour deck, queen of diamonds), ``sc_back``. The prefix keeps
the set together in Discord's emoji list and apart from an operator's own emoji: only a
name this module makes is ours (``dealerbot emoji sync --remove`` touches nothing else).
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum

from dealerbot.engine.cards import ALL_CARDS, Card, Rank


class Deck(Enum):
    """The two card designs; the value is the emoji name's prefix."""

    CLASSIC = "sc"  # two colours: red hearts and diamonds, black spades and clubs
    FOUR_COLOUR = "s4"  # clubs green, diamonds blue, hearts red, spades black


class Back(Enum):
    """The face-down card (one per deck)."""

    BACK = "back"


Face = Card | Back
"""What one emoji shows: a card, or the back of one."""

BACK = Back.BACK
SEPARATOR = "_"


def _rank_text(rank: Rank) -> str:
    return rank.label.lower()  # 'a', '2'..'9', '10', 'j', 'q', 'k'


def emoji_name(deck: Deck, face: Face) -> str:
    """The emoji's name: deck prefix, ``_``, then rank and suit (``sc_10h``) or ``back``."""
    if isinstance(face, Back):
        return f"{deck.value}{SEPARATOR}{face.value}"
    return f"{deck.value}{SEPARATOR}{_rank_text(face.rank)}{face.suit.char}"


def faces() -> Iterator[Face]:
    """Every face of a deck: the 52 cards in code order (2♣ first, A♠ last), then the back."""
    yield from ALL_CARDS
    yield BACK


def all_emoji() -> Iterator[tuple[Deck, Face]]:
    """Every emoji of the art: each deck's 53 faces, classic first."""
    for deck in Deck:
        for face in faces():
            yield deck, face


_BY_NAME: dict[str, tuple[Deck, Face]] = {emoji_name(d, f): (d, f) for d, f in all_emoji()}


def emoji_names() -> list[str]:
    """The names of the whole set, in :func:`all_emoji` order."""
    return list(_BY_NAME)


def face_of(name: str) -> tuple[Deck, Face] | None:
    """The (deck, face) an emoji name stands for; None for any name that is not ours."""
    return _BY_NAME.get(name)


def is_ours(name: str) -> bool:
    """True only for a name of this set (an operator's ``my_logo`` or ``sc_x`` is not)."""
    return name in _BY_NAME

"""Our own card art, drawn by code: 52 cards and a back in two decks, as emoji images.

Pure functions (no Discord, no files, no clock): :func:`emoji_set` gives each emoji's name
and PNG; ``dealerbot emoji sync`` uploads them as the application's own emoji. The two
decks: classic (red hearts and diamonds, black spades and clubs) and four-colour (clubs
green, diamonds blue, hearts red, spades black, as online card rooms do).
"""

from __future__ import annotations

from dataclasses import dataclass

from .names import BACK, Back, Deck, Face, all_emoji, emoji_name, emoji_names, face_of, is_ours
from .render import INLINE, SIZE, card_image, card_png

__all__ = [
    "BACK",
    "INLINE",
    "SIZE",
    "Back",
    "Deck",
    "EmojiArt",
    "Face",
    "all_emoji",
    "card_image",
    "card_png",
    "emoji_name",
    "emoji_names",
    "emoji_set",
    "face_of",
    "is_ours",
]


@dataclass(frozen=True, slots=True)
class EmojiArt:
    """One emoji to upload: its name and its PNG."""

    name: str
    deck: Deck
    face: Face
    png: bytes


def emoji_set() -> list[EmojiArt]:
    """The whole set (106 emoji: 53 faces in each deck), in :func:`all_emoji` order."""
    return [EmojiArt(emoji_name(d, f), d, f, card_png(d, f)) for d, f in all_emoji()]

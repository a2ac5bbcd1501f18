"""The real PokerStars hands kept with the tests (tests/data/handhistories), read once."""

from __future__ import annotations

import functools
from pathlib import Path

from dealerbot.history.model import Hand
from dealerbot.history.pokerstars import ALL_GAMES, load_history

HISTORY_DIR = Path(__file__).resolve().parents[1] / "data" / "handhistories" / "pokerstars"


@functools.cache
def history_files() -> tuple[Path, ...]:
    return tuple(sorted(HISTORY_DIR.glob("*.txt")))


@functools.cache
def real_hands() -> dict[int, Hand]:
    """Every readable stud, stud/8 and razz hand, once, bring-ins learned within each file."""
    hands: dict[int, Hand] = {}
    for path in history_files():
        for hand in load_history(path, ALL_GAMES).hands:
            hands.setdefault(hand.hand_id, hand)
    assert hands, f"no hand histories in {HISTORY_DIR}"
    return hands

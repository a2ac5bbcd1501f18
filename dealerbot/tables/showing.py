"""What a shown or dealt hand reads as: the five cards that play, and the made hand's name.

Pure helpers over the engine's public evaluator (:func:`best_high`, :func:`best_low`), so
a result shows the five cards that play (and the five of the low) instead of seven cards
in dealing order, and the 7th-street DM can name the player's made hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealerbot.engine import Card, HandState, Rank, best_high, best_low
from dealerbot.engine import events as ev

ACE_LOW = 1


def high_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The best high five (display order), or () with fewer than five cards."""
    if not 5 <= len(cards) <= 7:
        return ()
    return best_high(cards).cards


def low_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards of the best eight-or-better low, high to low; () when none qualifies."""
    if len(cards) < 5:
        return ()
    low = best_low(cards)
    if low is None:
        return ()
    picked: list[Card] = []
    left = list(cards)
    for wanted in low.ranks:
        for card in left:
            if _low_value(card) == wanted:
                picked.append(card)
                left.remove(card)
                break
    return tuple(picked)


def made_hand(cards: Sequence[Card], split_low: bool) -> tuple[str | None, str | None]:
    """The name of the high hand (and, in Hi/Lo, the low or "no low") of 5 to 7 cards."""
    if not 5 <= len(cards) <= 7:
        return None, None
    high = best_high(cards).name
    if not split_low:
        return high, None
    low = best_low(cards)
    return high, low.name if low is not None else "no low"


def _low_value(card: Card) -> int:
    return ACE_LOW if card.rank is Rank.ACE else int(card.rank)


def playing_fives(shown: ev.HandShown) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The five cards that play for the high and for the low of a shown hand."""
    if getattr(shown, "lowball", False):  # razz: the engine names its own low
        return (), ()
    cards = shown.playing_cards
    return high_five(cards), low_five(cards) if shown.split_low else ()


def last_street_names(state: HandState, cards: Sequence[Card]) -> tuple[str | None, str | None]:
    """A player's made hand (and low) on the last street, the community card counted."""
    if getattr(state.variant.rules, "lowball", False):  # razz: no high hand to name
        return None, None
    playing = (*cards, state.community) if state.community is not None else tuple(cards)
    return made_hand(playing, state.variant.rules.split_low)

"""What a shown or dealt hand reads as: the five cards that play, the others, and the name.

Pure helpers over the engine's public evaluators (:func:`best_high`, :func:`best_low`,
:func:`best_razz`), so a result shows the five cards that play first (and the five of the
low; in razz the five of the ace-to-five low), then the cards of the seven that play in
neither, so every card of a shown hand is on the table and "cards speak" can be checked;
the 7th-street DM names the player's made hand (in razz his low, "7-5-4-2-A (Seven low)").
Only hands shown at showdown come through here: a folded hand is never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealerbot.engine import Card, HandState, Rank, best_high, best_low, best_razz
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
    return _cards_of_ranks(cards, low.ranks)


def razz_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards of the best ace-to-five low (razz), high to low; () unless 5 to 7."""
    if not 5 <= len(cards) <= 7:
        return ()
    return _cards_of_ranks(cards, best_razz(cards).ranks)


def _cards_of_ranks(cards: Sequence[Card], ranks: Sequence[int]) -> tuple[Card, ...]:
    """One card for each ace-low rank wanted (a pair's two ranks take two cards), in order."""
    picked: list[Card] = []
    left = list(cards)
    for wanted in ranks:
        for card in left:
            if _low_value(card) == wanted:
                picked.append(card)
                left.remove(card)
                break
    return tuple(picked)


def made_hand(
    cards: Sequence[Card], split_low: bool, lowball: bool = False
) -> tuple[str | None, str | None]:
    """The name of the high hand (and, in Hi/Lo, the low or "no low"; in razz the ace-to-five
    low alone) of 5 to 7 cards."""
    if not 5 <= len(cards) <= 7:
        return None, None
    if lowball:  # razz: the pot is played for the low alone, named as razz players read it
        return str(best_razz(cards)), None
    high = best_high(cards).name
    if not split_low:
        return high, None
    low = best_low(cards)
    return high, low.name if low is not None else "no low"


def _low_value(card: Card) -> int:
    return ACE_LOW if card.rank is Rank.ACE else int(card.rank)


def playing_fives(shown: ev.HandShown) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The five cards that play for the high and for the low of a shown hand (in razz the
    five of the ace-to-five low, as the hand that plays: it is what ``shown.high`` names)."""
    cards = shown.playing_cards
    if shown.lowball:
        return razz_five(cards), ()
    return high_five(cards), low_five(cards) if shown.split_low else ()


def not_playing(cards: Sequence[Card], *fives: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``cards`` in none of ``fives``, in their order (dealing order); none
    when no five is known (the cards are then shown as they are)."""
    if not any(fives):
        return ()
    playing = {card for five in fives for card in five}
    return tuple(card for card in cards if card not in playing)


def shown_parts(
    shown: ev.HandShown,
) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
    """What a shown hand shows: the high five (razz: the low five), the five of the low
    (Hi/Lo) and the cards, community card included, that play in neither."""
    high, low = playing_fives(shown)
    return high, low, not_playing(shown.playing_cards, high, low)


def last_street_names(state: HandState, cards: Sequence[Card]) -> tuple[str | None, str | None]:
    """A player's made hand (and low) on the last street, the community card counted."""
    rules = state.variant.rules
    playing = (*cards, state.community) if state.community is not None else tuple(cards)
    return made_hand(playing, rules.split_low, rules.lowball)

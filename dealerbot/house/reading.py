"""The table as a house seat reads it: its cards, the live opponents' boards, the dead cards,
the unseen cards, the price of the decision and the words its reasons use.

Everything here is worked out from a :class:`~dealerbot.house.situation.Situation` once per
decision; the strategy modules read this value instead of walking the view again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum

from dealerbot.engine import ALL_CARDS, ActionKind, Card, Variant
from dealerbot.engine.betting import bet_size
from dealerbot.engine.variants import LAST_STREET, STREET_CARDS

from .situation import Situation

__all__ = [
    "AGGRESSIVE",
    "Opponent",
    "Plan",
    "Reading",
    "Tier",
    "a_card",
    "cards_text",
    "future_cards",
    "high_of",
    "low_of",
    "low_text",
    "plural",
    "read",
    "singular",
]

AGGRESSIVE = frozenset(
    {
        ActionKind.COMPLETE,
        ActionKind.BET,
        ActionKind.BET_BIG,
        ActionKind.RAISE,
        ActionKind.RAISE_BIG,
    }
)
"""The actions that complete, bet or raise: each one the rest of the round must answer."""

_SINGULAR = ("", "ace", "deuce", "three", "four", "five", "six", "seven", "eight", "nine",
             "ten", "jack", "queen", "king", "ace")  # fmt: skip
_PLURAL = ("", "aces", "deuces", "threes", "fours", "fives", "sixes", "sevens", "eights",
           "nines", "tens", "jacks", "queens", "kings", "aces")  # fmt: skip


_LOW_SYMBOLS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")


def high_of(card: int) -> int:
    """A card's rank with the ace high: 2 .. 14."""
    return card // 4 + 2


def low_of(card: int) -> int:
    """A card's rank with the ace low: 1 (ace) .. 13 (king)."""
    rank = card // 4 + 2
    return 1 if rank == 14 else rank


def singular(rank: int) -> str:
    """``king`` for 13; either ace (1 or 14) is ``ace``."""
    return _SINGULAR[rank]


def plural(rank: int) -> str:
    return _PLURAL[rank]


def a_card(rank: int) -> str:
    """``a king``, ``an ace``, ``an eight``."""
    word = _SINGULAR[rank]
    return f"an {word}" if word[0] in "ae" else f"a {word}"


def cards_text(cards: Sequence[Card]) -> str:
    return " ".join(card.pretty for card in cards)


def low_text(ranks: Sequence[int]) -> str:
    """Ace-low ranks as a low is written, highest first: ``8-5-3-A``."""
    return "-".join(_LOW_SYMBOLS[r] for r in sorted(ranks, reverse=True))


def future_cards(street: int, live: int, deck_left: int) -> tuple[int, bool]:
    """(cards each live player is still dealt, whether 7th street is a community card, R12.1),
    if all ``live`` players stay in and the deck holds ``deck_left`` cards."""
    each, community = 0, False
    for later in range(street + 1, LAST_STREET + 1):
        dealt = len(STREET_CARDS[later])
        if later == LAST_STREET and deck_left < live * dealt:
            community = deck_left > 0
            break
        each += dealt
        deck_left -= live * dealt
    return each, community


class Tier(IntEnum):
    """How good a hand is for the decision at hand, weakest first.

    On 3rd street every tier has its line (strategy.py); on later streets PREMIUM is a clear
    bet or raise, TRASH a clear fold facing a bet, and the tiers between are close decisions
    settled by the Monte Carlo equity.
    """

    TRASH = 0
    MARGINAL = 1
    PLAYABLE = 2
    STRONG = 3
    PREMIUM = 4


@dataclass(frozen=True, slots=True)
class Plan:
    """A hand's tier and the words that explain it ("pair of kings, opponents show nothing
    higher")."""

    tier: Tier
    reason: str


@dataclass(frozen=True, slots=True)
class Opponent:
    """A live opponent as the house sees him: his up cards and how many cards he hides."""

    seat: int
    up: tuple[Card, ...]
    hidden: int
    all_in: bool


@dataclass(frozen=True, slots=True)
class Reading:
    """What one decision works from (every card here is one the seat may see)."""

    variant: Variant
    street: int
    seat: int
    mine: tuple[Card, ...]  # the seat's own cards, dealing order
    my_up: tuple[Card, ...]
    community: Card | None
    opponents: tuple[Opponent, ...]  # live, in seat order
    dead: frozenset[Card]  # every visible card that is not the seat's own (folded boards too)
    unseen: tuple[Card, ...]  # the cards the seat cannot see, in code order
    deck_left: int  # cards still in the deck (the seat cannot see which)
    pot: int
    to_call: int
    bet: int  # one full bet on this street (R4.1)
    raises: int  # completions, bets and raises in this round so far
    aggressor: Opponent | None  # the opponent who made the round's last one, if any
    lowball: bool
    split_low: bool

    @property
    def playing(self) -> tuple[Card, ...]:
        """The seat's cards with the community card, if one is dealt."""
        return self.mine if self.community is None else (*self.mine, self.community)

    @property
    def to_come(self) -> tuple[int, bool]:
        """(cards each live player is still dealt, whether a community card comes)."""
        return future_cards(self.street, len(self.opponents) + 1, self.deck_left)

    def dead_count(self, predicate_ranks: frozenset[int], ace_low: bool = False) -> int:
        """How many dead cards have one of these ranks (ace-high ranks, or ace-low)."""
        rank = low_of if ace_low else high_of
        return sum(1 for card in self.dead if rank(card) in predicate_ranks)

    def dead_suit(self, suit: int) -> int:
        return sum(1 for card in self.dead if card % 4 == suit)

    def rank_counts(self) -> Counter[int]:
        """Ace-high rank -> how many of the seat's playing cards have it."""
        return Counter(high_of(card) for card in self.playing)


def read(situation: Situation) -> Reading:
    view = situation.view
    me = situation.me
    mine = situation.my_cards
    seen: set[Card] = set(mine)
    dead: set[Card] = set()
    opponents: list[Opponent] = []
    dealt = 0
    for sight in view.seats:
        dealt += len(sight.cards)
        if sight.seat == me.seat:
            continue
        dead.update(sight.up_cards)
        if not sight.folded:
            hidden = sum(1 for v in sight.cards if v.card is None)
            opponents.append(Opponent(sight.seat, sight.up_cards, hidden, sight.all_in))
    if view.community is not None:
        dead.add(view.community)
        dealt += 1
    seen |= dead
    by_seat = {o.seat: o for o in opponents}
    round_actions = situation.street_actions()
    aggressive = [a for a in round_actions if a.kind in AGGRESSIVE]
    last = aggressive[-1].seat if aggressive else None
    return Reading(
        variant=view.variant,
        street=view.street,
        seat=me.seat,
        mine=mine,
        my_up=me.up_cards,
        community=view.community,
        opponents=tuple(opponents),
        dead=frozenset(dead),
        unseen=tuple(card for card in ALL_CARDS if card not in seen),
        deck_left=52 - dealt,
        pot=view.pot,
        to_call=view.legal.to_call,
        bet=bet_size(view.stakes, view.street),
        raises=len(aggressive),
        aggressor=by_seat.get(last) if last is not None else None,
        lowball=view.variant.rules.lowball,
        split_low=view.variant.rules.split_low,
    )

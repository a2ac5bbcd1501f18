"""The end of a hand: who shows in what order, who wins each pot, and the hand's result.

Implements: R8.1 (show order), R8.3 (every live hand is shown), R8.4 (the last player
left wins unshown), R10.1 (no declaration: cards speak).

The pots and their split come from pots.py (see R7.4, R10.4, R11.3), hand strength from
evaluate.py and lowball.py (see R9.1, R10.3, R14.1): the variant's rules say which
evaluators a pot is played for. Functions take per-seat lists indexed clockwise and
return values; the hand state applies them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card
from .evaluate import high_rank, low_rank
from .events import HandShown, PotAwarded
from .lowball import razz_rank
from .opener import clockwise_from
from .pots import Award, Pot, award_pot, high_odd_chip_key, low_odd_chip_key
from .variants import VariantRules

_new = tuple.__new__  # an event without its named tuple's Python-level __new__


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, int | list[int]]:
        """The pot as the replay tool and the hand log write it (docs/replay.md)."""
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "high_winners": list(self.high_winners),
            "low_winners": list(self.low_winners),
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended; every mapping is keyed by seat label."""

    pots: tuple[PotResult, ...]
    returned: dict[int, int]
    payouts: dict[int, int]
    final_stacks: dict[int, int]
    showdown_order: tuple[int, ...]
    cancelled: bool = False


def show_order(
    button: int,
    folded: Sequence[bool],
    seventh_first: int | None,
    last_aggressor: int | None,
) -> tuple[int, ...]:
    """R8.1: the last bettor on 7th street, else its first actor, then clockwise.

    Without 7th-street betting (everyone all-in, R6.5) the order starts left of the button.
    """
    n = len(folded)
    if seventh_first is not None:
        start = last_aggressor if last_aggressor is not None else seventh_first
    else:
        start = (button + 1) % n
    return tuple([i for i in clockwise_from(start, n) if not folded[i]])


def shown_hands(
    labels: Sequence[int],
    order: Sequence[int],
    cards: Sequence[tuple[Card, ...]],
    community: Card | None,
    rules: VariantRules,
) -> list[HandShown]:
    """R8.3: every live hand turned up, in show order."""
    split, lowball = rules.split_low, rules.lowball
    return [_new(HandShown, (labels[i], cards[i], community, split, lowball)) for i in order]


def showdown_awards(
    pots: Sequence[Pot],
    order: Sequence[int],
    cards: Sequence[tuple[Card, ...]],
    community: Card | None,
    rules: VariantRules,
) -> list[Award]:
    """R10.1: cards speak: each pot goes to the best hands among its eligible seats.

    Stud plays for the high, stud/8 for the high and the eight-or-better low, razz for the
    ace-to-five low alone (R14.1).
    """

    hands = [cards[i] if community is None else (*cards[i], community) for i in order]
    high_of = None if rules.lowball else high_rank
    low_of = razz_rank if rules.lowball else low_rank if rules.split_low else None
    high_values = dict(zip(order, map(high_of, hands), strict=True)) if high_of else {}
    low_values = dict(zip(order, map(low_of, hands), strict=True)) if low_of else {}
    return [
        award_pot(
            pot,
            high_values.__getitem__ if high_of else None,
            low_values.__getitem__ if low_of else None,
            lambda i: high_odd_chip_key(cards[i]),
            lambda i: low_odd_chip_key(cards[i]),
        )
        for pot in pots
    ]


def unshown_awards(pots: Sequence[Pot], winner: int) -> list[Award]:
    """R8.4: everyone else folded: the last player wins every pot, unshown."""
    return [Award((winner,), (), {winner: pot.amount}) for pot in pots]


def pot_results(
    labels: Sequence[int], pots: Sequence[Pot], awards: Sequence[Award]
) -> tuple[tuple[PotResult, ...], list[int], list[PotAwarded]]:
    """Each pot's result by seat label, the chips paid per seat index, and the award events."""
    payouts = [0] * len(labels)
    results: list[PotResult] = []
    events: list[PotAwarded] = []
    for index, (pot, award) in enumerate(zip(pots, awards, strict=True)):
        shares = tuple([(labels[i], chips) for i, chips in award.shares.items()])
        for i, chips in award.shares.items():
            payouts[i] += chips
        result = PotResult(
            pot.amount,
            tuple([labels[i] for i in pot.eligible]),
            tuple([labels[i] for i in award.high_winners]),
            tuple([labels[i] for i in award.low_winners]),
            shares,
        )
        results.append(result)
        events.append(
            PotAwarded(
                index, pot.amount, result.eligible, result.high_winners, result.low_winners, shares
            )
        )
    return tuple(results), payouts, events

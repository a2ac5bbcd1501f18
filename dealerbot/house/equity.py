"""A Monte Carlo estimate of the house seat's share of the pot at showdown.

Each sample deals, from the cards the seat cannot see, every live opponent's hidden cards and
every card still to come (the 7th-street community card where the deck runs short, R12.1),
then plays the showdown with the engine's evaluators: stud for the high hand, stud/8 half for
the high and half for the eight-or-better low (a pot without a low goes high, R10.4), razz
for the ace-to-five low (R14.1). Ties share. The deal uses only the random source passed in
and the unseen cards, never the deck, so the same reading and seed give the same estimate.
Opponents are assumed to stay to showdown with any hand (no folds): the estimate is an equity
against the visible cards, not against how anyone plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dealerbot.engine.evaluate import high_rank, low_rank
from dealerbot.engine.lowball import razz_rank

from .reading import Reading
from .style import HouseRandom

__all__ = ["equity"]


def equity(reading: Reading, rng: HouseRandom, samples: int) -> float:
    """The seat's average share of the pot (0..1) over ``samples`` random deals."""
    if samples < 1:
        raise ValueError(f"a Monte Carlo estimate needs at least one sample, not {samples}")
    if not reading.opponents:
        return 1.0
    each, community_comes = reading.to_come
    known = [reading.mine, *(o.up for o in reading.opponents)]
    hidden = [each, *(o.hidden + each for o in reading.opponents)]
    fixed = () if reading.community is None else (reading.community,)
    need = sum(hidden) + (1 if community_comes else 0)
    pool = list(reading.unseen)
    if need > len(pool):  # cannot happen with a view of a real hand: the deck is in the pool
        raise ValueError(f"the deal needs {need} unseen cards, only {len(pool)} are unseen")
    share = _stud8 if reading.split_low else _one_way
    evaluate = razz_rank if reading.lowball else high_rank
    sample = rng.sample
    total = 0.0
    for _ in range(samples):
        drawn = sample(pool, need)
        hands: list[tuple[int, ...]] = []
        pos = 0
        extra = fixed if not community_comes else (drawn[-1],)
        for cards, count in zip(known, hidden, strict=True):
            hands.append((*cards, *drawn[pos : pos + count], *extra))
            pos += count
        total += share(hands, evaluate)
    return total / samples


def _one_way(hands: Sequence[tuple[int, ...]], evaluate: Callable[[Sequence[int]], int]) -> float:
    """The first hand's share when the whole pot goes to the best ``evaluate`` value."""
    values = [evaluate(hand) for hand in hands]
    mine = values[0]
    best = max(values)
    return 1.0 / values.count(best) if mine == best else 0.0


def _stud8(hands: Sequence[tuple[int, ...]], evaluate: Callable[[Sequence[int]], int]) -> float:
    """The first hand's share of a hi/lo pot: half high, half eight-or-better low (R10.4)."""
    high = _one_way(hands, evaluate)
    lows = [low_rank(hand) for hand in hands]
    qualified = [low for low in lows if low is not None]
    if not qualified:
        return high
    best = max(qualified)
    low = 1.0 / lows.count(best) if lows[0] == best else 0.0
    return (high + low) / 2

"""Evaluator speed against reference libraries timed in the same run on the same hands.

High hands: ours vs treys ``Evaluator.evaluate``; eight-or-better low: ours vs pokerkit
``EightOrBetterLowHand.from_game_or_none``; razz's ace-to-five low: ours vs pokerkit
``RegularLowHand.from_game`` (the hand type of its ``FixedLimitRazz``), and against our own
eight-or-better low (the razz low should be as fast).  Inputs are converted to each
library's own card type before timing.
Run from the repo root: ``python benchmarks/bench_evaluate.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import Card as PokerkitCard
from pokerkit import EightOrBetterLowHand, RegularLowHand
from treys import Card as TreysCard
from treys import Evaluator

from dealerbot.engine.cards import ALL_CARDS, Card
from dealerbot.engine.evaluate import high_rank, low_rank
from dealerbot.engine.lowball import razz_rank

TARGET = 15.0


def _hands(size: int, count: int, seed: int) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(ALL_CARDS, size)) for _ in range(count)]


def _rates(
    ours: Callable[..., object],
    our_inputs: Sequence[tuple[Any, ...]],
    reference: Callable[..., object],
    reference_inputs: Sequence[tuple[Any, ...]],
    min_seconds: float,
    rounds: int = 5,
) -> tuple[float, float]:
    """Calls per second of each, best of ``rounds``; rounds alternate so that both sides see
    the same machine load.  Inputs are argument tuples, so neither side pays for an adapter."""

    def one_round(call: Callable[..., object], inputs: Sequence[tuple[Any, ...]]) -> float:
        calls = 0
        start = time.perf_counter()
        while True:
            for item in inputs:
                call(*item)
            calls += len(inputs)
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                return calls / elapsed

    best_ours = best_reference = 0.0
    for _ in range(rounds):
        best_ours = max(best_ours, one_round(ours, our_inputs))
        best_reference = max(best_reference, one_round(reference, reference_inputs))
    return best_ours, best_reference


def _report(name: str, ours: float, reference: float, target: float | None) -> float:
    ratio = ours / reference
    goal = f"target >= {target:g}" if target else "no target"
    print(f"{name}: ours {ours:,.0f}/s, reference {reference:,.0f}/s, ratio {ratio:.1f} ({goal})")
    return ratio


def run(quick: bool = False) -> dict[str, float]:
    """Time every case and print one line each; returns ``{case: ours / reference}``."""
    count = 20_000 if quick else 100_000
    low_count = 1_000 if quick else 5_000
    min_seconds = 0.05 if quick else 0.2
    treys = Evaluator()
    treys_of = [TreysCard.new(str(card)) for card in ALL_CARDS]
    ratios: dict[str, float] = {}

    for size, target in ((7, TARGET), (6, None), (5, None)):
        hands = _hands(size, count, seed=size)
        ours_args = [(hand,) for hand in hands]
        # treys takes (hand, board) lists of its own card ints
        treys_args = [([treys_of[c] for c in h[:2]], [treys_of[c] for c in h[2:]]) for h in hands]
        ours, theirs = _rates(high_rank, ours_args, treys.evaluate, treys_args, min_seconds)
        ratios[f"high{size}"] = _report(f"high_rank {size} cards vs treys", ours, theirs, target)

    low_hands = _hands(7, low_count, seed=8)
    ours_args = [(hand,) for hand in low_hands]
    pokerkit_args = [(tuple(PokerkitCard.parse("".join(map(str, h)))),) for h in low_hands]
    pokerkit_low = EightOrBetterLowHand.from_game_or_none
    ours, theirs = _rates(low_rank, ours_args, pokerkit_low, pokerkit_args, min_seconds)
    ratios["low7"] = _report("low_rank 7 cards vs pokerkit", ours, theirs, TARGET)

    # Paired razz hands fill a table on first sight of their rank multiset: time that once.
    start = time.perf_counter()
    for hand in low_hands:
        razz_rank(hand)
    cold = time.perf_counter() - start
    print(f"razz_rank first sight of {len(low_hands):,} hands: {cold * 1e3:.0f} ms")
    pokerkit_razz = RegularLowHand.from_game
    ours, theirs = _rates(razz_rank, ours_args, pokerkit_razz, pokerkit_args, min_seconds)
    ratios["razz7"] = _report("razz_rank 7 cards vs pokerkit", ours, theirs, TARGET)
    ours, theirs = _rates(razz_rank, ours_args, low_rank, ours_args, min_seconds)
    ratios["razz_vs_low8"] = _report("razz_rank vs our low_rank, 7 cards", ours, theirs, 1.0)
    return ratios


def main() -> None:
    run(quick="--quick" in sys.argv[1:])


if __name__ == "__main__":
    main()

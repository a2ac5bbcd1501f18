"""House players: their win rate against simple opponents, and how long one decision takes.

For each game (stud, stud/8, razz) one house player plays through the engine against three
(``--players`` minus one) opponents of each kind: always-call (brings in, calls, checks, never
folds or raises), random (a uniformly random legal option) and copies of the house itself.
The button moves every hand so the house sits in every position; stacks start deep (200 big
bets) every hand, so nobody is all-in by accident. The house's result is printed in small
bets per 100 hands with a 95% interval (the per-hand results' mean and standard error x
1.96). Against copies the house should break even: that line checks the measuring, not the
play. Every house decision's CPU time (``time.process_time``, which load disturbs less than
the wall clock), the Monte Carlo included, gives the latency median and 99th percentile.

Targets: a clear win (the interval above zero) against always-call and random in every game;
a decision in under 20 ms median and 100 ms at the 99th percentile.
Run from the repo root: ``python benchmarks/bench_house.py [--hands N] [--players P]
[stud|stud8|razz ...]`` (default 20,000 hands per game and opponent kind).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dealerbot.engine import (
    Action,
    ActionKind,
    Event,
    HandState,
    SeatSpec,
    Stakes,
    Variant,
    apply,
    legal_actions,
    player_view,
    shuffled_deck,
    start_hand,
)
from dealerbot.house import HouseStyle, Situation, decide

STAKES = Stakes.of(small_bet=10, ante=1, bring_in=3)
STACK = 200 * STAKES.big_bet
MEDIAN_MS = 20.0
P99_MS = 100.0
HOUSE = 0  # the house player's seat; the others are its opponents

Player = Callable[[HandState, Sequence[Event]], Action]


@dataclass
class Match:
    """One game against one kind of opponent: the house's results and decision times."""

    results: list[float]  # small bets won or lost per hand
    latencies: list[float]  # CPU seconds per house decision
    monte_carlo: list[float]  # the same, of the decisions that ran the Monte Carlo


def house_player(
    rng: random.Random, style: HouseStyle, latencies: list[float], monte_carlo: list[float]
) -> Player:
    def act(state: HandState, events: Sequence[Event]) -> Action:
        seat = state.seat_to_act
        assert seat is not None
        start = time.process_time()
        situation = Situation.from_view(player_view(state, seat), seat, events)
        decision = decide(situation, rng, style)
        spent = time.process_time() - start
        latencies.append(spent)
        if decision.equity is not None:
            monte_carlo.append(spent)
        return decision.action

    return act


def always_call(state: HandState, events: Sequence[Event]) -> Action:
    del events
    seat = state.seat_to_act
    assert seat is not None
    kinds = legal_actions(state).kinds
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        if kind in kinds:
            return Action(seat, kind)
    raise AssertionError(f"no passive option in {kinds}")


def random_player(rng: random.Random) -> Player:
    def act(state: HandState, events: Sequence[Event]) -> Action:
        del events
        seat = state.seat_to_act
        assert seat is not None
        return Action(seat, rng.choice(legal_actions(state).options).kind)

    return act


def play_hand(
    variant: Variant, deck_rng: random.Random, button: int, players: Sequence[Player]
) -> float:
    """One hand; the house seat's result in small bets."""
    seats = [SeatSpec(seat, STACK) for seat in range(len(players))]
    state, first = start_hand(variant, STAKES, seats, shuffled_deck(deck_rng), button=button)
    events: list[Event] = list(first)
    while not state.is_over:
        seat = state.seat_to_act
        assert seat is not None
        state, more = apply(state, players[seat](state, events))
        events.extend(more)
    assert state.result is not None
    return (state.result.final_stacks[HOUSE] - STACK) / STAKES.small_bet


def play_match(
    variant: Variant, opponent: str, hands: int, count: int, seed: int, style: HouseStyle
) -> Match:
    latencies: list[float] = []
    monte_carlo: list[float] = []
    house = house_player(random.Random(seed), style, latencies, monte_carlo)
    others: Player
    if opponent == "call":
        others = always_call
    elif opponent == "random":
        others = random_player(random.Random(seed + 1))
    else:
        others = house
    players = [house, *([others] * (count - 1))]
    deck_rng = random.Random(seed + 2)
    results = [play_hand(variant, deck_rng, h % count, players) for h in range(hands)]
    return Match(results, latencies, monte_carlo)


def interval(results: Sequence[float]) -> tuple[float, float]:
    """(mean, half-width of the 95% interval) in small bets per 100 hands."""
    mean = statistics.fmean(results)
    error = statistics.stdev(results) / math.sqrt(len(results)) if len(results) > 1 else math.inf
    return 100 * mean, 100 * 1.96 * error


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


OPPONENTS = {"call": "always-call", "random": "random legal", "house": "house copies"}


def run(hands: int, count: int, games: Sequence[Variant], style: HouseStyle, seed: int) -> bool:
    print(
        f"house vs {count - 1} opponents, {hands:,} hands per line, stakes "
        f"{STAKES.small_bet}/{STAKES.big_bet} ante {STAKES.ante} bring-in {STAKES.bring_in}, "
        f"{style.samples} Monte Carlo samples, bluff rate {style.bluff_rate:g}"
    )
    wins = True
    latencies: list[float] = []
    monte_carlo: list[float] = []
    for variant in games:
        for offset, (key, name) in enumerate(OPPONENTS.items()):
            start = time.perf_counter()
            match = play_match(variant, key, hands, count, seed + 10 * offset, style)
            mean, half = interval(match.results)
            latencies.extend(match.latencies)
            monte_carlo.extend(match.monte_carlo)
            if key == "house":
                verdict = "breaks even" if abs(mean) <= half else "does NOT break even"
            else:
                clear = mean - half > 0
                wins &= clear
                verdict = "clear win" if clear else "NOT a clear win"
            print(
                f"{variant.value:<6} vs {name:<13} {mean:+8.1f} sb/100 hands, 95% interval "
                f"{mean - half:+.1f} .. {mean + half:+.1f}: {verdict}  "
                f"({len(match.latencies):,} decisions, {time.perf_counter() - start:.0f} s)"
            )
    median_ms = 1000 * statistics.median(latencies)
    p99_ms = 1000 * percentile(latencies, 0.99)
    fast = median_ms < MEDIAN_MS and p99_ms < P99_MS
    print(
        f"decision CPU time (view, situation, decision, Monte Carlo): median {median_ms:.2f} ms "
        f"(target < {MEDIAN_MS:g}), p99 {p99_ms:.2f} ms (target < {P99_MS:g}), "
        f"max {1000 * max(latencies):.1f} ms over {len(latencies):,} decisions"
    )
    if monte_carlo:
        print(
            f"  of which {len(monte_carlo):,} ran the Monte Carlo: median "
            f"{1000 * statistics.median(monte_carlo):.2f} ms, "
            f"p99 {1000 * percentile(monte_carlo, 0.99):.2f} ms"
        )
    met = {True: "met", False: "NOT met"}
    print(f"TARGETS: clear wins {met[wins]}; latency {met[fast]}")
    return wins and fast


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="stud, stud8, razz (default: all three)")
    parser.add_argument("--hands", type=int, default=20_000, help="hands per game and opponent")
    parser.add_argument("--players", type=int, default=4, help="players per hand (2-8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=HouseStyle().samples)
    parser.add_argument("--quick", action="store_true", help="500 hands per line")
    args = parser.parse_args()
    if args.quick:
        args.hands = min(args.hands, 500)
    if args.hands < 2 or not 2 <= args.players <= 8:
        parser.error("--hands needs at least 2 and --players 2 to 8")
    try:
        games = [Variant.parse(game) for game in args.games] or list(Variant)
        style = HouseStyle(samples=args.samples)
    except ValueError as error:  # StakesError is one: an unknown game
        parser.error(str(error))
    return 0 if run(args.hands, args.players, games, style, args.seed) else 1


if __name__ == "__main__":
    sys.exit(main())

"""Hand engine speed and memory against pokerkit's fixed-limit stud games, timed in the same run.

Each game (stud, stud/8, razz) against pokerkit's own class for it. Both engines play the same
8-handed hands: the same decks and the same action sequences. A scripted policy (bring in, then
mostly call or check, some completes/bets/raises, a few folds, deep stacks so nobody is all-in,
never the open-pair big bet pokerkit lacks) is played once through our engine, untimed, to
record each hand's actions and the order its cards are dealt; hands that need the community card
(R12.1, which pokerkit lacks) are replaced. pokerkit gets every card explicitly (its burns get
an unknown card, R2.1) and the same actions. A validation pass checks that both end every hand
with the same stacks and counts showdowns.

Measured: complete hands per second, the median latency of one action (for both engines: the
action plus any dealing and showdown it triggers), and the traced memory of one 8-player hand
after 10 actions (stud).  Run from the repo root:
``python benchmarks/bench_engine.py [--quick] [stud|stud8|razz ...]``.
"""

from __future__ import annotations

import gc
import random
import statistics
import sys
import time
import tracemalloc
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pokerkit import (
    Automation,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    HoleCardsShowingOrMucking,
)
from pokerkit import Card as PokerkitCard

from dealerbot.engine.cards import ALL_CARDS, Card, shuffled_deck
from dealerbot.engine.events import Action, ActionKind, CardDealt, CommunityCardDealt
from dealerbot.engine.state import (
    HandState,
    SeatSpec,
    apply,
    legal_actions,
    start_hand,
)
from dealerbot.engine.variants import Stakes, Variant

TARGET = 20.0
PLAYERS = 8
STACK = 10_000
STAKES = Stakes.of(small_bet=5, ante=1, bring_in=2)
SEATS = tuple(SeatSpec(seat, STACK) for seat in range(PLAYERS))
PK_GAMES: dict[Variant, Any] = {
    Variant.STUD: FixedLimitSevenCardStud,
    Variant.STUD8: FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    Variant.RAZZ: FixedLimitRazz,
}
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
PK_CARD = {card: next(iter(PokerkitCard.parse(str(card)))) for card in ALL_CARDS}
BURN = next(iter(PokerkitCard.parse("??")))
WEIGHTS = {
    ActionKind.FOLD: 2,
    ActionKind.CHECK: 10,
    ActionKind.CALL: 10,
    ActionKind.BRING_IN: 1,
    ActionKind.COMPLETE: 1,
    ActionKind.BET: 2,
    ActionKind.RAISE: 1,
}

# pokerkit operations: burn a card, deal a card, or act (kind, round total for wagers)
PkOp = tuple[str, Any]


@dataclass(frozen=True)
class Script:
    """One hand, as both engines will play it."""

    variant: Variant
    deck: tuple[Card, ...]
    button: int
    actions: tuple[ActionKind, ...]
    seats_to_act: tuple[int, ...]
    pk_start: tuple[PkOp, ...]  # dealing before the first action
    pk_steps: tuple[tuple[PkOp, ...], ...]  # per action: the action, then the dealing it causes
    showdown: bool
    final_stacks: tuple[int, ...]  # in pokerkit's player order (first seat left of the button)


def _pk_order(button: int) -> list[int]:
    return [(button + 1 + k) % PLAYERS for k in range(PLAYERS)]


def _deal_ops(events: Sequence[object], street_seen: set[int]) -> list[PkOp] | None:
    """pokerkit's dealing for our events (a burn before 4th-7th street); None: community card."""
    ops: list[PkOp] = []
    for event in events:
        if isinstance(event, CommunityCardDealt):
            return None
        if isinstance(event, CardDealt):
            if event.street not in street_seen:
                street_seen.add(event.street)
                if event.street > 3:
                    ops.append(("burn", None))
            ops.append(("deal", PK_CARD[event.card]))
    return ops


def _record(rng: random.Random, button: int, variant: Variant) -> Script | None:
    """Play one hand through our engine with the scripted policy; None if it needs R12.1."""
    deck = shuffled_deck(rng)
    state, events = start_hand(variant, STAKES, SEATS, deck, button=button)
    seen: set[int] = set()
    start_ops = _deal_ops(events, seen)
    assert start_ops is not None
    actions: list[ActionKind] = []
    seats: list[int] = []
    steps: list[tuple[PkOp, ...]] = []
    while not state.is_over:
        legal = legal_actions(state)
        options = [o for o in legal.options if o.kind in WEIGHTS]
        option = rng.choices(options, [WEIGHTS[o.kind] for o in options])[0]
        seat = state.seat_to_act
        assert seat is not None
        state, events = apply(state, Action(seat, option.kind))
        ops = _deal_ops(events, seen)
        if ops is None:
            return None
        actions.append(option.kind)
        seats.append(seat)
        steps.append((("act", (option.kind, option.to)), *ops))
    assert state.result is not None
    final = tuple(state.result.final_stacks[seat] for seat in _pk_order(button))
    return Script(
        variant,
        deck,
        button,
        tuple(actions),
        tuple(seats),
        tuple(start_ops),
        tuple(steps),
        bool(state.result.showdown_order),
        final,
    )


def make_scripts(
    count: int, seed: int = 2024, variant: Variant = Variant.STUD
) -> tuple[list[Script], int]:
    """``count`` hands with the button going round; also how many were replaced (R12.1)."""
    rng = random.Random(seed)
    scripts: list[Script] = []
    replaced = 0
    while len(scripts) < count:
        script = _record(rng, len(scripts) % PLAYERS, variant)
        if script is None:
            replaced += 1
        else:
            scripts.append(script)
    return scripts, replaced


# --- the two players of a script --------------------------------------------------------------


def play_ours(script: Script) -> HandState:
    state, _ = start_hand(script.variant, STAKES, SEATS, script.deck, button=script.button)
    for seat, kind in zip(script.seats_to_act, script.actions, strict=True):
        state, _ = apply(state, Action(seat, kind))
    return state


def _pk_new(variant: Variant) -> Any:
    return PK_GAMES[variant].create_state(
        AUTOMATIONS,
        True,
        STAKES.ante,
        STAKES.bring_in,
        STAKES.small_bet,
        STAKES.big_bet,
        (STACK,) * PLAYERS,
        PLAYERS,
    )


def _pk_run(state: Any, ops: Sequence[PkOp]) -> None:
    for op, arg in ops:
        if op == "deal":
            state.deal_hole(arg)
        elif op == "burn":
            state.burn_card(BURN)
        else:
            kind, to = arg
            if kind is ActionKind.FOLD:
                state.fold()
            elif kind in (ActionKind.CHECK, ActionKind.CALL):
                state.check_or_call()
            elif kind is ActionKind.BRING_IN:
                state.post_bring_in()
            else:
                state.complete_bet_or_raise_to(to)


def play_pokerkit(script: Script) -> Any:
    state = _pk_new(script.variant)
    _pk_run(state, script.pk_start)
    for step in script.pk_steps:
        _pk_run(state, step)
    return state


def validate(scripts: Sequence[Script]) -> tuple[int, int]:
    """Both engines end every hand alike; returns (our showdowns, pokerkit's showdowns)."""
    ours_showdowns = pk_showdowns = 0
    for number, script in enumerate(scripts):
        ours = play_ours(script)
        pk = play_pokerkit(script)
        assert ours.result is not None and not pk.status, f"hand {number} did not end in both"
        ours_final = tuple(ours.result.final_stacks[s] for s in _pk_order(script.button))
        assert ours_final == script.final_stacks
        # a pot shared by several winners: odd chips may go by other rules in pokerkit
        odd = any(len(pot.shares) > 1 for pot in ours.result.pots)
        if not odd:
            assert tuple(pk.stacks) == ours_final, f"hand {number}: {pk.stacks} vs {ours_final}"
        ours_showdowns += bool(ours.result.showdown_order)
        pk_showdowns += any(isinstance(op, HoleCardsShowingOrMucking) for op in pk.operations)
    return ours_showdowns, pk_showdowns


# --- timing -----------------------------------------------------------------------------------


def _hands_per_second(
    ours: Sequence[Script], theirs: Sequence[Script], rounds: int = 3
) -> tuple[float, float, float, float]:
    """Hands per second of each engine by wall clock and by this thread's CPU time (what a
    loaded machine disturbs less), best of ``rounds``; the rounds alternate so that both see
    the same load.  Returns (ours wall, theirs wall, ours CPU, theirs CPU)."""
    best = [float("inf")] * 4
    for _ in range(rounds):
        for side, scripts, play in ((0, ours, play_ours), (1, theirs, play_pokerkit)):
            start, cpu = time.perf_counter(), time.thread_time()
            for script in scripts:
                play(script)
            best[side] = min(best[side], time.perf_counter() - start)
            best[side + 2] = min(best[side + 2], time.thread_time() - cpu)
    return len(ours) / best[0], len(theirs) / best[1], len(ours) / best[2], len(theirs) / best[3]


def _ours_latencies(scripts: Sequence[Script]) -> list[int]:
    clock = time.perf_counter_ns
    samples: list[int] = []
    for script in scripts:
        state, _ = start_hand(script.variant, STAKES, SEATS, script.deck, button=script.button)
        for seat, kind in zip(script.seats_to_act, script.actions, strict=True):
            action = Action(seat, kind)
            t0 = clock()
            state, _ = apply(state, action)
            samples.append(clock() - t0)
    return samples


def _pokerkit_latencies(scripts: Sequence[Script]) -> list[int]:
    clock = time.perf_counter_ns
    samples: list[int] = []
    for script in scripts:
        state = _pk_new(script.variant)
        _pk_run(state, script.pk_start)
        for step in script.pk_steps:
            t0 = clock()
            _pk_run(state, step)
            samples.append(clock() - t0)
    return samples


def _traced_bytes(build: Callable[[], object]) -> tuple[int, object]:
    """Bytes still allocated by ``build`` once its result is the only thing kept."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = build()
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return after - before, kept


def _memory(script: Script, actions: int = 10) -> tuple[int, int]:
    """Traced bytes of one 8-player hand after ``actions`` actions, ours and pokerkit's."""

    def ours() -> object:
        state, _ = start_hand(script.variant, STAKES, SEATS, script.deck, button=script.button)
        for seat, kind in list(zip(script.seats_to_act, script.actions, strict=True))[:actions]:
            state, _ = apply(state, Action(seat, kind))
        legal_actions(state)  # as a front end would: the options are part of a live state
        return state

    def theirs() -> object:
        state = _pk_new(script.variant)
        _pk_run(state, script.pk_start)
        for step in script.pk_steps[:actions]:
            _pk_run(state, step)
        return state

    ours()  # warm caches (interned objects, lazily built tables) outside the measurement
    theirs()
    return _traced_bytes(ours)[0], _traced_bytes(theirs)[0]


def _game(variant: Variant, count: int) -> tuple[list[Script], dict[str, float]]:
    """Validate and time whole hands of one game; prints its line."""
    scripts, replaced = make_scripts(count, variant=variant)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a pokerkit warning means the hands differ
        ours_showdowns, pk_showdowns = validate(scripts)
        assert ours_showdowns == pk_showdowns, (ours_showdowns, pk_showdowns)
        rates = _hands_per_second(scripts, scripts[: max(20, count // 4)])
    ours_rate, pk_rate, ours_cpu, pk_cpu = rates
    actions = sum(len(s.actions) for s in scripts)
    ratio = ours_rate / pk_rate
    print(
        f"{variant.value} hands/s: ours {ours_rate:,.0f}, pokerkit {pk_rate:,.0f}, "
        f"ratio {ratio:.1f} (target >= {TARGET:g}); by CPU time ours {ours_cpu:,.0f}, "
        f"pokerkit {pk_cpu:,.0f}, ratio {ours_cpu / pk_cpu:.1f}; {len(scripts)} 8-handed "
        f"hands, {actions / len(scripts):.1f} actions each, showdowns ours {ours_showdowns}, "
        f"pokerkit {pk_showdowns} ({replaced} needing the community card replaced)"
    )
    prefix = "" if variant is Variant.STUD else f"{variant.value}_"
    return scripts, {
        f"{prefix}hands_per_s_ours": ours_rate,
        f"{prefix}hands_per_s_pokerkit": pk_rate,
        f"{prefix}hands_ratio": ratio,
        f"{prefix}hands_cpu_ratio": ours_cpu / pk_cpu,
        f"{prefix}showdowns_ours": float(ours_showdowns),
        f"{prefix}showdowns_pokerkit": float(pk_showdowns),
    }


def run(quick: bool = False, games: Sequence[Variant] = tuple(Variant)) -> dict[str, float]:
    """Time both engines on the same hands of each game; print one line per figure and return
    them (stud's keys unprefixed, the others prefixed by the game)."""
    count = 100 if quick else 400
    figures: dict[str, float] = {}
    stud: list[Script] = []
    for variant in games:
        scripts, game_figures = _game(variant, count)
        figures.update(game_figures)
        if variant is Variant.STUD:
            stud = scripts
    if not stud:
        return figures
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours_samples = _ours_latencies(stud)
        pk_samples = _pokerkit_latencies(stud[: max(20, count // 4)])
        ours_lat = statistics.median(ours_samples) / 1000
        pk_lat = statistics.median(pk_samples) / 1000
        ours_mean = statistics.fmean(ours_samples) / 1000
        pk_mean = statistics.fmean(pk_samples) / 1000
        long_hand = max(stud, key=lambda s: len(s.actions))
        ours_bytes, pk_bytes = _memory(long_hand)
    mean_ratio = pk_mean / ours_mean
    print(
        "stud action latency (mean, with the dealing and showdown it triggers): "
        f"ours {ours_mean:.1f} us, pokerkit {pk_mean:.1f} us, ratio {mean_ratio:.1f}"
    )
    lat_ratio = pk_lat / ours_lat
    print(
        f"stud action latency (median, a plain bet/call/check): ours {ours_lat:.1f} us, "
        f"pokerkit {pk_lat:.1f} us, ratio {lat_ratio:.1f} (pokerkit mutates in place; "
        "ours returns a new immutable state)"
    )
    print(
        f"memory of one 8-player stud hand after 10 actions: ours {ours_bytes:,} bytes, "
        f"pokerkit {pk_bytes:,} bytes"
    )
    figures.update(
        {
            "action_us_ours": ours_lat,
            "action_us_pokerkit": pk_lat,
            "action_ratio": lat_ratio,
            "action_mean_us_ours": ours_mean,
            "action_mean_us_pokerkit": pk_mean,
            "action_mean_ratio": mean_ratio,
            "state_bytes_ours": float(ours_bytes),
            "state_bytes_pokerkit": float(pk_bytes),
        }
    )
    return figures


def main() -> None:
    args = sys.argv[1:]
    games = [Variant.parse(arg) for arg in args if not arg.startswith("--")]
    run(quick="--quick" in args, games=games or tuple(Variant))


if __name__ == "__main__":
    main()

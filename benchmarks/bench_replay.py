"""The replay tool as a whole process against a pokerkit script doing the same hands.

400 8-handed hands (stud, stud/8 and razz in turn) are recorded through our engine as in
bench_engine.py (deep stacks, no community card, never the open-pair big bet pokerkit lacks).
Each is written as a hand script (docs/replay.md: every seat's cards in the order received, so a
player who folded has fewer than seven and the tool must place the cards as folds happen; the
actions with their seats) and as pokerkit operations (every card dealt explicitly, burns unknown).
Timed, each as a fresh process: ``python -m dealerbot.engine.replay FILE`` and a small
pokerkit program that plays the same hands from its file and prints the final stacks (the
interpreter start-up and imports are part of both).  The rounds alternate, best of 3, wall
time and the CPU time of the child.  Both outputs are checked: same final stacks (except
where a pot was shared and odd chips may follow other rules).
Run from the repo root: ``python benchmarks/bench_replay.py [--quick]``.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.bench_engine import PLAYERS, SEATS, STAKES, Script, make_scripts
from dealerbot.engine.events import Action, ActionKind, CardDealt, CommunityCardDealt
from dealerbot.engine.state import apply, start_hand
from dealerbot.engine.variants import Variant

TARGET = 12.0
REPO = Path(__file__).resolve().parents[1]

PK_PROGRAM = """
import json, sys, warnings
from pokerkit import (Automation, Card, FixedLimitRazz, FixedLimitSevenCardStud,
                      FixedLimitSevenCardStudHighLowSplitEightOrBetter)
GAMES = {"stud": FixedLimitSevenCardStud, "razz": FixedLimitRazz,
         "stud8": FixedLimitSevenCardStudHighLowSplitEightOrBetter}
AUTO = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
        Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
        Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
BURN = next(iter(Card.parse("??")))
warnings.simplefilter("error")
with open(sys.argv[1]) as handle:
    for line in handle:
        hand = json.loads(line)
        s = hand["stakes"]
        state = GAMES[hand["variant"]].create_state(
            AUTO, True, s["ante"], s["bring_in"], s["small_bet"], s["big_bet"],
            (hand["stack"],) * hand["players"], hand["players"])
        for op, arg in hand["ops"]:
            if op == "deal":
                state.deal_hole(next(iter(Card.parse(arg))))
            elif op == "burn":
                state.burn_card(BURN)
            elif op == "fold":
                state.fold()
            elif op == "check" or op == "call":
                state.check_or_call()
            elif op == "bring_in":
                state.post_bring_in()
            else:
                state.complete_bet_or_raise_to(arg)
        print(json.dumps(list(state.stacks)))
"""


def _hand_script(script: Script) -> dict[str, Any]:
    """The docs/replay.md script of a recorded hand (seat labels 0..7)."""
    state, events = start_hand(script.variant, STAKES, SEATS, script.deck, button=script.button)
    cards: dict[int, list[str | None]] = {seat.seat: [] for seat in SEATS}
    community = None
    actions: list[dict[str, Any]] = []

    def note(events: Sequence[object]) -> None:
        nonlocal community
        for event in events:
            if isinstance(event, CardDealt):
                cards[event.seat].append(str(event.card))
            elif isinstance(event, CommunityCardDealt):
                community = str(event.card)

    note(events)
    for seat, kind in zip(script.seats_to_act, script.actions, strict=True):
        state, events = apply(state, Action(seat, kind))
        actions.append({"seat": seat, "action": kind.value})
        note(events)
    return {
        "variant": script.variant.value,
        "stakes": {
            "ante": STAKES.ante,
            "bring_in": STAKES.bring_in,
            "small_bet": STAKES.small_bet,
            "big_bet": STAKES.big_bet,
        },
        "seats": [{"seat": seat.seat, "stack": seat.stack} for seat in SEATS],
        "button": script.button,
        "cards": {str(seat): texts for seat, texts in cards.items()},
        "community": community,
        "actions": actions,
    }


def _pk_ops(script: Script) -> list[tuple[str, Any]]:
    ops: list[tuple[str, Any]] = []
    for op, arg in (*script.pk_start, *(op for step in script.pk_steps for op in step)):
        if op == "deal":
            ops.append(("deal", repr(arg)))
        elif op == "burn":
            ops.append(("burn", None))
        else:
            kind, to = arg
            wager = kind not in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL)
            ops.append((kind.value, to if wager and kind is not ActionKind.BRING_IN else None))
    return ops


def _pk_line(script: Script) -> str:
    return json.dumps(
        {
            "variant": script.variant.value,
            "players": PLAYERS,
            "stack": SEATS[0].stack,
            "stakes": {
                "ante": STAKES.ante,
                "bring_in": STAKES.bring_in,
                "small_bet": STAKES.small_bet,
                "big_bet": STAKES.big_bet,
            },
            "ops": _pk_ops(script),
        }
    )


def _timed(command: Sequence[str]) -> tuple[float, float, str]:
    """Wall seconds, child CPU seconds and standard output of one process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True, cwd=REPO)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def _check(scripts: Sequence[Script], ours: str, theirs: str) -> int:
    """Same final stacks hand by hand; returns how many hands were compared."""
    compared = 0
    for number, (script, mine, pk) in enumerate(
        zip(scripts, ours.splitlines(), theirs.splitlines(), strict=True)
    ):
        result = json.loads(mine)
        assert result["ok"], f"hand {number}: {result}"
        if any(len(pot["high_winners"]) + len(pot["low_winners"]) > 1 for pot in result["pots"]):
            continue  # a shared pot: odd chips may go by other rules in pokerkit
        order = [(script.button + 1 + k) % PLAYERS for k in range(PLAYERS)]
        stacks = [result["final_stacks"][str(seat)] for seat in order]
        assert stacks == json.loads(pk), f"hand {number}: {stacks} vs {pk}"
        compared += 1
    return compared


def run(quick: bool = False) -> dict[str, float]:
    """Time both processes on the same hands; print the figures and return them."""
    per_game = 34 if quick else 134
    scripts: list[Script] = []
    for variant in Variant:
        scripts.extend(make_scripts(per_game, seed=77, variant=variant)[0])
    scripts = scripts[: 100 if quick else 400]
    with tempfile.TemporaryDirectory() as folder:
        ours_file, pk_file, program = (
            Path(folder) / name for name in ("h.jsonl", "p.jsonl", "p.py")
        )
        ours_file.write_text("".join(json.dumps(_hand_script(s)) + "\n" for s in scripts))
        pk_file.write_text("".join(_pk_line(s) + "\n" for s in scripts))
        program.write_text(PK_PROGRAM)
        ours_cmd = [sys.executable, "-m", "dealerbot.engine.replay", str(ours_file)]
        pk_cmd = [sys.executable, str(program), str(pk_file)]
        best = {"ours": (float("inf"), float("inf")), "pk": (float("inf"), float("inf"))}
        outputs = {}
        for _ in range(3):
            for name, command in (("ours", ours_cmd), ("pk", pk_cmd)):
                wall, cpu, out = _timed(command)
                best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
                outputs[name] = out
        compared = _check(scripts, outputs["ours"], outputs["pk"])
    (ours_wall, ours_cpu), (pk_wall, pk_cpu) = best["ours"], best["pk"]
    print(
        f"replay of {len(scripts)} 8-handed hands as a whole process: "
        f"ours {ours_wall:.2f} s, pokerkit {pk_wall:.2f} s, ratio {pk_wall / ours_wall:.1f} "
        f"(target >= {TARGET:g}); CPU ours {ours_cpu:.2f} s, pokerkit {pk_cpu:.2f} s, "
        f"ratio {pk_cpu / ours_cpu:.1f}; {compared} hands' final stacks compared"
    )
    return {
        "replay_s_ours": ours_wall,
        "replay_s_pokerkit": pk_wall,
        "replay_ratio": pk_wall / ours_wall,
        "replay_cpu_ratio": pk_cpu / ours_cpu,
    }


def main() -> None:
    run(quick="--quick" in sys.argv[1:])


if __name__ == "__main__":
    main()

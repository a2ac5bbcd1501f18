"""seat_facts (what statistics count of a hand) against a recount from the events alone."""

from __future__ import annotations

import os
import random

import pytest

from dealerbot.engine import (
    Action,
    ActionKind,
    PlayNotes,
    SeatSpec,
    Stakes,
    Variant,
    apply,
    legal_actions,
    note_events,
    seat_facts,
    shown_hand_name,
    shuffled_deck,
    start_hand,
)

from .stats_recount import recount

SCALE = float(os.environ.get("SOAK_SCALE", "1"))
STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)


def play(variant: Variant, rng: random.Random):
    players = rng.randint(2, 8)
    specs = [SeatSpec(seat, rng.choice([3, 12, 40, 200, 500])) for seat in range(players)]
    state, events = start_hand(variant, STAKES, specs, shuffled_deck(rng), rng.randrange(players))
    notes = note_events(PlayNotes(), events)
    every = list(events)
    while not state.is_over:
        options = legal_actions(state)
        kinds = [o.kind for o in options.options]
        if ActionKind.FOLD in kinds and len(kinds) > 1 and rng.random() < 0.7:
            kinds.remove(ActionKind.FOLD)
        assert options.seat is not None
        state, events = apply(state, Action(options.seat, rng.choice(kinds)))
        notes = note_events(notes, events)
        every.extend(events)
    return state, notes, every


@pytest.mark.parametrize("variant", list(Variant))
def test_seat_facts_match_a_recount_from_the_events(variant: Variant) -> None:
    rng = random.Random(f"facts-{variant.value}")
    seen = {"showdown": 0, "fold_out": 0, "entered": 0, "raised": 0, "seventh": 0}
    for _ in range(int(400 * SCALE)):
        state, notes, events = play(variant, rng)
        counted = recount(events)
        facts = {f.seat: f for f in seat_facts(state, notes)}
        assert set(facts) == set(counted)
        for seat, fact in facts.items():
            want = counted[seat]
            got = (fact.put_in, fact.won, fact.net, fact.last_street, fact.entered_third)
            assert got == (want.put_in, want.won, want.net, want.last_street, want.entered_third)
            assert (fact.raised_third, fact.showdown, fact.won_showdown) == (
                want.raised_third,
                want.showdown,
                want.won_showdown,
            )
            assert (fact.shown_rank, fact.shown_cards) == (want.shown_rank, want.shown_cards)
            if fact.shown_cards is not None:
                assert shown_hand_name(variant, fact.shown_cards) == want.shown_name
        assert sum(f.net for f in facts.values()) == 0
        showdown = any(f.showdown for f in facts.values())
        seen["showdown" if showdown else "fold_out"] += 1
        seen["entered"] += any(f.entered_third for f in facts.values())
        seen["raised"] += any(f.raised_third for f in facts.values())
        seen["seventh"] += any(f.last_street == 7 for f in facts.values())
    assert all(seen.values()), seen  # every kind of fact occurred


def test_the_forced_bring_in_and_antes_are_not_voluntary() -> None:
    # Two players: seat 0 brings in, seat 1 folds; seat 0 put in chips, none voluntarily.
    rng = random.Random(3)
    for _ in range(50):
        specs = [SeatSpec(0, 100), SeatSpec(1, 100)]
        state, events = start_hand(Variant.STUD, STAKES, specs, shuffled_deck(rng), 1)
        notes = note_events(PlayNotes(), events)
        opener = legal_actions(state)
        assert opener.seat is not None
        state, events = apply(state, Action(opener.seat, ActionKind.BRING_IN))
        notes = note_events(notes, events)
        other = legal_actions(state)
        assert other.seat is not None
        state, events = apply(state, Action(other.seat, ActionKind.FOLD))
        notes = note_events(notes, events)
        facts = {f.seat: f for f in seat_facts(state, notes)}
        assert not any(f.entered_third or f.raised_third for f in facts.values())
        # He collects both antes; his bring-in came back uncalled (R7.5), so he put in 1.
        assert (facts[opener.seat].won, facts[opener.seat].put_in) == (2, 1)
        assert facts[opener.seat].net == 1 and facts[other.seat].net == -1
        assert {f.last_street for f in facts.values()} == {3}
        assert not any(f.showdown or f.shown_cards for f in facts.values())


def test_a_hand_not_over_has_no_facts() -> None:
    state, _ = start_hand(
        Variant.STUD, STAKES, [SeatSpec(0, 50), SeatSpec(1, 50)], shuffled_deck(random.Random(1)), 1
    )
    with pytest.raises(ValueError):
        seat_facts(state, PlayNotes())

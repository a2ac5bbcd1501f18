"""A fingerprint of the engine's play: sha256 over 20,000 seeded hands.

Run it before and after a change that must not change play (a speed-up):
``python -m tests.engine.play_identity [hands] [seed]``; the two digests must be equal.

Every hand is random but seeded: the game, 2 to 8 players with labels that are not
0..n-1, the button, the stakes, stacks from a few chips (antes and bring-ins all-in) to
deep (the community card, R12.1), and the deck. At every decision it hashes the public state,
``legal_actions``, what ``option_for`` answers for every action kind (or the error it
raises), then applies a random choice: mostly an offered option, sometimes a ``bet_big`` or
``raise_big`` alias, an action that is not offered or a seat whose turn it is not (the error
text is hashed). Every event (with a shown hand's names), the result, and the state left
unchanged by ``apply`` are hashed too. Not a pytest module: a 20,000-hand run takes a while.
"""

from __future__ import annotations

import hashlib
import random
import sys
from typing import Any

from dealerbot.engine.cards import shuffled_deck
from dealerbot.engine.errors import EngineError
from dealerbot.engine.events import Action, ActionKind, Event, HandShown
from dealerbot.engine.hand import HandState
from dealerbot.engine.state import SeatSpec, apply, legal_actions, option_for, start_hand
from dealerbot.engine.variants import Stakes, Variant

HANDS = 20_000
SEED = 20_000
KINDS = tuple(ActionKind)


def snapshot(state: HandState) -> tuple[Any, ...]:
    """Everything a caller can read of a state."""
    return (
        state.variant,
        state.labels,
        state.button_seat,
        state.deck_pos,
        tuple(state.stacks),
        tuple(state.committed),
        tuple(state.street_bets),
        tuple(state.returned),
        tuple(state.cards),
        tuple(state.face_up),
        tuple(state.folded),
        tuple(state.acted),
        tuple(state.exposed),
        state.community,
        state.street,
        state.to_act,
        state.seat_to_act,
        state.current_bet,
        state.pot,
        tuple(state.round),
        state.bring_in_seat,
        state.seventh_first,
        tuple(state.first_actors.items()),
        state.actions_applied,
        state.is_over,
        state.result,
    )


def _event_text(event: Event) -> str:
    if isinstance(event, HandShown):
        return f"{event!r} {event.high} {event.low}"
    return repr(event)


def _stakes(rng: random.Random) -> Stakes:
    ante = rng.randint(1, 3)
    bring_in = rng.randint(ante, ante + 3)
    small_bet = rng.randint(bring_in + 1, bring_in + 6)
    return Stakes.of(small_bet=small_bet, ante=ante, bring_in=bring_in)


def _stack(rng: random.Random, stakes: Stakes) -> int:
    pick = rng.random()
    if pick < 0.15:
        return rng.randint(1, stakes.bring_in + 1)
    if pick < 0.45:
        return rng.randint(1, 6 * stakes.big_bet)
    if pick < 0.8:
        return rng.randint(6 * stakes.big_bet, 30 * stakes.big_bet)
    return 1_000 * stakes.big_bet


def play_hand(rng: random.Random, out: Any) -> None:
    """One random hand, every step written to ``out`` (a hash's ``update``)."""
    variant = rng.choice(tuple(Variant))
    stakes = _stakes(rng)
    players = rng.choice((2, 3, 4, 5, 6, 7, 8, 8, 8))
    labels = sorted(rng.sample(range(10), players))
    seats = [SeatSpec(label, _stack(rng, stakes)) for label in labels]
    button = rng.choice(labels)
    fold_weight = rng.choice((0, 1, 3))
    state, events = start_hand(variant, stakes, seats, shuffled_deck(rng), button=button)
    out(repr((variant, stakes, seats, button)).encode())
    out("".join(_event_text(event) for event in events).encode())
    while True:
        out(repr(snapshot(state)).encode())
        legal = legal_actions(state)
        out(repr(legal).encode())
        if state.is_over:
            break
        for kind in KINDS:
            try:
                out(repr(option_for(state, kind)).encode())
            except EngineError as error:
                out(f"{type(error).__name__}: {error}".encode())
        seat = state.seat_to_act
        assert seat is not None
        roll = rng.random()
        if roll < 0.03:
            action = Action(rng.choice([*labels, 11]), rng.choice(KINDS))
        elif roll < 0.1:
            action = Action(seat, rng.choice(KINDS))
        else:
            weights = [fold_weight if o.kind is ActionKind.FOLD else 4 for o in legal.options]
            if not any(weights):
                weights = [1] * len(weights)
            action = Action(seat, rng.choices(legal.options, weights)[0].kind)
        given, before = state, snapshot(state)
        try:
            state, events = apply(given, action)
        except EngineError as error:
            out(f"{action!r} {type(error).__name__}: {error}".encode())
        else:
            out(repr(action).encode())
            out("".join(_event_text(event) for event in events).encode())
        if snapshot(given) != before:
            raise AssertionError("apply changed the state it was given")
    out(repr(state.result).encode())


def digest(hands: int = HANDS, seed: int = SEED) -> str:
    rng = random.Random(seed)
    sha = hashlib.sha256()
    for _ in range(hands):
        play_hand(rng, sha.update)
    return sha.hexdigest()


if __name__ == "__main__":
    args = sys.argv[1:]
    count = int(args[0]) if args else HANDS
    seed = int(args[1]) if len(args) > 1 else SEED
    print(f"{count} hands, seed {seed}: {digest(count, seed)}")

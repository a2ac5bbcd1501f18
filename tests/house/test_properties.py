"""Property tests of the house strategy: seeded random play of thousands of situations per game.

Each hand deals 2-8 players (tiny stacks in some hands, so all-ins and short calls come up,
deep ones in others), any stakes and button; each seat is either a house player or a random
legal player. At every house decision, made from the seat's ``player_view`` only:

* the decision is one of the options the engine offers, applied as the engine's Action, and
  the engine accepts it for the chips the option announced;
* the same situation and seed give the same decision;
* every few decisions, the other seats' hidden cards and the undealt deck are rotated (the
  same actions replayed on a deck where each card the seat cannot see has moved): the seat's
  view is the same, and so is the decision.

``SOAK_SCALE`` (default 1) multiplies the number of hands. The Monte Carlo runs with a small
sample count here: legality does not depend on it, and the suite stays fast.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence

import pytest

from dealerbot.engine import (
    Action,
    ActionKind,
    Card,
    Event,
    HandState,
    LegalAction,
    SeatSpec,
    Stakes,
    Variant,
    apply,
    legal_actions,
    player_view,
    shuffled_deck,
    start_hand,
)
from dealerbot.engine.events import ActionTaken
from dealerbot.house import Decision, HouseStyle, Situation, decide

pytestmark = pytest.mark.soak

SOAK_SCALE = float(os.environ.get("SOAK_SCALE", "1"))
HANDS = max(100, int(400 * SOAK_SCALE))  # 100: enough for every kind of answer
STYLE = HouseStyle(bluff_rate=0.3, samples=12)
SWAP_EVERY = 5  # decisions between two hidden-card rotations


def random_stakes(rng: random.Random) -> Stakes:
    small = rng.randint(2, 12)
    ante = rng.randint(1, small - 1)
    return Stakes.of(small_bet=small, ante=ante, bring_in=rng.randint(ante, small - 1))


def random_stacks(rng: random.Random, count: int) -> list[int]:
    profile = rng.choice(("tiny", "mixed", "deep"))
    if profile == "tiny":
        return [rng.randint(1, 15) for _ in range(count)]
    if profile == "mixed":
        return [rng.choice((rng.randint(1, 30), rng.randint(31, 400))) for _ in range(count)]
    return [rng.randint(100, 1000) for _ in range(count)]


def random_choice(rng: random.Random, options: Sequence[LegalAction]) -> LegalAction:
    """A random legal option; folds weigh less, so hands last and the house decides often."""
    weights = [1 if option.kind is ActionKind.FOLD else 4 for option in options]
    return rng.choices(options, weights)[0]


def replay(
    variant: Variant,
    stakes: Stakes,
    seats: Sequence[SeatSpec],
    deck: Sequence[Card],
    button: int,
    actions: Sequence[Action],
) -> tuple[HandState, list[Event]]:
    state, first = start_hand(variant, stakes, seats, deck, button=button)
    events = list(first)
    for action in actions:
        state, more = apply(state, action)
        events.extend(more)
    return state, events


def rotated_deck(state: HandState, seat: int) -> tuple[tuple[Card, ...], int]:
    """The deck with every card ``seat`` cannot see moved one place along (the other seats'
    hidden cards and the undealt cards), and how many cards moved."""
    view = player_view(state, seat)
    hidden = [
        state.cards[i][k]
        for i, sight in enumerate(view.seats)
        if sight.seat != seat
        for k, card in enumerate(sight.cards)
        if card.card is None
    ]
    pool = hidden + list(state.deck[state.deck_pos :])
    if len(pool) < 2:
        return state.deck, 0
    moved = dict(zip(pool, pool[1:] + pool[:1], strict=True))
    return tuple(moved.get(card, card) for card in state.deck), len(pool)


def check_decision(state: HandState, events: Sequence[Event], seed: int) -> Decision:
    seat = state.seat_to_act
    assert seat is not None
    situation = Situation.from_view(player_view(state, seat), seat, events)
    decision = decide(situation, random.Random(seed), STYLE)
    legal = legal_actions(state)
    assert decision.option in legal.options, (decision, legal)
    assert decision.action == Action(seat, decision.option.kind)
    assert decision.reason and decision.reason.endswith(tuple(_VERB_ENDINGS))
    rebuilt = Situation.from_view(player_view(state, seat), seat, events)
    again = decide(rebuilt, random.Random(seed), STYLE)
    assert again == decision, "the same situation and seed gave another decision"
    return decision


_VERB_ENDINGS = (
    ": bring in",
    ": complete",
    ": bet",
    ": raise",
    ": call",
    ": check",
    ": fold",
)


@pytest.mark.parametrize("variant", list(Variant))
def test_house_decisions_are_legal_deterministic_and_blind(variant: Variant) -> None:
    rng = random.Random(f"house-{variant.value}")
    decisions = swaps = 0
    kinds: set[str] = set()
    for _ in range(HANDS):
        count = rng.randint(2, 8)
        stakes = random_stakes(rng)
        seats = [SeatSpec(seat, stack) for seat, stack in enumerate(random_stacks(rng, count))]
        button = rng.randrange(count)
        house = {seat.seat for seat in seats if rng.random() < 0.7}
        deck = shuffled_deck(rng)
        state, first = start_hand(variant, stakes, seats, deck, button=button)
        events: list[Event] = list(first)
        actions: list[Action] = []
        while not state.is_over:
            seat = state.seat_to_act
            assert seat is not None
            if seat in house:
                seed = rng.randrange(1 << 30)
                decision = check_decision(state, events, seed)
                decisions += 1
                kinds.add(decision.option.kind.value)
                if decisions % SWAP_EVERY == 0:
                    swaps += check_blind(
                        variant, stakes, seats, state, button, actions, seed, decision
                    )
                action = decision.action
            else:
                action = Action(seat, random_choice(rng, legal_actions(state).options).kind)
            option = next(o for o in legal_actions(state).options if o.kind is action.kind)
            state, more = apply(state, action)
            taken = [e for e in more if isinstance(e, ActionTaken)]
            assert taken and taken[0].amount == option.amount
            events.extend(more)
            actions.append(action)
    assert decisions >= 4 * HANDS  # thousands of situations at the default size
    assert swaps >= decisions // (2 * SWAP_EVERY)  # most rotations moved some card
    # every kind of answer came up, so the checks above saw each line of the strategy
    assert kinds >= {"fold", "call", "check", "bet", "raise", "complete", "bring_in"}


def check_blind(
    variant: Variant,
    stakes: Stakes,
    seats: Sequence[SeatSpec],
    state: HandState,
    button: int,
    actions: Sequence[Action],
    seed: int,
    decision: Decision,
) -> int:
    """The decision is the same after every card the seat cannot see has moved; 1 if any did."""
    seat = state.seat_to_act
    assert seat is not None
    deck, moved = rotated_deck(state, seat)
    if not moved:
        return 0
    other, events = replay(variant, stakes, seats, deck, button, actions)
    assert other.seat_to_act == seat
    assert other.cards != state.cards or other.deck != state.deck
    view = player_view(other, seat)
    assert view == player_view(state, seat)
    situation = Situation.from_view(view, seat, events)
    assert decide(situation, random.Random(seed), STYLE) == decision
    return 1

"""Helpers for the rule tests: decks in dealing order, hands from per-seat cards, action scripts.

Seats are labelled 0..n-1 in clockwise order (``S0`` .. ``S7`` in docs/rules.md); the button is
a label (default: the last seat, so S0 is dealt first, as in the engine). Rule tests name the
cards that matter per seat and let :func:`build_deck` put them where the engine will deal them,
so a test reads like the docs/rules.md example it checks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from dealerbot.engine.cards import ALL_CARDS, Card
from dealerbot.engine.events import Action, ActionKind, Event, LegalActions
from dealerbot.engine.replay import replay_script
from dealerbot.engine.state import (
    HandResult,
    HandState,
    SeatSpec,
    apply,
    legal_actions,
    start_hand,
)
from dealerbot.engine.variants import Stakes, Variant

E = TypeVar("E", bound=Event)

STAKES = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
"""The stakes of every docs/rules.md example: 5/10, ante 1, bring-in 2."""

UNKNOWN = frozenset({"?", "??", "x", "xx", "-", "None"})

CardSpec = str | Sequence[str | None]
"""A seat's cards in the order he receives them (down, down, door, 4th, 5th, 6th, 7th),
as ``"As Kd 2c"`` or ``["As", None, "2c"]``; ``?`` or None means "any unused card"."""


def parse_spec(spec: CardSpec) -> list[Card | None]:
    parts: Iterable[str | None] = spec.split() if isinstance(spec, str) else spec
    return [None if part is None or part in UNKNOWN else Card.parse(part) for part in parts]


def dealing_order(seats: Sequence[int], button: int | None) -> list[int]:
    """Seat labels clockwise from the first seat left of the button (R2.2)."""
    start = len(seats) if button is None else seats.index(button) + 1
    return [seats[(start + k) % len(seats)] for k in range(len(seats))]


def build_deck(
    seats: Sequence[int],
    cards: Mapping[int, CardSpec],
    button: int | None = None,
    community: str | None = None,
) -> tuple[Card, ...]:
    """A 52-card deck that deals ``cards`` to ``seats`` (R2.1-R2.3, R12.1).

    A seat's list holds exactly the cards it is dealt: a list shorter than the full deal
    means the seat folded after its last card (it gets nothing on later streets). Seats
    missing from ``cards`` stay in to the end with unknown cards. With ``community`` the
    players reaching 7th street share that card (R12.1) and nobody gets a 7th card; a full
    deal is then six cards. Unnamed places get the unused cards in order 2c, 2d, .. As
    (the fill order of docs/replay.md).
    """
    full = 6 if community is not None else 7
    specs = {seat: parse_spec(cards[seat]) if seat in cards else [None] * full for seat in seats}
    for seat, spec in specs.items():
        if len(spec) > full:
            raise ValueError(f"seat {seat} cannot receive {len(spec)} cards")
    order = dealing_order(seats, button)
    slots: list[Card | None] = []
    for index in range(3):  # 3rd street: down, down, door, a round each
        slots.extend(specs[seat][index] for seat in order)
    for index in range(3, 6):  # 4th to 6th street: players still in
        slots.extend(specs[seat][index] for seat in order if len(specs[seat]) > index)
    if community is not None:
        slots.append(Card.parse(community))
    else:
        slots.extend(specs[seat][6] for seat in order if len(specs[seat]) > 6)
    if len(slots) > 52:
        raise ValueError("more than 52 cards dealt; pass the community card (R12.1)")
    named = [card for card in slots if card is not None]
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice")
    spare = iter(card for card in ALL_CARDS if card not in set(named))
    deck = [card if card is not None else next(spare) for card in slots]
    deck.extend(spare)
    return tuple(deck)


_PASSIVE = frozenset({ActionKind.FOLD, ActionKind.CHECK})


@dataclass
class Hand:
    """A hand being played by a test: the current state and every event so far."""

    state: HandState
    events: list[Event] = field(default_factory=list)

    def play(self, script: str) -> Hand:
        """Apply actions like ``"S1 complete, S2 call, S0 fold"`` (see :func:`parse_script`)."""
        for seat, kind in parse_script(script):
            self.act(kind, seat)
        return self

    def act(self, kind: ActionKind, seat: int | None = None) -> Hand:
        """One action; ``seat`` None means the seat to act."""
        actor = self.state.seat_to_act if seat is None else seat
        assert actor is not None, f"nobody is to act; cannot {kind.value}"
        self.state, events = apply(self.state, Action(actor, kind))
        self.events.extend(events)
        return self

    def check_down(self, until_street: int | None = None) -> Hand:
        """Play passively: bring in, call or check, until ``until_street`` starts or the end."""
        while self.state.seat_to_act is not None and (
            until_street is None or self.state.street < until_street
        ):
            kinds = legal_actions(self.state).kinds
            for kind in (ActionKind.BRING_IN, ActionKind.CHECK, ActionKind.CALL):
                if kind in kinds:
                    self.act(kind)
                    break
        return self

    # --- reading ---------------------------------------------------------------
    @property
    def legal(self) -> LegalActions:
        return legal_actions(self.state)

    @property
    def to_act(self) -> int | None:
        return self.state.seat_to_act

    def offered(self) -> dict[str, int]:
        """What the seat to act may do: action name -> his round total after it (0: fold, check)."""
        return {
            option.kind.value: 0 if option.kind in _PASSIVE else option.to
            for option in legal_actions(self.state).options
        }

    def amounts(self) -> dict[str, int]:
        """What the seat to act may do: action name -> chips it puts in now."""
        return {option.kind.value: option.amount for option in legal_actions(self.state).options}

    def of_type(self, kind: type[E]) -> list[E]:
        """The events of one type, in order."""
        return [event for event in self.events if isinstance(event, kind)]

    @property
    def result(self) -> HandResult:
        assert self.state.result is not None, "the hand is not over"
        return self.state.result

    def shares(self) -> list[dict[int, int]]:
        """Chips each pot paid, by seat, main pot first."""
        return [dict(pot.shares) for pot in self.result.pots]


def parse_script(script: str) -> list[tuple[int | None, ActionKind]]:
    """``"S1 complete, S2 call, fold"`` -> [(1, COMPLETE), (2, CALL), (None, FOLD)].

    Separators are commas or semicolons; ``bring-in`` and ``bring_in`` are both fine.
    """
    steps: list[tuple[int | None, ActionKind]] = []
    for chunk in script.replace(";", ",").split(","):
        words = chunk.split()
        if not words:
            continue
        seat: int | None = None
        if words[0][0] in "Ss" and words[0][1:].isdigit():
            seat = int(words[0][1:])
            words = words[1:]
        if len(words) != 1:
            raise ValueError(f"cannot read {chunk.strip()!r}: write 'S1 call'")
        steps.append((seat, ActionKind(words[0].lower().replace("-", "_"))))
    return steps


def deal(
    cards: Mapping[int, CardSpec],
    *,
    players: int | None = None,
    stacks: int | Sequence[int] | Mapping[int, int] = 100,
    button: int | None = None,
    variant: Variant = Variant.STUD,
    stakes: Stakes = STAKES,
    community: str | None = None,
) -> Hand:
    """Start a hand for seats 0..players-1 (default: up to the highest seat in ``cards``)."""
    count = players if players is not None else max(cards) + 1
    seats = list(range(count))
    chips = _chips(seats, stacks)
    deck = build_deck(seats, cards, button, community)
    specs = [SeatSpec(seat, chips[seat]) for seat in seats]
    state, events = start_hand(variant, stakes, specs, deck, button=button)
    return Hand(state, list(events))


def run(cards: Mapping[int, CardSpec], script: str = "", **kwargs: object) -> Hand:
    """:func:`deal` then :meth:`Hand.play`."""
    return deal(cards, **kwargs).play(script)  # type: ignore[arg-type]


def _chips(seats: Sequence[int], stacks: int | Sequence[int] | Mapping[int, int]) -> dict[int, int]:
    if isinstance(stacks, int):
        return dict.fromkeys(seats, stacks)
    if isinstance(stacks, Mapping):
        return {seat: stacks.get(seat, 100) for seat in seats}
    return dict(zip(seats, stacks, strict=True))


def replay(
    cards: Mapping[int, CardSpec],
    script: str,
    *,
    players: int | None = None,
    stacks: int | Sequence[int] | Mapping[int, int] = 100,
    button: int | None = None,
    variant: Variant = Variant.STUD,
    stakes: Stakes = STAKES,
    community: str | None = None,
) -> dict[str, Any]:
    """Play a whole hand through the replay tool (docs/replay.md) and return its result.

    Same arguments as :func:`deal`; ``script`` as in :func:`parse_script` (a seat, when
    given, is checked by the tool to be the seat to act).
    """
    count = players if players is not None else max(cards) + 1
    seats = list(range(count))
    chips = _chips(seats, stacks)
    hand_script: dict[str, Any] = {
        "variant": variant.value,
        "stakes": {
            "ante": stakes.ante,
            "bring_in": stakes.bring_in,
            "small_bet": stakes.small_bet,
            "big_bet": stakes.big_bet,
        },
        "seats": [{"seat": seat, "stack": chips[seat]} for seat in seats],
        "cards": {
            str(seat): [None if c is None else str(c) for c in parse_spec(spec)]
            for seat, spec in cards.items()
        },
        "community": community,
        "actions": [
            {"action": kind.value} if seat is None else {"seat": seat, "action": kind.value}
            for seat, kind in parse_script(script)
        ],
    }
    if button is not None:
        hand_script["button"] = button
    return replay_script(hand_script)

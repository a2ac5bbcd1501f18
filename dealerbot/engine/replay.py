"""The hand-script tool: ``python -m dealerbot.engine.replay [FILE]``.

Reads hand scripts (one JSON object per line, from FILE or standard input), plays each
through the engine and writes one JSON result per line, in order. The format is the
one of docs/replay.md: a script names the variant, stakes, seats, button, each seat's cards
in the order received (``null`` or missing = unknown), the community card and the
actions; the result gives the bring-in seat, first actors, community card, showdown
order, pots with winners, returned chips, payouts and final stacks, or
``{"ok": false, "error", "action_index"}``.

A script the engine refuses before any action (bad stakes, see R1.2; player count, see R1.1;
a card named twice) gives ``ok: false`` with ``action_index: null``. A line that is
not JSON, or not shaped like a hand script, stops the tool with exit code 2.

Cards are placed in the deck where the hand deals them, in one pass: who receives the
n-th card depends on folds, and a fold is the only thing that changes who is dealt the
streets to come.  So the deck starts planned for everyone to 7th street; when an action
after a fold deals cards, the undealt part is planned again for the players left and that
one action is applied again to the state before it (states never change, so nothing else
is replayed; dealt cards stay where they are, R2.1).  Unknown cards are filled, in dealing
order, from the cards named nowhere in the script, 2♣ 2♦ 2♥ 2♠ 3♣ ... A♠.

A script names what the player did, not which button he had: "a wager the stack cannot
cover goes all-in" (docs/replay.md). The engine answers what the seat may do; when a scripted
``complete``, ``bet`` or ``raise`` (the wager the round would name now, betting.py's
``wager_kinds``) is not among its choices because the seat's only wager left is an all-in
bring-in (R3.7) or an all-in call (R7.1), that all-in is played. A call or wager the stack
can partly cover is already offered all-in by the engine (R7.1).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TextIO

from .betting import wager_kinds
from .cards import ALL_CARDS, Card, card_of_text, validate_deck
from .errors import EngineError, IllegalActionError
from .events import Action, ActionKind, CardDealt, CommunityCardDealt, LegalAction
from .state import HandState, SeatSpec, apply, legal_actions, option_for, start_hand
from .variants import LAST_STREET, STREET_CARDS, Stakes, Variant

DECK_SIZE = 52
_DEALING = (CardDealt, CommunityCardDealt)

DealSlot = tuple[int, int]  # (seat label, n-th card of that seat); (-1, 0) is the community card
COMMUNITY: DealSlot = (-1, 0)


class ScriptError(ValueError):
    """The input is not a hand script (wrong shape or types)."""


class ScriptAction(NamedTuple):
    kind: ActionKind
    seat: int | None
    amount: int | None


@dataclass(frozen=True, slots=True)
class HandScript:
    variant: Variant
    stakes: Mapping[str, int]
    seats: tuple[SeatSpec, ...]
    button: int | None
    cards: Mapping[int, tuple[str | None, ...]]
    community: str | None
    actions: tuple[ScriptAction, ...]


class _Refused(Exception):
    """The engine refused the script; carries the result line."""

    def __init__(self, error: str, action_index: int | None) -> None:
        super().__init__(error)
        self.result: dict[str, Any] = {"ok": False, "error": error, "action_index": action_index}


def replay_script(script: Mapping[str, Any]) -> dict[str, Any]:
    """Play one hand script (already decoded from JSON) and return its result object."""
    parsed = parse_script(script)
    try:
        return _replay(parsed)
    except _Refused as refused:
        return refused.result


def parse_script(raw: Mapping[str, Any]) -> HandScript:
    """Check the shape of a script; raise ScriptError when it is not a hand script."""
    if not isinstance(raw, Mapping):
        raise ScriptError("a hand script is a JSON object")
    for key in ("variant", "stakes", "seats", "actions"):
        if key not in raw:
            raise ScriptError(f"missing key {key!r}")
    variant_text = raw["variant"]
    if variant_text not in _VARIANTS:
        raise ScriptError(f"variant must be one of {', '.join(repr(v.value) for v in Variant)}")
    stakes = raw["stakes"]
    if not isinstance(stakes, Mapping) or any(
        not _is_int(stakes.get(k)) for k in ("ante", "bring_in", "small_bet", "big_bet")
    ):
        raise ScriptError("stakes need integer ante, bring_in, small_bet and big_bet")
    seats_raw = raw["seats"]
    if not isinstance(seats_raw, list) or not all(
        isinstance(s, Mapping) and _is_int(s.get("seat")) and _is_int(s.get("stack"))
        for s in seats_raw
    ):
        raise ScriptError("seats must be a list of {seat, stack} with integers")
    seats = tuple(SeatSpec(s["seat"], s["stack"]) for s in seats_raw)
    button = raw.get("button")
    if button is not None and not _is_int(button):
        raise ScriptError("button must be a seat number")
    cards_raw = raw.get("cards") or {}
    if not isinstance(cards_raw, Mapping):
        raise ScriptError("cards must be an object of seat -> list of cards")
    cards: dict[int, tuple[str | None, ...]] = {}
    for key, value in cards_raw.items():
        try:
            label = int(key)
        except (TypeError, ValueError):
            raise ScriptError(f"cards key {key!r} is not a seat number") from None
        if not isinstance(value, list) or len(value) > 7:
            raise ScriptError(f"cards of seat {key} must be a list of at most 7 cards")
        if not all(c is None or isinstance(c, str) for c in value):
            raise ScriptError(f"cards of seat {key} must be card texts or null")
        cards[label] = tuple(value)
    community = raw.get("community")
    if community is not None and not isinstance(community, str):
        raise ScriptError("community must be a card text or null")
    actions_raw = raw["actions"]
    if not isinstance(actions_raw, list):
        raise ScriptError("actions must be a list")
    actions = []
    for index, item in enumerate(actions_raw):
        if not isinstance(item, Mapping) or not isinstance(item.get("action"), str):
            raise ScriptError(f"action {index} must be an object with an 'action' name")
        seat, amount = item.get("seat"), item.get("amount")
        if (seat is not None and not _is_int(seat)) or (amount is not None and not _is_int(amount)):
            raise ScriptError(f"action {index}: seat and amount must be integers")
        kind = _KINDS.get(item["action"])
        if kind is None:
            raise ScriptError(f"action {index}: unknown action {item['action']!r}")
        actions.append(ScriptAction(kind, seat, amount))
    return HandScript(
        _VARIANTS[variant_text], stakes, seats, button, cards, community, tuple(actions)
    )


_VARIANTS = {variant.value: variant for variant in Variant}
_KINDS = {kind.value: kind for kind in ActionKind}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _replay(script: HandScript) -> dict[str, Any]:
    try:
        stakes = Stakes(
            **{k: script.stakes[k] for k in ("ante", "bring_in", "small_bet", "big_bet")}
        )
        named = _named_cards(script)
    except EngineError as error:
        raise _Refused(str(error), None) from None
    labels = [spec.seat for spec in script.seats]
    unknown = [label for label in script.cards if label not in labels]
    if unknown:
        raise _Refused(f"cards are given for seat {unknown[0]}, which is not in the hand", None)
    deck = _build_deck(_default_slots(labels, script.button), named)
    state, outcome = _play(script, stakes, deck, named)
    if isinstance(outcome, _Refused):
        return outcome.result
    return _result(state)


@dataclass(frozen=True, slots=True)
class _Named:
    by_slot: dict[DealSlot, Card]
    fillers: tuple[Card, ...]


def _named_cards(script: HandScript) -> _Named:
    by_slot: dict[DealSlot, Card] = {}
    seen: dict[Card, str] = {}
    for label, texts in script.cards.items():
        for n, text in enumerate(texts):
            if text is None:
                continue
            card = card_of_text(text)
            if card in seen:
                raise _Refused(f"card {card} is given twice", None)
            seen[card] = text
            by_slot[(label, n)] = card
    if script.community is not None:
        card = card_of_text(script.community)
        if card in seen:
            raise _Refused(f"card {card} is given twice", None)
        seen[card] = script.community
        by_slot[COMMUNITY] = card
    fillers = tuple(card for card in ALL_CARDS if card not in seen)
    return _Named(by_slot, fillers)


def _default_slots(labels: Sequence[int], button: int | None) -> list[DealSlot]:
    """First guess: nobody folds, everyone is dealt every street from the button's left."""
    start = labels.index(button) + 1 if button in labels else 0
    order = [labels[(start + k) % len(labels)] for k in range(len(labels))]
    return _plan(order, dict.fromkeys(order, 0), 0, 3)


def _build_deck(slots: Sequence[DealSlot], named: _Named, dealt: Sequence[Card] = ()) -> list[Card]:
    """The ``dealt`` cards, then a card for each slot to come (its named card, else the next
    unused filler), then every card left; 52 in all."""
    placed = set(dealt)
    fillers: Iterator[Card] = (card for card in named.fillers if card not in placed)
    deck: list[Card] = list(dealt)
    for slot in slots:  # a first guess may name more slots than 52 cards can fill
        card = named.by_slot.get(slot)
        if card is None:
            card = next(fillers, None)
            if card is None:
                continue
        deck.append(card)
    placed.update(deck)
    deck.extend(card for card in named.fillers if card not in placed)
    deck.extend(card for card in named.by_slot.values() if card not in placed)
    return deck[:52]


def restocked(state: HandState, deck: Sequence[Card]) -> HandState:
    """``state`` with the undealt part of its deck replaced (the replay tool places scripted
    cards as the hand goes); the cards already dealt must stay where they are (R2.1)."""
    cards = validate_deck(deck)
    if cards[: state.deck_pos] != state.deck[: state.deck_pos]:
        raise EngineError("a restocked deck must keep the cards already dealt")
    s = state._clone()
    s.deck = cards
    return s


def _plan(
    live: Sequence[int], counts: dict[int, int], position: int, street: int
) -> list[DealSlot]:
    """The slots dealt from deck ``position`` on, from ``street`` to 7th street, to the ``live``
    seats (clockwise from the button's left, R2.2, R2.3) holding ``counts`` cards each; the
    community card replaces 7th street when too few cards remain (R12.1)."""
    counts = dict(counts)
    slots: list[DealSlot] = []
    for number in range(street, LAST_STREET + 1):
        if number == LAST_STREET and DECK_SIZE - position < len(live):
            slots.append(COMMUNITY)
            break
        for _ in STREET_CARDS[number]:
            for label in live:
                slots.append((label, counts[label]))
                counts[label] += 1
                position += 1
    return slots


def _restock(state: HandState, leaving: int | None, named: _Named) -> HandState:
    """``state`` with the undealt cards placed for the players left (after ``leaving`` folds)."""
    labels, n = state.labels, len(state.labels)
    live = [
        labels[i]
        for i in ((state.button + 1 + k) % n for k in range(n))
        if not state.folded[i] and labels[i] != leaving
    ]
    counts = {labels[i]: len(state.cards[i]) for i in range(n)}
    slots = _plan(live, counts, state.deck_pos, state.street + 1)
    return restocked(state, _build_deck(slots, named, state.deck[: state.deck_pos]))


def _play(
    script: HandScript, stakes: Stakes, deck: Sequence[Card], named: _Named
) -> tuple[HandState, _Refused | None]:
    try:
        state, _ = start_hand(script.variant, stakes, script.seats, deck, script.button)
    except EngineError as error:
        raise _Refused(str(error), None) from None
    stale = False  # a fold since the deck's undealt part was planned
    for index, item in enumerate(script.actions):
        if state.is_over:
            return state, _Refused(f"the hand ended before action {index}", index)
        seat = state.seat_to_act
        assert seat is not None
        try:
            if item.seat is not None and item.seat != seat:
                raise EngineError(f"it is seat {seat}'s turn, not seat {item.seat}'s")
            option = scripted_option(state, item.kind)
            if item.amount is not None and item.amount != option.amount:
                raise EngineError(
                    f"{item.kind.value} by seat {seat} puts in {option.amount} chips, "
                    f"not {item.amount}"
                )
            action = Action(seat, option.kind)
            folds = option.kind is ActionKind.FOLD
            after, events = apply(state, action)
            if (stale or folds) and any(type(event) in _DEALING for event in events):
                # cards were dealt from a deck planned before a fold: plan again, act again
                state = _restock(state, seat if folds else None, named)
                after, _ = apply(state, action)
                stale = False
            else:
                stale = stale or folds
            state = after
        except EngineError as error:
            return state, _Refused(str(error), index)
    if not state.is_over:
        return state, _Refused("the actions ran out before the hand ended", len(script.actions))
    return state, None


_SHORT_WAGERS = frozenset({ActionKind.BRING_IN, ActionKind.CALL})


def scripted_option(state: HandState, kind: ActionKind) -> LegalAction:
    """The engine's option for a scripted ``kind``: the option it names, or, for the wager
    the round would name now (a completion, bet or raise) when the seat's only wager left is
    an all-in bring-in or call, that all-in (docs/replay.md: a wager the stack cannot cover goes
    all-in). Anything else the engine refuses, with its list of choices."""
    try:
        return option_for(state, kind)
    except IllegalActionError:
        if kind not in wager_kinds(state.street, state.round.bets_made):
            raise
        wagers = [
            option
            for option in legal_actions(state).options
            if option.kind not in (ActionKind.FOLD, ActionKind.CHECK)
        ]
        if len(wagers) != 1 or not wagers[0].all_in or wagers[0].kind not in _SHORT_WAGERS:
            raise
        return wagers[0]


def _result(state: HandState) -> dict[str, Any]:
    result = state.result
    assert result is not None
    order = state.labels
    return {
        "ok": True,
        "bring_in_seat": state.bring_in_seat,
        "first_actor": {str(street): seat for street, seat in sorted(state.first_actors.items())},
        "community": str(state.community) if state.community is not None else None,
        "showdown_order": list(result.showdown_order),
        "pots": [pot.to_json() for pot in result.pots],
        "returned": {str(s): result.returned[s] for s in order if s in result.returned},
        "payouts": {str(s): result.payouts[s] for s in order if s in result.payouts},
        "final_stacks": {str(s): result.final_stacks[s] for s in order},
    }


def run(lines: TextIO, out: TextIO, err: TextIO) -> int:
    """Replay every line; 0 when all were read, 2 at the first line that is not a script."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            result = replay_script(raw)
        except json.JSONDecodeError as error:
            err.write(f"line {number}: not valid JSON: {error}\n")
            return 2
        except ScriptError as error:
            err.write(f"line {number}: not a hand script: {error}\n")
            return 2
        out.write(json.dumps(result) + "\n")
        out.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) > 1:
        sys.stderr.write("usage: python -m dealerbot.engine.replay [FILE]\n")
        return 2
    if not args or args[0] == "-":
        return run(sys.stdin, sys.stdout, sys.stderr)
    try:
        with open(args[0], encoding="utf-8") as handle:
            return run(handle, sys.stdout, sys.stderr)
    except OSError as error:
        sys.stderr.write(f"cannot read {args[0]}: {error.strerror}\n")
        return 2


if __name__ == "__main__":
    sys.exit(main())

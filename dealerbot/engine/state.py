"""The hand: ``start_hand``, ``legal_actions(state)`` and ``apply(state, action)``.

Implements: R1.1, R1.3 (setup, antes), R2.1-R2.4 (dealing from the top, clockwise,
by the street table), R5.1 (streets in order, the round's end), R6.5 (skipped rounds),
R8.2 (hands turned up when betting ends early), R12.1, R12.3 (the community card).

A :class:`HandState` is never changed in place: ``apply`` returns a new state and the
events the action caused, so the same deck and actions always give the same events.
The legal-actions query and ``apply`` ask betting.py's one option rule (``apply`` only for
the kind the action names), so what is offered and what is accepted cannot drift apart.
The rest comes from the rule owners: betting.py (see R4.1), opener.py (see R3.1, R6.1),
pots.py (see R7.4, R7.5) and showdown.py (see R8.1, R8.4), through hand_end.py at the end
of a hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from .betting import (
    ROUND_KEPT,
    Round,
    after_wager,
    has_open_pair,
    next_to_act,
    option,
    options,
    pick,
)
from .cards import Card, validate_deck
from .errors import HandOverError, IllegalActionError, NotYourTurnError, SetupError
from .events import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    CardDealt,
    CardsExposed,
    CommunityCardDealt,
    Event,
    HandStarted,
    LegalAction,
    LegalActions,
    RoundSkipped,
    StreetStarted,
)
from .hand import HandState, SeatSpec
from .hand_end import cancel, finish_unshown, return_uncalled, showdown
from .opener import (
    BOARD_DIGIT,
    CLOCKWISE,
    best_board_index,
    bring_in_index,
    clockwise_from,
    next_able,
)
from .showdown import HandResult, PotResult
from .variants import (
    LAST_STREET,
    MAX_PLAYERS,
    MIN_PLAYERS,
    STREET_CARDS,
    UP_CARDS,
    Stakes,
    Variant,
)

__all__ = [
    "HandResult",
    "HandState",
    "PotResult",
    "SeatSpec",
    "apply",
    "legal_actions",
    "option_for",
    "start_hand",
]


# Events on the hot paths are built without their named tuple's Python-level __new__.
_new = tuple.__new__
_FOLD = ActionKind.FOLD


# --- public API ----------------------------------------------------------------


def start_hand(
    variant: Variant,
    stakes: Stakes,
    seats: Sequence[SeatSpec],
    deck: Sequence[Card | int],
    button: int | None = None,
) -> tuple[HandState, tuple[Event, ...]]:
    """Post antes, deal 3rd street and open its betting (or run the hand out, R6.5).

    ``seats`` are the players dealt in, clockwise; ``button`` is a seat label
    (default: the last seat, so the first listed is dealt first, R2.2).
    """
    if not isinstance(variant, Variant):
        raise SetupError(f"unknown game {variant!r}")
    if not isinstance(stakes, Stakes):
        raise SetupError("stakes must be a Stakes value")
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        raise SetupError(
            f"a hand needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(seats)} (R1.1)"
        )
    labels = tuple([spec.seat for spec in seats])
    if len(set(labels)) != len(labels):
        raise SetupError("two players share a seat")
    for spec in seats:
        if not isinstance(spec.stack, int) or isinstance(spec.stack, bool) or spec.stack <= 0:
            raise SetupError(f"seat {spec.seat} needs a whole, positive number of chips (R1.1)")
    if button is None:
        button_index = len(labels) - 1
    elif button in labels:
        button_index = labels.index(button)
    else:
        raise SetupError(f"the button must be on a seat in the hand, not {button}")
    cards = validate_deck(deck)

    n = len(labels)
    s = object.__new__(HandState)
    s.variant, s.stakes, s.labels, s.button = variant, stakes, labels, button_index
    s.deck, s.deck_pos = cards, 0
    s.start_stacks = tuple([spec.stack for spec in seats])
    s.stacks = stacks = list(s.start_stacks)
    s.committed, s.street_bets, s.returned = [0] * n, [0] * n, [0] * n
    s.cards, s.board_keys = [()] * n, [0] * n
    s.folded, s.acted, s.exposed = [False] * n, [False] * n, [False] * n
    s.community, s.street, s.to_act = None, 3, None
    s.round = Round(3, stakes)
    s.bring_in_seat = s.seventh_first = None
    s.first_actors, s.result, s.actions_applied = {}, None, 0
    s.options_cache = None

    events: list[Event] = [HandStarted(variant.value, labels, s.start_stacks, labels[button_index])]
    ante, committed = stakes.ante, s.committed
    for i in range(n):  # R1.3: antes first; a short stack posts all and is all-in
        amount = min(ante, stacks[i])
        stacks[i] -= amount
        committed[i] += amount
        events.append(_new(AntePosted, (labels[i], amount, stacks[i] == 0)))
    events.append(_new(StreetStarted, (3,)))
    _deal_street(s, events)
    _open_round(s, events)
    return s, tuple(events)


def legal_actions(state: HandState) -> LegalActions:
    """Exactly what the seat to act may do now, and for how many chips."""
    if state.result is not None or state.to_act is None:
        return LegalActions(None, ())
    i = state.to_act
    to_call = max(0, state.round.current_bet - state.street_bets[i])
    return LegalActions(state.labels[i], _options(state), min(to_call, state.stacks[i]))


def apply(state: HandState, action: Action) -> tuple[HandState, tuple[Event, ...]]:
    """Apply ``action`` for the seat to act, or raise without changing anything.

    Only the option the action names is worked out (betting.option), not the whole list
    that ``legal_actions`` shows: most actions come without anyone having asked for it.
    """
    i = state.to_act
    if state.result is not None or i is None:
        raise HandOverError("the hand is over; no more actions are accepted")
    seat, kind = action
    if seat != state.labels[i]:
        if seat not in state.labels:
            raise NotYourTurnError(f"seat {seat} is not in this hand")
        raise NotYourTurnError(f"it is seat {state.labels[i]}'s turn, not seat {seat}'s")
    chosen = option(state.round, state.stacks[i], state.street_bets[i], state.acted[i], kind)
    if chosen is None:  # ``raise_big`` naming a plain raise, or an illegal action
        chosen = option_for(state, kind)
    s = state._clone()
    events: list[Event] = []
    _act(s, i, chosen, events)
    s.actions_applied += 1
    return s, tuple(events)


# --- options -------------------------------------------------------------------


def _options(s: HandState) -> tuple[LegalAction, ...]:
    """The options of the seat to act, computed once per state (states never change)."""
    if s.options_cache is None:
        i = s.to_act
        assert i is not None
        s.options_cache = options(s.round, s.stacks[i], s.street_bets[i], s.acted[i])
    return s.options_cache


def option_for(s: HandState, kind: ActionKind) -> LegalAction:
    """The legal option ``kind`` names for the seat to act (``raise_big`` means ``raise`` where
    no big option exists, docs/replay.md), or IllegalActionError listing the choices."""
    if s.result is not None or s.to_act is None:
        raise HandOverError("the hand is over; no more actions are accepted")
    choices = _options(s)
    found = pick(choices, kind)
    if found is not None:
        return found
    offered = ", ".join(choice.label for choice in choices)
    raise IllegalActionError(
        f"seat {s.labels[s.to_act or 0]} cannot {kind.value.replace('_', ' ')} now; "
        f"the choices are: {offered}"
    )


# --- transitions ----------------------------------------------------------------


def _act(s: HandState, i: int, choice: LegalAction, events: list[Event]) -> None:
    kind, amount, to, all_in = choice
    if amount:  # the lists are shared with the previous state until now (HandState._clone)
        s.stacks = s.stacks[:]
        s.stacks[i] -= amount
        s.committed = s.committed[:]
        s.committed[i] += amount
        s.street_bets = s.street_bets[:]
        s.street_bets[i] += amount
    folds = kind is _FOLD
    if folds:
        s.folded = s.folded[:]
        s.folded[i] = True
    if kind in ROUND_KEPT:
        s.acted = s.acted[:]
    else:
        s.round, reopened = after_wager(s.round, choice, i)
        # R7.2: a full wager reopens the betting: everyone else owes an action again
        s.acted = [False] * len(s.labels) if reopened else s.acted[:]
    s.acted[i] = True
    events.append(_new(ActionTaken, (s.labels[i], kind, amount, to, all_in, s.street)))
    if folds and s.folded.count(False) == 1:  # only a fold can leave one player
        finish_unshown(s, events)
        return
    # R5.1: the next seat who still owes an action, or the end of the round
    s.to_act = next_to_act(i, s.round.current_bet, s.folded, s.stacks, s.acted, s.street_bets)
    if s.to_act is None:
        _round_over(s, events)


def _able(s: HandState) -> list[bool]:
    """Per seat: still in the hand with chips behind, so able to act."""
    return [not out and chips > 0 for out, chips in zip(s.folded, s.stacks, strict=True)]


def _deal_street(s: HandState, events: list[Event]) -> None:
    """R2.2-R2.4, R12.1: cards clockwise from the button's left to every live player."""
    folded = s.folded
    order = [i for i in CLOCKWISE[len(folded)][(s.button + 1) % len(folded)] if not folded[i]]
    street = s.street
    if street == LAST_STREET and len(s.deck) - s.deck_pos < len(order):
        if s.deck_pos >= len(s.deck):  # R12.3: cannot happen with 8 players and 52 cards
            cancel(s, events, "the deck ran out before 7th street")
            return
        s.community = s.deck[s.deck_pos]
        s.deck_pos += 1
        events.append(CommunityCardDealt(s.community))
        return
    deck, pos = s.deck, s.deck_pos
    s.cards = cards = s.cards[:]  # shared with the previous state until now (HandState._clone)
    s.board_keys = keys = s.board_keys[:]
    exposed, labels, append, digit = s.exposed, s.labels, events.append, BOARD_DIGIT
    for face_up in STREET_CARDS[street]:
        for i in order:
            card = deck[pos]
            pos += 1
            cards[i] += (card,)
            if face_up:  # the board grows (R2.3): its key too
                keys[i] += digit[card]
            append(_new(CardDealt, (labels[i], card, face_up, street, exposed[i])))
    s.deck_pos = pos


def _open_round(s: HandState, events: list[Event], can_act: list[bool] | None = None) -> None:
    """Open the betting of the street just dealt; ``can_act``: who has chips and cards, if the
    caller worked it out already (dealing changes neither)."""
    if s.result is not None:
        return
    n, street, stakes = len(s.labels), s.street, s.stakes
    s.street_bets = [0] * n
    s.acted = [False] * n
    if can_act is None:
        can_act = _able(s)
    if can_act.count(True) < 2:  # R6.5
        s.round = Round(street, stakes)
        events.append(_new(RoundSkipped, (street,)))
        _round_over(s, events)
        return
    folded, cards = s.folded, s.cards
    if street == 3:  # see R3.1, R3.6
        door = UP_CARDS.start
        doors = [None if folded[i] else cards[i][door] for i in range(n)]
        low = bring_in_index(doors, highest=s.variant.rules.lowball)  # see R14.2
        s.round = Round(3, stakes, bring_in_due=True, bring_in_forced=can_act[low])
        first = low if can_act[low] else next_able(low + 1, can_act)
        assert first is not None
        s.bring_in_seat = s.labels[first]
    else:  # see R6.1-R6.4
        community = s.community if street == LAST_STREET else None
        lowest = s.variant.rules.lowball
        best = best_board_index(s.board_keys, folded, s.button, community, lowest)
        first = best if can_act[best] else next_able(best + 1, can_act)
        assert first is not None
        open_pair = street == 4 and has_open_pair(s.variant, _boards(s))  # see R4.4, R4.5
        s.round = Round(street, stakes, open_pair=True) if open_pair else Round(street, stakes)
        if street == LAST_STREET:
            s.seventh_first = first
    s.first_actors = {**s.first_actors, street: s.labels[first]}
    s.to_act = first


def _boards(s: HandState) -> list[tuple[Card, ...] | None]:
    """Per seat, his up cards: 3rd street's door card and the 4th-6th street cards (R2.2,
    R2.3); None for a seat out of the hand."""
    return [None if out else held[UP_CARDS] for out, held in zip(s.folded, s.cards, strict=True)]


def _round_over(s: HandState, events: list[Event]) -> None:
    return_uncalled(s, events)
    if s.street == LAST_STREET:
        showdown(s, events)
        return
    folded, exposed = s.folded, s.exposed
    able = _able(s)
    if able.count(True) < 2 and any(  # some live hand is still face down
        not out and not up for out, up in zip(folded, exposed, strict=True)
    ):
        s.exposed = exposed[:]  # shared with the previous state until now (HandState._clone)
        for i in clockwise_from(s.button + 1, len(s.labels)):  # R8.2: all turned up at once
            if not s.folded[i]:
                s.exposed[i] = True
                events.append(CardsExposed(s.labels[i], s.cards[i]))
    s.street += 1
    events.append(_new(StreetStarted, (s.street,)))
    _deal_street(s, events)
    _open_round(s, events, able)

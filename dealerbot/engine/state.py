"""The hand: ``start_hand``, ``legal_actions(state)`` and ``apply(state, action)``.

A :class:`HandState` is never changed in place: ``apply`` returns a new state and the
events the action caused, so the same deck and actions always give the same events.
The legal-actions query and ``apply`` share one option builder, so what is offered
and what is accepted cannot drift apart.

Rules here: R1.1, R1.3 (setup, antes), R2.1-R2.4 (dealing), R3.2-R3.7 (bring-in
round), R4.6 (check/fold), R5.1 (streets, round end), R6.5 (skipped rounds), R7.5
(uncalled bets), R8.1-R8.4 (showdown), R12.1, R12.3 (community card), with the
sizes from betting.py, openers from opener.py and pots from pots.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .betting import BIG_ALIASES, clamp, counts_as_full, wager_kinds
from .cards import Card, validate_deck
from .errors import HandOverError, IllegalActionError, NotYourTurnError, SetupError
from .evaluate import high_rank, low_rank
from .events import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    CardDealt,
    CardsExposed,
    CommunityCardDealt,
    Event,
    HandCancelled,
    HandEnded,
    HandShown,
    HandStarted,
    LegalAction,
    LegalActions,
    PotAwarded,
    RoundSkipped,
    StreetStarted,
    UncalledReturned,
)
from .opener import best_board_index, bring_in_index, clockwise_from, next_able
from .pots import Award, Pot, award_pot, build_pots, uncalled_excess
from .variants import CAP_BETS, LAST_STREET, MAX_PLAYERS, MIN_PLAYERS, STREET_CARDS, Stakes, Variant


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A player dealt in: ``seat`` is any distinct integer label, ``stack`` his chips."""

    seat: int
    stack: int


@dataclass(frozen=True, slots=True)
class PotResult:
    amount: int
    eligible: tuple[int, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, int | list[int]]:
        """The pot as the replay tool and the hand log write it (REPLAY.md)."""
        return {
            "amount": self.amount,
            "eligible": list(self.eligible),
            "high_winners": list(self.high_winners),
            "low_winners": list(self.low_winners),
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended; every mapping is keyed by seat label."""

    pots: tuple[PotResult, ...]
    returned: dict[int, int]
    payouts: dict[int, int]
    final_stacks: dict[int, int]
    showdown_order: tuple[int, ...]
    cancelled: bool = False


class HandState:
    """One hand in progress or finished. Read it; change it only through :func:`apply`."""

    __slots__ = (
        "acted",
        "actions_applied",
        "bets_made",
        "big_mode",
        "bring_in_due",
        "bring_in_forced",
        "bring_in_seat",
        "button",
        "cards",
        "committed",
        "community",
        "current_bet",
        "deck",
        "deck_pos",
        "exposed",
        "face_up",
        "first_actors",
        "folded",
        "full_level",
        "labels",
        "last_aggressor",
        "open_pair",
        "options_cache",
        "result",
        "returned",
        "seventh_first",
        "stacks",
        "stakes",
        "start_stacks",
        "street",
        "street_bets",
        "to_act",
        "variant",
    )

    variant: Variant
    stakes: Stakes
    labels: tuple[int, ...]
    button: int
    deck: tuple[Card, ...]
    deck_pos: int
    start_stacks: tuple[int, ...]
    stacks: list[int]
    committed: list[int]
    street_bets: list[int]
    cards: list[tuple[Card, ...]]
    face_up: list[tuple[bool, ...]]
    folded: list[bool]
    acted: list[bool]
    exposed: list[bool]
    returned: list[int]
    community: Card | None
    street: int
    to_act: int | None
    current_bet: int
    full_level: int
    bets_made: int
    big_mode: bool
    open_pair: bool
    bring_in_due: bool
    bring_in_forced: bool
    bring_in_seat: int | None
    last_aggressor: int | None
    seventh_first: int | None
    first_actors: dict[int, int]
    result: HandResult | None
    actions_applied: int
    options_cache: tuple[LegalAction, ...] | None  # derived; filled on first query

    # --- read-only conveniences for callers -----------------------------------
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def seat_to_act(self) -> int | None:
        """Label of the seat whose turn it is, or None when nobody is to act."""
        return None if self.to_act is None or self.result else self.labels[self.to_act]

    @property
    def seats(self) -> tuple[int, ...]:
        return self.labels

    @property
    def button_seat(self) -> int:
        return self.labels[self.button]

    @property
    def pot(self) -> int:
        """Every chip put in this hand and not returned, current bets included."""
        return sum(self.committed)

    def index_of(self, seat: int) -> int:
        try:
            return self.labels.index(seat)
        except ValueError:
            raise NotYourTurnError(f"seat {seat} is not in this hand") from None

    def stack_of(self, seat: int) -> int:
        return self.stacks[self.index_of(seat)]

    def cards_of(self, seat: int) -> tuple[Card, ...]:
        return self.cards[self.index_of(seat)]

    def _clone(self) -> HandState:
        """A copy whose lists can change without touching this state."""
        o = object.__new__(HandState)
        o.acted = self.acted[:]
        o.actions_applied = self.actions_applied
        o.bets_made = self.bets_made
        o.big_mode = self.big_mode
        o.bring_in_due = self.bring_in_due
        o.bring_in_forced = self.bring_in_forced
        o.bring_in_seat = self.bring_in_seat
        o.button = self.button
        o.cards = self.cards[:]
        o.committed = self.committed[:]
        o.community = self.community
        o.current_bet = self.current_bet
        o.deck = self.deck
        o.deck_pos = self.deck_pos
        o.exposed = self.exposed[:]
        o.face_up = self.face_up[:]
        o.first_actors = dict(self.first_actors)
        o.folded = self.folded[:]
        o.full_level = self.full_level
        o.labels = self.labels
        o.last_aggressor = self.last_aggressor
        o.open_pair = self.open_pair
        o.options_cache = None
        o.result = self.result
        o.returned = self.returned[:]
        o.seventh_first = self.seventh_first
        o.stacks = self.stacks[:]
        o.stakes = self.stakes
        o.start_stacks = self.start_stacks
        o.street = self.street
        o.street_bets = self.street_bets[:]
        o.to_act = self.to_act
        o.variant = self.variant
        return o


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
    labels = tuple(spec.seat for spec in seats)
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
    s.start_stacks = tuple(spec.stack for spec in seats)
    s.stacks = list(s.start_stacks)
    s.committed, s.street_bets, s.returned = [0] * n, [0] * n, [0] * n
    s.cards, s.face_up = [()] * n, [()] * n
    s.folded, s.acted, s.exposed = [False] * n, [False] * n, [False] * n
    s.community, s.street, s.to_act = None, 3, None
    s.current_bet = s.full_level = s.bets_made = 0
    s.big_mode = s.open_pair = s.bring_in_due = s.bring_in_forced = False
    s.bring_in_seat = s.last_aggressor = s.seventh_first = None
    s.first_actors, s.result, s.actions_applied = {}, None, 0
    s.options_cache = None

    events: list[Event] = [HandStarted(variant.value, labels, s.start_stacks, labels[button_index])]
    for i in range(n):  # R1.3: antes first; a short stack posts all and is all-in
        amount = min(stakes.ante, s.stacks[i])
        s.stacks[i] -= amount
        s.committed[i] += amount
        events.append(AntePosted(labels[i], amount, s.stacks[i] == 0))
    events.append(StreetStarted(3))
    _deal_street(s, events)
    _open_round(s, events)
    return s, tuple(events)


def legal_actions(state: HandState) -> LegalActions:
    """Exactly what the seat to act may do now, and for how many chips."""
    if state.result is not None or state.to_act is None:
        return LegalActions(None, ())
    i = state.to_act
    to_call = max(0, state.current_bet - state.street_bets[i])
    return LegalActions(state.labels[i], _options(state), min(to_call, state.stacks[i]))


def apply(state: HandState, action: Action) -> tuple[HandState, tuple[Event, ...]]:
    """Apply ``action`` for the seat to act, or raise without changing anything."""
    if state.result is not None or state.to_act is None:
        raise HandOverError("the hand is over; no more actions are accepted")
    i = state.to_act
    if action.seat != state.labels[i]:
        if action.seat not in state.labels:
            raise NotYourTurnError(f"seat {action.seat} is not in this hand")
        raise NotYourTurnError(f"it is seat {state.labels[i]}'s turn, not seat {action.seat}'s")
    option = option_for(state, action.kind)
    s = state._clone()
    events: list[Event] = []
    _act(s, i, option, events)
    s.actions_applied += 1
    return s, tuple(events)


# --- options -------------------------------------------------------------------


def _options(s: HandState) -> tuple[LegalAction, ...]:
    """The options of the seat to act, computed once per state (states never change)."""
    if s.options_cache is None:
        s.options_cache = _build_options(s)
    return s.options_cache


def _build_options(s: HandState) -> tuple[LegalAction, ...]:
    i = s.to_act
    assert i is not None
    stack, street_bet, stakes = s.stacks[i], s.street_bets[i], s.stakes
    if s.bring_in_due:  # R3.2 forced bring-in, or R3.6 nobody forced
        options = [] if s.bring_in_forced else [LegalAction(ActionKind.FOLD, 0, street_bet, False)]
        bring = clamp(ActionKind.BRING_IN, stakes.bring_in, street_bet, stack)
        options.append(bring)
        complete = clamp(ActionKind.COMPLETE, stakes.small_bet, street_bet, stack)
        if complete.to > bring.to:
            options.append(complete)
        return tuple(options)
    to_call = s.current_bet - street_bet
    if to_call > 0:  # R4.6: fold only facing a wager
        options = [
            LegalAction(ActionKind.FOLD, 0, street_bet, False),
            clamp(ActionKind.CALL, s.current_bet, street_bet, stack),
        ]
    else:  # R4.6: check only with nothing pending (never on 3rd street: the bring-in is pending)
        options = [LegalAction(ActionKind.CHECK, 0, street_bet, False)]
    if stack > to_call and not s.acted[i] and s.bets_made < CAP_BETS:
        normal_kind, big_kind = wager_kinds(s.street, s.bets_made)
        size = stakes.big_bet if s.big_mode else stakes.bet_size(s.street)
        normal = clamp(normal_kind, s.full_level + size, street_bet, stack)
        options.append(normal)
        if s.open_pair and not s.big_mode:
            big = clamp(big_kind, s.full_level + stakes.big_bet, street_bet, stack)
            if big.to > normal.to:
                options.append(big)
    return tuple(options)


def option_for(s: HandState, kind: ActionKind) -> LegalAction:
    """The legal option ``kind`` names for the seat to act (``raise_big`` means ``raise`` where
    no big option exists, REPLAY.md), or IllegalActionError listing the choices."""
    if s.result is not None or s.to_act is None:
        raise HandOverError("the hand is over; no more actions are accepted")
    options = _options(s)
    for option in options:
        if option.kind is kind:
            return option
    alias = BIG_ALIASES.get(kind)
    if alias is not None and not any(o.kind is kind for o in options):
        for option in options:
            if option.kind is alias:
                return option
    offered = ", ".join(option.label for option in options)
    raise IllegalActionError(
        f"seat {s.labels[s.to_act or 0]} cannot {kind.value.replace('_', ' ')} now; "
        f"the choices are: {offered}"
    )


# --- transitions ----------------------------------------------------------------


def _act(s: HandState, i: int, option: LegalAction, events: list[Event]) -> None:
    kind = option.kind
    if option.amount:
        s.stacks[i] -= option.amount
        s.committed[i] += option.amount
        s.street_bets[i] += option.amount
    s.acted[i] = True
    if kind is ActionKind.FOLD:
        s.folded[i] = True
    elif kind is ActionKind.BRING_IN:
        s.bring_in_due = False
        s.current_bet = max(s.stakes.bring_in, option.to)  # R3.7: others still call the full 2
    elif kind not in (ActionKind.CHECK, ActionKind.CALL):
        big = kind in (ActionKind.BET_BIG, ActionKind.RAISE_BIG)
        if kind is ActionKind.COMPLETE:
            size = s.stakes.small_bet
        elif big or s.big_mode:
            size = s.stakes.big_bet
        else:
            size = s.stakes.bet_size(s.street)
        increment = option.to - s.full_level
        if counts_as_full(increment, size):  # R7.2: reopens and counts toward the cap
            s.full_level = option.to
            s.bets_made += 1
            s.acted = [False] * len(s.labels)
            s.acted[i] = True
            if big and increment > s.stakes.small_bet:
                s.big_mode = True  # R4.4: after a 10, every raise is 10
        s.bring_in_due = False
        s.current_bet = max(s.current_bet, option.to)
        s.last_aggressor = i
    events.append(ActionTaken(s.labels[i], kind, option.amount, option.to, option.all_in, s.street))
    _advance(s, i, events)


def _can_act(s: HandState, i: int) -> bool:
    return not s.folded[i] and s.stacks[i] > 0


def _live(s: HandState) -> list[int]:
    return [i for i in range(len(s.labels)) if not s.folded[i]]


def _advance(s: HandState, last: int, events: list[Event]) -> None:
    """R5.1: the next seat who still owes an action, or the end of the round."""
    if s.folded.count(False) == 1:
        _finish_unshown(s, events)
        return
    n = len(s.labels)
    for offset in range(1, n + 1):
        j = (last + offset) % n
        if _can_act(s, j) and (not s.acted[j] or s.street_bets[j] < s.current_bet):
            s.to_act = j
            return
    s.to_act = None
    _round_over(s, events)


def _deal_street(s: HandState, events: list[Event]) -> None:
    """R2.2-R2.4, R12.1: cards clockwise from the button's left to every live player."""
    order = [i for i in clockwise_from(s.button + 1, len(s.labels)) if not s.folded[i]]
    street = s.street
    if street == LAST_STREET and len(s.deck) - s.deck_pos < len(order):
        if s.deck_pos >= len(s.deck):  # R12.3: cannot happen with 8 players and 52 cards
            _cancel(s, events, "the deck ran out before 7th street")
            return
        s.community = s.deck[s.deck_pos]
        s.deck_pos += 1
        events.append(CommunityCardDealt(s.community))
        return
    for face_up in STREET_CARDS[street]:
        for i in order:
            card = s.deck[s.deck_pos]
            s.deck_pos += 1
            s.cards[i] = (*s.cards[i], card)
            s.face_up[i] = (*s.face_up[i], face_up or s.exposed[i])
            events.append(CardDealt(s.labels[i], card, face_up, street, s.exposed[i]))


def _open_round(s: HandState, events: list[Event]) -> None:
    if s.result is not None:
        return
    n = len(s.labels)
    s.street_bets = [0] * n
    s.acted = [False] * n
    s.current_bet = s.full_level = s.bets_made = 0
    s.big_mode = s.open_pair = False
    s.last_aggressor = None
    can_act = [_can_act(s, i) for i in range(n)]
    if sum(can_act) < 2:  # R6.5
        events.append(RoundSkipped(s.street))
        _round_over(s, events)
        return
    if s.street == 3:  # R3.1, R3.6
        doors = [None if s.folded[i] else s.cards[i][2] for i in range(n)]
        low = bring_in_index(doors)
        s.bring_in_due = True
        s.bring_in_forced = can_act[low]
        first = low if can_act[low] else next_able(low + 1, can_act)
        assert first is not None
        s.bring_in_seat = s.labels[first]
    else:  # R6.1-R6.4
        boards = [None if s.folded[i] else _board(s, i) for i in range(n)]
        community = s.community if s.street == LAST_STREET else None
        best = best_board_index(boards, s.button, community)
        first = best if can_act[best] else next_able(best + 1, can_act)
        assert first is not None
        if s.street == 4 and s.variant.rules.open_pair_big_bet:  # R4.4 (not in stud/8, R4.5)
            s.open_pair = any(
                board is not None and len(board) == 2 and board[0] // 4 == board[1] // 4
                for board in boards
            )
        if s.street == LAST_STREET:
            s.seventh_first = first
    s.first_actors[s.street] = s.labels[first]
    s.to_act = first


def _board(s: HandState, i: int) -> tuple[Card, ...]:
    """A player's up cards: 3rd street's door card and the 4th-6th street cards (R2.2, R2.3)."""
    return s.cards[i][2:6]


def _round_over(s: HandState, events: list[Event]) -> None:
    _return_uncalled(s, events)
    if s.street == LAST_STREET:
        _showdown(s, events)
        return
    live = _live(s)
    if sum(1 for i in live if s.stacks[i] > 0) < 2 and not all(s.exposed[i] for i in live):
        for i in clockwise_from(s.button + 1, len(s.labels)):  # R8.2: all turned up at once
            if not s.folded[i]:
                s.exposed[i] = True
                s.face_up[i] = (True,) * len(s.cards[i])
                events.append(CardsExposed(s.labels[i], s.cards[i]))
    s.street += 1
    events.append(StreetStarted(s.street))
    _deal_street(s, events)
    _open_round(s, events)


def _return_uncalled(s: HandState, events: list[Event]) -> None:
    """R7.5: the unmatched top of the largest contribution goes back to its owner.

    Chips that folded players put in above every live player's total (antes when
    everyone with chips folds to an all-in player, R3.6) are in no level anyone can
    win (R7.4, R8.4); they go back to whoever put them in, like an uncalled bet.
    """
    excess = uncalled_excess(s.committed)
    if excess is not None:
        _give_back(s, excess[0], excess[1], events)
    top_live = max(s.committed[i] for i in _live(s))
    for i, chips in enumerate(s.committed):
        if chips > top_live:
            _give_back(s, i, chips - top_live, events)


def _give_back(s: HandState, i: int, chips: int, events: list[Event]) -> None:
    s.committed[i] -= chips
    s.street_bets[i] = max(0, s.street_bets[i] - chips)
    s.stacks[i] += chips
    s.returned[i] += chips
    events.append(UncalledReturned(s.labels[i], chips))


def _finish_unshown(s: HandState, events: list[Event]) -> None:
    """R8.4: everyone else folded: the last player wins every pot, unshown, no more cards."""
    s.to_act = None
    _return_uncalled(s, events)
    (winner,) = _live(s)
    pots = build_pots(s.committed, s.folded)
    awards = [Award((winner,), (), {winner: pot.amount}) for pot in pots]
    _settle(s, pots, awards, (), events)


def _playing_cards(s: HandState, i: int) -> tuple[Card, ...]:
    return s.cards[i] if s.community is None else (*s.cards[i], s.community)


def _low_key(card: Card) -> int:
    """R11.3 low odd chip: lowest card with ace lowest, then suit ♣ first."""
    rank = card // 4 + 2
    return (1 if rank == 14 else rank) * 4 + card % 4


def _showdown(s: HandState, events: list[Event]) -> None:
    """R8.1, R8.3: every live hand is shown, in order; then each pot is awarded (R7.6)."""
    s.to_act = None
    n = len(s.labels)
    if s.seventh_first is not None:
        start = s.last_aggressor if s.last_aggressor is not None else s.seventh_first
    else:
        start = (s.button + 1) % n
    order = tuple(i for i in clockwise_from(start, n) if not s.folded[i])
    split = s.variant.rules.split_low
    for i in order:
        events.append(HandShown(s.labels[i], s.cards[i], s.community, split))
    pots = build_pots(s.committed, s.folded)
    high_values = {i: high_rank(_playing_cards(s, i)) for i in order}
    low_values = {i: low_rank(_playing_cards(s, i)) for i in order} if split else {}
    awards = [
        award_pot(
            pot,
            high_values.__getitem__,
            low_values.__getitem__ if split else None,
            lambda i: max(s.cards[i]),
            lambda i: -min(_low_key(card) for card in s.cards[i]),
        )
        for pot in pots
    ]
    _settle(s, pots, awards, order, events)


def _settle(
    s: HandState,
    pots: list[Pot],
    awards: list[Award],
    order: tuple[int, ...],
    events: list[Event],
) -> None:
    labels = s.labels
    payouts = [0] * len(labels)
    results: list[PotResult] = []
    for index, (pot, award) in enumerate(zip(pots, awards, strict=True)):
        shares = tuple((labels[i], chips) for i, chips in award.shares.items())
        for i, chips in award.shares.items():
            payouts[i] += chips
        result = PotResult(
            pot.amount,
            tuple(labels[i] for i in pot.eligible),
            tuple(labels[i] for i in award.high_winners),
            tuple(labels[i] for i in award.low_winners),
            shares,
        )
        results.append(result)
        events.append(
            PotAwarded(
                index, pot.amount, result.eligible, result.high_winners, result.low_winners, shares
            )
        )
    for i, chips in enumerate(payouts):
        s.stacks[i] += chips
    _close(s, tuple(results), payouts, tuple(labels[i] for i in order), False, events)


def _cancel(s: HandState, events: list[Event], reason: str) -> None:
    """R12.3: abort and give every chip back."""
    events.append(HandCancelled(reason))
    refunds = s.committed[:]
    for i, chips in enumerate(refunds):
        s.stacks[i] += chips
        s.returned[i] += chips
    _close(s, (), [0] * len(s.labels), (), True, events)


def _close(
    s: HandState,
    pots: tuple[PotResult, ...],
    payouts: list[int],
    order: tuple[int, ...],
    cancelled: bool,
    events: list[Event],
) -> None:
    labels = s.labels
    s.to_act = None
    s.result = HandResult(
        pots=pots,
        returned={labels[i]: c for i, c in enumerate(s.returned) if c},
        payouts={labels[i]: c for i, c in enumerate(payouts) if c},
        final_stacks={labels[i]: c for i, c in enumerate(s.stacks)},
        showdown_order=order,
        cancelled=cancelled,
    )
    events.append(
        HandEnded(
            tuple(sorted(s.result.payouts.items())),
            tuple((labels[i], c) for i, c in enumerate(s.stacks)),
        )
    )

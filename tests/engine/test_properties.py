"""Property tests for the hand engine: ~900 random hands (x SOAK_SCALE) checked for invariants.

Each example deals a random hand (2-8 players, many tiny stacks so all-ins are common, any
button, any valid stakes R1.2, both games) and plays it with random legal actions.  At every
step it checks what any correct engine must do, whatever the rules say in detail:

* every option offered is accepted, with the amounts it announced; every kind not offered is
  refused with IllegalActionError (bar the documented ``bet_big``/``raise_big`` aliases,
  docs/replay.md), a wrong seat with NotYourTurnError, anything after the end with HandOverError;
  a refused or accepted action never changes the state it was given;
* chips are conserved to the chip (R7.4, R7.5), pots are paid only to eligible winners,
  odd chips are whole and spread (R11.1);
* cards come from the top of the deck, each once, in dealing order (R2.1-R2.4), the
  community card appears exactly when R12.1 says;
* nothing public shows a face-down card of a live hand before it is exposed (R8.2) or shown
  at showdown (R8.1, R8.3); a hand won unshown stays hidden (R8.4); a player's view shows
  exactly his own down cards;
* the same deck and actions give the same events (determinism), also through the replay
  tool (docs/replay.md).

Plus @given tests of ``pots.build_pots`` / ``pots.award_pot`` shapes (R7.4, R10.4, R11.1-R11.4)
and of the deck commitment.  Hypothesis runs derandomized without a database, so CI sees the
same examples every run; ``SOAK_SCALE`` (default 1) multiplies the example counts.
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pokerkit import RegularLowHand

from dealerbot.engine.cards import (
    ALL_CARDS,
    Card,
    deck_commitment,
    shuffled_deck,
    verify_commitment,
)
from dealerbot.engine.errors import HandOverError, IllegalActionError, NotYourTurnError
from dealerbot.engine.evaluate import high_rank, low_rank
from dealerbot.engine.events import (
    Action,
    ActionKind,
    ActionTaken,
    AntePosted,
    CardDealt,
    CardsExposed,
    CommunityCardDealt,
    Event,
    HandEnded,
    HandShown,
    HandStarted,
    LegalActions,
    PotAwarded,
    StreetStarted,
    UncalledReturned,
)
from dealerbot.engine.opener import board_key
from dealerbot.engine.pots import Pot, award_pot, build_pots, uncalled_excess
from dealerbot.engine.replay import replay_script
from dealerbot.engine.sight import HandView, player_view, public_view
from dealerbot.engine.state import HandState, SeatSpec, apply, legal_actions, start_hand
from dealerbot.engine.variants import CAP_BETS, UP_CARDS, Stakes, Variant
from tests.engine.helpers import build_deck

pytestmark = pytest.mark.soak

SOAK_SCALE = float(os.environ.get("SOAK_SCALE", "1"))


def examples(base: int) -> int:
    return max(10, int(base * SOAK_SCALE))


def profile(base: int) -> settings:
    """Deterministic and database-free, so a CI run is the same run every time."""
    return settings(
        max_examples=examples(base),
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=False,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


ALIASES = {ActionKind.BET_BIG: ActionKind.BET, ActionKind.RAISE_BIG: ActionKind.RAISE}
WAGERS = frozenset(
    {
        ActionKind.BRING_IN,
        ActionKind.COMPLETE,
        ActionKind.BET,
        ActionKind.BET_BIG,
        ActionKind.RAISE,
        ActionKind.RAISE_BIG,
    }
)
FACE_UP_PATTERN = (False, False, True, True, True, True, False)  # R2.2, R2.3


# --- random deals -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Deal:
    variant: Variant
    stakes: Stakes
    seats: tuple[SeatSpec, ...]
    button: int
    deck: tuple[Card, ...]
    policy_seed: int
    fold_weight: int  # relative weight of folding when a fold is offered (others weigh 4)

    def start(self) -> tuple[HandState, tuple[Event, ...]]:
        return start_hand(self.variant, self.stakes, self.seats, self.deck, button=self.button)


@st.composite
def stakes_strategy(draw: st.DrawFn) -> Stakes:
    if draw(st.booleans()):
        return Stakes.of(small_bet=5, ante=1, bring_in=2)
    small = draw(st.integers(2, 12))
    ante = draw(st.integers(1, small - 1))
    bring_in = draw(st.integers(ante, small - 1))
    return Stakes.of(small_bet=small, ante=ante, bring_in=bring_in)


STACKS = {  # per hand: all tiny (all-ins everywhere), mixed, or deep (long betting rounds)
    "tiny": st.one_of(st.integers(1, 4), st.integers(1, 15)),
    "mixed": st.one_of(st.integers(1, 30), st.integers(31, 400)),
    "deep": st.integers(100, 1000),
}


@st.composite
def deals(draw: st.DrawFn, max_players: int = 8) -> Deal:
    n = draw(st.integers(2, max_players))
    labels = draw(st.lists(st.integers(0, 15), min_size=n, max_size=n, unique=True))
    depth = draw(st.sampled_from(("tiny", "mixed", "mixed", "deep")))
    stacks = draw(st.lists(STACKS[depth], min_size=n, max_size=n))
    return Deal(
        variant=draw(st.sampled_from(Variant)),
        stakes=draw(stakes_strategy()),
        seats=tuple(SeatSpec(label, stack) for label, stack in zip(labels, stacks, strict=True)),
        button=draw(st.sampled_from(labels)),
        deck=shuffled_deck(random.Random(draw(st.integers(0, 2**32 - 1)))),
        policy_seed=draw(st.integers(0, 2**32 - 1)),
        fold_weight=draw(st.sampled_from((0, 1, 1, 4))),
    )


def choose(rng: random.Random, legal: LegalActions, fold_weight: int) -> ActionKind:
    """A random legal kind; the big aliases are sometimes used where no big option exists."""
    kinds = [option.kind for option in legal.options]
    weights = [fold_weight if kind is ActionKind.FOLD else 4 for kind in kinds]
    if sum(weights) == 0:
        weights = [1] * len(kinds)
    kind = rng.choices(kinds, weights)[0]
    for alias, target in ALIASES.items():
        if kind is target and alias not in kinds and rng.random() < 0.2:
            return alias
    return kind


# --- snapshots of a state, to prove nothing changed ------------------------------------------

DERIVED_SLOTS = frozenset({"options_cache"})  # filled on first query; not part of the state


def snapshot(state: HandState) -> tuple[Any, ...]:
    """Every slot's value, lists and dicts frozen, plus the legal actions."""
    values = []
    for name in HandState.__slots__:
        if name in DERIVED_SLOTS:
            continue
        value = getattr(state, name)
        if isinstance(value, list):
            value = tuple(value)
        elif isinstance(value, dict):
            value = tuple(sorted(value.items()))
        values.append((name, value))
    return (tuple(values), legal_actions(state))


# --- one hand, played and checked step by step -------------------------------------------------


@dataclass
class Played:
    deal: Deal
    state: HandState
    events: list[Event] = field(default_factory=list)
    actions: list[tuple[int, ActionKind]] = field(default_factory=list)
    # What the public has been shown so far: every card a public event showed face up.
    exposed_seats: set[int] = field(default_factory=set)
    dealt: dict[int, list[tuple[Card, bool]]] = field(default_factory=dict)
    community: Card | None = None
    folded: set[int] = field(default_factory=set)
    steps: int = 0


def action_bound(players: int) -> int:
    """No hand can need more: per street each full bet (CAP_BETS) or short all-in reopens or
    adds at most ``players`` actions, plus one round of calls and the bring-in."""
    return 5 * players * (CAP_BETS + players + 2)


def play(deal: Deal, full_checks: bool = True) -> Played:
    state, events = deal.start()
    hand = Played(deal, state)
    observe(hand, events)
    rng = random.Random(deal.policy_seed)
    labels = [spec.seat for spec in deal.seats]
    bound = action_bound(len(labels))
    while not state.is_over:
        assert hand.steps < bound, f"hand did not end within {bound} actions"
        legal = legal_actions(state)
        assert legal.seat is not None and legal.seat == state.seat_to_act
        before, view = snapshot(state), public_view(state)
        check_options(state, legal)
        if full_checks:
            check_every_option_accepted(state, legal, before)
            check_refusals(state, legal, labels, before)
        check_views(hand, labels[hand.steps % len(labels)], view)
        kind = choose(rng, legal, deal.fold_weight)
        state, events = apply(state, Action(legal.seat, kind))
        assert snapshot(hand.state) == before, "apply changed the state it was given"
        assert public_view(hand.state) == view, "apply changed the old state's public view"
        hand.state = state
        hand.actions.append((legal.seat, kind))
        hand.steps += 1
        observe(hand, events)
        check_board_keys(state)
    assert legal_actions(state) == LegalActions(None, ())
    for kind in ActionKind:
        with pytest.raises(HandOverError):
            apply(state, Action(labels[0], kind))
    for viewer in labels:
        check_views(hand, viewer)
    return hand


def check_board_keys(state: HandState) -> None:
    """The board keys the state keeps as cards are dealt are those of every seat's up cards."""
    for held, key in zip(state.cards, state.board_keys, strict=True):
        assert key == board_key(held[UP_CARDS]), (held, key)


def observe(hand: Played, events: Sequence[Event]) -> None:
    """Record events and check, as they arrive, that public ones leak no hidden card."""
    for event in events:
        check_no_leak(hand, event)
        if isinstance(event, CardDealt):
            hand.dealt.setdefault(event.seat, []).append((event.card, event.face_up))
            # R8.2: a card dealt to a hand already turned up is public, even a down card
            assert event.exposed == (event.seat in hand.exposed_seats)
            assert event.private_to == (None if event.face_up or event.exposed else event.seat)
        elif isinstance(event, CommunityCardDealt):
            hand.community = event.card
        elif isinstance(event, CardsExposed):
            hand.exposed_seats.add(event.seat)
        elif isinstance(event, ActionTaken) and event.kind is ActionKind.FOLD:
            hand.folded.add(event.seat)
        hand.events.append(event)


def cards_in(value: object) -> Iterator[Card]:
    """Every Card inside an event field (tuples and nested tuples included)."""
    if isinstance(value, Card):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from cards_in(item)


def check_no_leak(hand: Played, event: Event) -> None:
    """A public event may carry a face-down card only when it exposes or shows that hand."""
    if event.private_to is not None:
        return
    hidden = {
        card
        for seat, cards in hand.dealt.items()
        if seat not in hand.exposed_seats
        for card, up in cards
        if not up
    }
    if isinstance(event, CardsExposed | HandShown):
        assert event.seat not in hand.folded, f"a folded hand was turned up: {event}"
        own = {card for card, _ in hand.dealt.get(event.seat, [])}
        assert set(event.cards) == own, f"{type(event).__name__} shows cards not his: {event}"
        return
    for name in event._fields:
        leaked = [card for card in cards_in(getattr(event, name)) if card in hidden]
        assert not leaked, f"public {type(event).__name__} shows face-down {leaked}"


def check_options(state: HandState, legal: LegalActions) -> None:
    """Shapes every option must have (R4.6, R7.1), whatever the situation."""
    i = state.to_act
    assert i is not None
    stack, street_bet = state.stacks[i], state.street_bets[i]
    assert stack > 0 and not state.folded[i], "a seat without chips or folded is to act (R6.5)"
    kinds = [option.kind for option in legal.options]
    assert len(set(kinds)) == len(kinds), f"an option is offered twice: {kinds}"
    owed = max(0, state.current_bet - street_bet)
    assert legal.to_call == min(owed, stack)
    bring_in_round = ActionKind.BRING_IN in kinds
    if ActionKind.CHECK in kinds:  # R4.6, R3.3
        assert owed == 0 and state.street != 3
        assert ActionKind.FOLD not in kinds and ActionKind.CALL not in kinds
    if ActionKind.CALL in kinds:
        assert owed > 0
    if not bring_in_round:
        assert (ActionKind.CHECK in kinds) != (ActionKind.CALL in kinds)
        assert (ActionKind.FOLD in kinds) == (owed > 0), "fold only facing a wager (R4.6)"
    else:  # R3.2, R3.6: bring in or complete; only an unforced opener may fold
        assert state.street == 3
        assert not {ActionKind.CHECK, ActionKind.CALL} & set(kinds)
        doors = range(len(state.labels))
        if state.variant.rules.lowball:  # R14.2: the highest door, ace low, ♠ highest
            bring_in = max(doors, key=lambda j: razz_door_order(state.cards[j][2]))
        else:  # R3.1
            bring_in = min(doors, key=lambda j: state.cards[j][2])
        assert (ActionKind.FOLD in kinds) == (i != bring_in), "R3.2/R3.6: who may fold"
    for option in legal.options:
        assert 0 <= option.amount <= stack
        assert option.to == street_bet + option.amount
        if option.kind in (ActionKind.FOLD, ActionKind.CHECK):
            assert option.amount == 0 and not option.all_in
            continue
        assert option.amount > 0
        assert option.all_in == (option.amount == stack), option
        if option.kind is ActionKind.CALL:
            assert option.amount == min(owed, stack)
        elif option.kind is not ActionKind.BRING_IN:
            assert option.to > state.current_bet, f"a wager that does not raise: {option}"


def razz_door_order(card: Card) -> tuple[int, int]:
    """Door strength for the razz bring-in (R14.2), from the card's text: ace 0 .. king 12."""
    text = str(card)
    return "A23456789TJQK".index(text[0]), "cdhs".index(text[1])


def check_every_option_accepted(state: HandState, legal: LegalActions, before: object) -> None:
    """Each option offered is accepted and does what it announced; aliases are the same."""
    kinds = {option.kind for option in legal.options}
    for option in legal.options:
        _, events = apply(state, Action(legal.seat or 0, option.kind))
        taken = [e for e in events if isinstance(e, ActionTaken)]
        assert taken[:1] == [
            ActionTaken(
                legal.seat or 0, option.kind, option.amount, option.to, option.all_in, state.street
            )
        ], (option, taken)
        for alias, target in ALIASES.items():
            if option.kind is target and alias not in kinds:
                assert apply(state, Action(legal.seat or 0, alias))[1] == events
    assert snapshot(state) == before, "applying an option changed the state it was given"


def check_refusals(
    state: HandState, legal: LegalActions, labels: Sequence[int], before: object
) -> None:
    """Kinds not offered, and every other seat, are refused without changing anything."""
    kinds = {option.kind for option in legal.options}
    for kind in ActionKind:
        if kind in kinds or (ALIASES.get(kind) in kinds and kind not in kinds):
            continue
        with pytest.raises(IllegalActionError):
            apply(state, Action(legal.seat or 0, kind))
    offered = legal.options[0].kind
    for label in labels:
        if label != legal.seat:
            with pytest.raises(NotYourTurnError):
                apply(state, Action(label, offered))
    with pytest.raises(NotYourTurnError):
        apply(state, Action(max(labels) + 1, offered))
    assert snapshot(state) == before, "a refused action changed the state"


def expected_visible(hand: Played, seat: int, viewer: int | None) -> list[Card | None]:
    """What a viewer may see of a seat's cards: face-up ones, all of his own, and all of a
    hand exposed (R8.2) or shown at showdown (R8.1); a hand won unshown stays hidden (R8.4)."""
    result = hand.state.result
    shown = result is not None and seat in result.showdown_order
    reveal = seat == viewer or seat in hand.exposed_seats or shown
    return [card if up or reveal else None for card, up in hand.dealt.get(seat, [])]


def check_views(hand: Played, viewer: int, public: HandView | None = None) -> None:
    state = hand.state
    public = public_view(state) if public is None else public
    mine = player_view(state, viewer)
    assert public.viewer is None and mine.viewer == viewer
    for view, who in ((public, None), (mine, viewer)):
        check_view_cards(hand, view, who)
    assert public.pot == mine.pot == sum(s.committed for s in public.seats)
    assert public.community == hand.community


def check_view_cards(hand: Played, view: HandView, viewer: int | None) -> None:
    for seat_view in view.seats:
        seen = [card_view.card for card_view in seat_view.cards]
        assert seen == expected_visible(hand, seat_view.seat, viewer), (
            f"view for {viewer} of seat {seat_view.seat}: {seen}"
        )
        if viewer == seat_view.seat:
            assert None not in seen, "a player must see all his own cards"


# --- whole-hand checks -------------------------------------------------------------------------


def chips_in(events: Sequence[Event]) -> Counter[int]:
    """Chips each seat put in: antes and action amounts."""
    put: Counter[int] = Counter()
    for event in events:
        if isinstance(event, AntePosted | ActionTaken):
            put[event.seat] += event.amount
    return put


def check_chips(hand: Played) -> None:
    """Conservation to the chip, per seat and in total (R7.4, R7.5, R8.4)."""
    result = hand.state.result
    assert result is not None
    starts = {spec.seat: spec.stack for spec in hand.deal.seats}
    put = chips_in(hand.events)
    assert sum(result.final_stacks.values()) == sum(starts.values())
    committed = sum(put.values())
    returned = sum(result.returned.values())
    assert sum(result.payouts.values()) + returned == committed
    assert sum(pot.amount for pot in result.pots) + returned == committed
    for seat, start in starts.items():
        expected = start - put[seat] + result.returned.get(seat, 0) + result.payouts.get(seat, 0)
        assert result.final_stacks[seat] == expected, seat
        assert result.final_stacks[seat] >= 0
    returned_events = Counter[int]()
    for event in hand.events:
        if isinstance(event, UncalledReturned):
            returned_events[event.seat] += event.amount
    assert dict(returned_events) == result.returned
    for event in hand.events:
        if isinstance(event, AntePosted):
            assert event.amount == min(hand.deal.stakes.ante, starts[event.seat])  # R1.3
    ended = [e for e in hand.events if isinstance(e, HandEnded)]
    assert len(ended) == 1 and ended[0] is hand.events[-1]
    assert dict(ended[0].final_stacks) == result.final_stacks
    assert dict(ended[0].payouts) == result.payouts


def folded_seats(hand: Played) -> set[int]:
    return {e.seat for e in hand.events if isinstance(e, ActionTaken) and e.kind is ActionKind.FOLD}


def playing_cards(hand: Played, seat: int) -> list[Card]:
    cards = [card for card, _ in hand.dealt[seat]]
    return cards if hand.community is None else [*cards, hand.community]


def check_pots(hand: Played) -> None:
    """Winners eligible and best (R9.1, R10.4), shares whole, odd chips spread (R11.1)."""
    result = hand.state.result
    assert result is not None
    folded = folded_seats(hand)
    live = [spec.seat for spec in hand.deal.seats if spec.seat not in folded]
    awarded = [e for e in hand.events if isinstance(e, PotAwarded)]
    assert len(awarded) == len(result.pots)
    split = hand.deal.variant.rules.split_low
    for index, (pot, event) in enumerate(zip(result.pots, awarded, strict=True)):
        assert event.index == index and event.amount == pot.amount and pot.amount > 0
        assert event.shares == pot.shares
        assert set(pot.eligible) <= set(live) and pot.eligible
        winners = set(pot.high_winners) | set(pot.low_winners)
        assert winners <= set(pot.eligible), "a pot paid a seat not eligible for it"
        assert {seat for seat, _ in pot.shares} == winners
        assert all(isinstance(chips, int) and chips > 0 for _, chips in pot.shares)
        assert sum(chips for _, chips in pot.shares) == pot.amount
        if len(live) == 1:  # R8.4: the last player wins unshown
            assert pot.high_winners == (live[0],) and pot.low_winners == ()
            continue
        if hand.deal.variant.rules.lowball:  # R14.1: the whole pot to the best low (pokerkit)
            razz = {s: razz_low(playing_cards(hand, s)) for s in pot.eligible}
            best_razz = max(razz.values())
            assert pot.high_winners == ()
            assert set(pot.low_winners) == {s for s, v in razz.items() if v == best_razz}
            check_odd_chips(pot.amount, pot.high_winners, pot.low_winners, dict(pot.shares))
            continue
        highs = {seat: high_rank(playing_cards(hand, seat)) for seat in pot.eligible}
        best = max(highs.values())
        assert set(pot.high_winners) == {s for s, v in highs.items() if v == best}
        if split:
            lows = {seat: low_rank(playing_cards(hand, seat)) for seat in pot.eligible}
            qualified = {s: v for s, v in lows.items() if v is not None}
            best_low = max(qualified.values(), default=None)
            assert set(pot.low_winners) == {s for s, v in qualified.items() if v == best_low}
        else:
            assert pot.low_winners == ()
        check_odd_chips(pot.amount, pot.high_winners, pot.low_winners, dict(pot.shares))
    for seat in result.showdown_order:
        assert seat in live
    paid: Counter[int] = Counter()
    for pot in result.pots:
        for seat, chips in pot.shares:
            paid[seat] += chips
    assert dict(paid) == result.payouts


def razz_low(cards: Sequence[Card]) -> RegularLowHand:
    """pokerkit's ace-to-five low of the cards: an independent oracle for R14.1."""
    return RegularLowHand.from_game("".join(str(card) for card in cards))


def check_odd_chips(
    amount: int, high: Sequence[int], low: Sequence[int], shares: dict[int, int]
) -> None:
    """R11.1: in each division every winner gets the even share or one chip more."""
    if not high:  # razz at showdown: one division among the lows (R14.1)
        divisions = [(amount, low)]
    elif not low or set(high) == set(low):  # one division: R11.4 or no low
        divisions = [(amount, high)]
    else:  # R10.4, R11.2: the odd chip of the halves goes high
        divisions = [(amount - amount // 2, high), (amount // 2, low)]
    base: Counter[int] = Counter()
    extra_room: Counter[int] = Counter()
    for chips, winners in divisions:
        for seat in winners:
            base[seat] += chips // len(winners)
            extra_room[seat] += 1 if chips % len(winners) else 0
    for seat, chips in shares.items():
        assert base[seat] <= chips <= base[seat] + extra_room[seat], (amount, high, low, shares)


def check_dealing(hand: Played) -> None:
    """R2.1-R2.4, R12.1: the top of the deck, each card once, clockwise from the button's left
    to the players still in, face up on 3rd (door) to 6th, down on 7th; the community card
    exactly when too few cards remain for everyone."""
    deal = hand.deal
    labels = [spec.seat for spec in deal.seats]
    start = labels.index(deal.button) + 1
    clockwise = [labels[(start + k) % len(labels)] for k in range(len(labels))]
    dealt_cards = [e.card for e in hand.events if isinstance(e, CardDealt | CommunityCardDealt)]
    assert len(set(dealt_cards)) == len(dealt_cards), "a card was dealt twice"
    assert dealt_cards == list(deal.deck[: len(dealt_cards)]), "not dealt from the top (R2.1)"
    out: set[int] = set()
    streets: list[tuple[int, list[int], list[int], bool]] = []  # street, to whom, dealt, community
    cards_before_seventh = 0
    dealt_so_far = 0
    for event in hand.events:
        if isinstance(event, StreetStarted):
            assert len(out) < len(labels) - 1, "a street started with one player left (R2.4)"
            streets.append((event.street, [s for s in clockwise if s not in out], [], False))
            if event.street == 7:
                cards_before_seventh = dealt_so_far
        elif isinstance(event, CardDealt):
            dealt_so_far += 1
            assert streets and event.street == streets[-1][0]
            streets[-1][2].append(event.seat)
        elif isinstance(event, CommunityCardDealt):
            assert streets and streets[-1][0] == 7, "a community card before 7th street"
            streets[-1] = (*streets[-1][:3], True)
        elif isinstance(event, ActionTaken) and event.kind is ActionKind.FOLD:
            out.add(event.seat)
    for street, live, seats, community in streets:
        if street == 7:
            must = 52 - cards_before_seventh < len(live)  # R12.1
            assert community == must, f"R12.1: {len(live)} players, community {community}"
            if community:
                assert seats == [], "7th-street cards dealt as well as a community card"
                continue
        rounds = 3 if street == 3 else 1
        assert seats == live * rounds, (street, live, seats)
    for seat, cards in hand.dealt.items():
        ups = [up for _, up in cards]
        assert ups == list(FACE_UP_PATTERN[: len(ups)]), (seat, ups)
    result = hand.state.result
    assert result is not None
    for seat in result.showdown_order:  # a hand at showdown has all its cards (R9.1)
        assert len(playing_cards(hand, seat)) == 7


def check_round_shapes(hand: Played) -> None:
    """R4.2: at most one bet and three raises of full size per round (short all-ins aside);
    R3.5: no action after everyone has matched; no action once cards are exposed (R8.2)."""
    full: Counter[int] = Counter()
    exposed = False
    for event in hand.events:
        if isinstance(event, CardsExposed):
            exposed = True
        if isinstance(event, ActionTaken):
            assert not exposed, "an action after the hands were exposed (R8.2)"
            if event.kind in WAGERS - {ActionKind.BRING_IN} and not event.all_in:
                full[event.street] += 1
    assert all(count <= CAP_BETS for count in full.values()), full


def check_showdown_events(hand: Played) -> None:
    """HandShown only at a showdown, for the live hands in showdown order (R8.1, R8.4)."""
    result = hand.state.result
    assert result is not None
    shown = [e.seat for e in hand.events if isinstance(e, HandShown)]
    assert shown == list(result.showdown_order)
    if shown:
        last_action = max(
            (k for k, e in enumerate(hand.events) if isinstance(e, ActionTaken)), default=-1
        )
        first_shown = next(k for k, e in enumerate(hand.events) if isinstance(e, HandShown))
        assert first_shown > last_action
    started = hand.events[0]
    assert isinstance(started, HandStarted) and started.button == hand.deal.button


def check_determinism(hand: Played) -> None:
    """Same deck and actions, same events; the replay tool agrees on the outcome."""
    state, events = hand.deal.start()
    again = list(events)
    for seat, kind in hand.actions:
        state, events = apply(state, Action(seat, kind))
        again.extend(events)
    assert again == hand.events
    assert state.result == hand.state.result


def replay(hand: Played) -> dict[str, int]:
    """The hand as a docs/replay.md script through the replay tool; returns its final stacks."""
    deal = hand.deal
    script = {
        "variant": deal.variant.value,
        "stakes": dataclasses.asdict(deal.stakes),
        "seats": [{"seat": s.seat, "stack": s.stack} for s in deal.seats],
        "button": deal.button,
        "cards": {str(seat): [str(c) for c, _ in cards] for seat, cards in hand.dealt.items()},
        "community": None if hand.community is None else str(hand.community),
        "actions": [
            {"seat": seat, "action": kind.value, "amount": event.amount}
            for (seat, kind), event in zip(
                hand.actions, [e for e in hand.events if isinstance(e, ActionTaken)], strict=True
            )
        ],
    }
    result = replay_script(script)
    assert result["ok"], result
    assert result["first_actor"] == {
        str(street): seat for street, seat in sorted(hand.state.first_actors.items())
    }
    return dict(result["final_stacks"])


def check_hand(hand: Played) -> None:
    check_chips(hand)
    check_pots(hand)
    check_dealing(hand)
    check_round_shapes(hand)
    check_showdown_events(hand)
    check_determinism(hand)


# --- the tests ---------------------------------------------------------------------------------


SHORT_ANTE = Deal(  # the low door card all-in for less than the ante; both others fold (R3.6)
    variant=Variant.STUD,
    stakes=Stakes.of(small_bet=5, ante=2, bring_in=2),
    seats=(SeatSpec(0, 1), SeatSpec(1, 50), SeatSpec(2, 50)),
    button=2,
    deck=build_deck([0, 1, 2], {0: "3s 4s 2c", 1: "5s 6s Kd", 2: "7s 8s Ah"}, button=2),
    policy_seed=0,
    fold_weight=1_000_000,
)


@profile(300)
@given(deals())
@example(SHORT_ANTE)
def test_random_hands_keep_every_invariant(deal: Deal) -> None:
    check_hand(play(deal))


@profile(400)
@given(deals())
def test_random_hands_conserve_chips_and_cards(deal: Deal) -> None:
    """More hands with the per-step accept/refuse probes off: the whole-hand invariants."""
    check_hand(play(deal, full_checks=False))


@profile(150)
@given(deals())
def test_replay_tool_agrees_with_engine(deal: Deal) -> None:
    """The recorded hand as a docs/replay.md script gives the same first actors and final stacks."""
    hand = play(deal, full_checks=False)
    result = hand.state.result
    assert result is not None
    assert replay(hand) == {str(seat): chips for seat, chips in result.final_stacks.items()}


@profile(50)
@given(deals(max_players=8), st.integers(0, 2**32 - 1))
def test_eight_handed_deep_stacks_reach_community_card(deal: Deal, seed: int) -> None:
    """8 players, deep stacks, nobody folds: 7th street always needs the community card
    (R12.1: 8 x 6 = 48 cards dealt leaves 4 for 8 players)."""
    labels = list(range(8))
    deep = dataclasses.replace(
        deal,
        seats=tuple(SeatSpec(label, 500 + seed % 97) for label in labels),
        button=labels[seed % 8],
        fold_weight=0,
    )
    hand = play(deep, full_checks=False)
    check_hand(hand)
    assert hand.community is not None
    assert len(hand.state.result.showdown_order) == 8  # type: ignore[union-attr]


# --- pots on their own -------------------------------------------------------------------------


@st.composite
def contributions(draw: st.DrawFn) -> tuple[list[int], list[bool]]:
    """Chips per seat and folds, shaped as a hand leaves them: the top contributor is live."""
    n = draw(st.integers(2, 8))
    chips = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    folded = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    top = draw(st.integers(0, n - 1))
    folded[top] = False
    chips[top] = max(*chips, 1)
    return chips, folded


def side_pot_share(chips: Sequence[int], seat: int) -> int:
    """Independent formula: the most a live seat can win is min(his, each) summed over all."""
    return sum(min(c, chips[seat]) for c in chips)


@profile(300)
@given(contributions())
def test_build_pots_shapes(data: tuple[list[int], list[bool]]) -> None:
    """R7.4: conservation, eligibility, nesting and merging of equal-eligibility levels."""
    chips, folded = data
    pots = build_pots(chips, folded)
    assert sum(pot.amount for pot in pots) == sum(chips)
    live = {i for i, f in enumerate(folded) if not f}
    for pot in pots:
        assert pot.amount > 0 and pot.eligible
        assert set(pot.eligible) <= live
        assert list(pot.eligible) == sorted(pot.eligible)
    for a, b in itertools.pairwise(pots):
        assert set(b.eligible) < set(a.eligible), "side pots must nest strictly (merged if equal)"
    for seat in live:
        if chips[seat]:
            winnable = sum(pot.amount for pot in pots if seat in pot.eligible)
            assert winnable == side_pot_share(chips, seat), (chips, folded, seat)
        else:
            assert all(seat not in pot.eligible for pot in pots)


@profile(200)
@given(contributions())
def test_uncalled_excess_then_pots(data: tuple[list[int], list[bool]]) -> None:
    """R7.5: only the unmatched top of the single largest contribution goes back."""
    chips, folded = data
    excess = uncalled_excess(chips)
    ordered = sorted(chips, reverse=True)
    if ordered[0] == ordered[1]:
        assert excess is None
        return
    assert excess == (chips.index(ordered[0]), ordered[0] - ordered[1])
    after = list(chips)
    after[excess[0]] -= excess[1]
    assert sum(p.amount for p in build_pots(after, folded)) == sum(chips) - excess[1]


def test_build_pots_rules_example() -> None:
    """R7.4 example: S0 all-in 11, S3 folds after 21, S1 all-in 31, S2 bets 41."""
    chips, folded = [11, 31, 41, 21], [False, False, False, True]
    excess = uncalled_excess(chips)
    assert excess == (2, 10)
    chips[2] -= 10
    assert build_pots(chips, folded) == [Pot(44, (0, 1, 2)), Pot(50, (1, 2))]


@st.composite
def pots_to_award(draw: st.DrawFn) -> tuple[Pot, dict[int, int], dict[int, int | None], bool]:
    seats = draw(st.lists(st.integers(0, 7), min_size=1, max_size=8, unique=True))
    amount = draw(st.integers(1, 500))
    highs = {seat: draw(st.integers(1, 3)) for seat in seats}  # few values: many ties
    lows = {seat: draw(st.one_of(st.none(), st.integers(1, 3))) for seat in seats}
    return Pot(amount, tuple(sorted(seats))), highs, lows, draw(st.booleans())


@profile(300)
@given(pots_to_award())
def test_award_pot_shapes(
    case: tuple[Pot, dict[int, int], dict[int, int | None], bool],
) -> None:
    """R9.1, R10.4-R10.6, R11.1-R11.4: who wins each half and how the chips are cut."""
    pot, highs, lows, split = case
    award = award_pot(
        pot,
        highs.__getitem__,
        lows.__getitem__ if split else None,
        lambda seat: seat,  # higher seat gets a high odd chip first
        lambda seat: -seat,  # lower seat gets a low odd chip first
    )
    best = max(highs.values())
    assert set(award.high_winners) == {s for s, v in highs.items() if v == best}
    qualified = {s: v for s, v in lows.items() if v is not None} if split else {}
    best_low = max(qualified.values(), default=None)
    assert set(award.low_winners) == {s for s, v in qualified.items() if v == best_low}
    shares = award.shares
    assert sum(shares.values()) == pot.amount
    assert set(shares) <= set(award.high_winners) | set(award.low_winners)
    assert all(isinstance(c, int) and c >= 0 for c in shares.values())
    check_odd_chips(
        pot.amount, award.high_winners, award.low_winners, {s: c for s, c in shares.items() if c}
    )
    high, low = sorted(award.high_winners), sorted(award.low_winners)
    if not low or set(high) == set(low):  # R10.4 no low, R11.4 same players tie both halves
        expected = even_split(pot.amount, high, reverse=True)
    else:  # R11.2: the odd chip of the halves goes high; R11.3 order inside each half;
        # R11.1: a low winner who already took a high odd chip comes last for a low one
        high_half = pot.amount - pot.amount // 2
        high_split = even_split(high_half, high, reverse=True)
        had_odd = {seat for seat, chips in high_split.items() if chips > high_half // len(high)}
        expected = Counter(high_split)
        expected.update(even_split(pot.amount // 2, low, reverse=False, last=had_odd))
    assert {s: c for s, c in shares.items() if c} == {s: c for s, c in expected.items() if c}


def even_split(
    amount: int, winners: Sequence[int], reverse: bool, last: set[int] | None = None
) -> dict[int, int]:
    share, odd = divmod(amount, len(winners))
    order = sorted(winners, reverse=reverse)
    if last:
        order = [seat for seat in order if seat not in last] + [s for s in order if s in last]
    return {seat: share + (1 if k < odd else 0) for k, seat in enumerate(order)}


# --- deck commitment ---------------------------------------------------------------------------


@profile(200)
@given(st.integers(0, 2**32 - 1), st.binary(min_size=1, max_size=32), st.integers(0, 50))
def test_deck_commitment_binds_deck_and_salt(seed: int, salt: bytes, k: int) -> None:
    deck = shuffled_deck(random.Random(seed))
    assert sorted(deck) == list(ALL_CARDS)
    commitment = deck_commitment(deck, salt)
    assert verify_commitment(commitment, deck, salt)
    swapped = list(deck)
    swapped[k], swapped[k + 1] = swapped[k + 1], swapped[k]
    assert not verify_commitment(commitment, swapped, salt)
    assert not verify_commitment(commitment, deck, salt + b"\x00")

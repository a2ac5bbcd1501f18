"""docs/rules.md §1 (setup: players, stakes, antes) and §2 (dealing), plus bad setup input.

Each test is named after the rule it checks; examples are docs/rules.md's own where it gives one.
"""

from __future__ import annotations

import random

import pytest

from dealerbot.engine.betting import bet_size
from dealerbot.engine.cards import ALL_CARDS, Card, parse_cards, validate_deck
from dealerbot.engine.errors import CardError, SetupError, StakesError
from dealerbot.engine.events import AntePosted, CardDealt, StreetStarted
from dealerbot.engine.state import SeatSpec, legal_actions, start_hand
from dealerbot.engine.variants import (
    UP_CARDS,
    Stakes,
    Variant,
    dealt_face_up,
    has_down_card,
    is_face_up,
)

from .helpers import STAKES, Hand, deal

VARIANTS = [Variant.STUD, Variant.STUD8]


def shuffled(seed: int) -> tuple[Card, ...]:
    deck = list(ALL_CARDS)
    random.Random(seed).shuffle(deck)
    return tuple(deck)


def seats(*stacks: int) -> list[SeatSpec]:
    return [SeatSpec(label, stack) for label, stack in enumerate(stacks)]


# --- R1.1 players --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("count", [2, 3, 7, 8])
def test_r1_1_hand_starts_with_two_to_eight_players(variant: Variant, count: int) -> None:
    state, _ = start_hand(variant, STAKES, seats(*[50] * count), shuffled(count))
    assert state.seats == tuple(range(count))
    assert all(len(state.cards_of(seat)) == 3 for seat in state.seats)
    assert state.seat_to_act is not None


@pytest.mark.parametrize("count", [0, 1, 9, 10])
def test_r1_1_one_or_nine_players_is_refused(count: int) -> None:
    with pytest.raises(SetupError, match=r"2 to 8 players"):
        start_hand(Variant.STUD, STAKES, seats(*[50] * count), shuffled(1))


@pytest.mark.parametrize("bad_stack", [0, -5])
def test_r1_1_player_without_chips_is_refused(bad_stack: int) -> None:
    with pytest.raises(SetupError, match="seat 1"):
        start_hand(Variant.STUD, STAKES, seats(50, bad_stack, 50), shuffled(2))


def test_r1_1_bad_seats_and_button_are_refused() -> None:
    with pytest.raises(SetupError):
        start_hand(Variant.STUD, STAKES, [SeatSpec(1, 50), SeatSpec(1, 50)], shuffled(3))
    with pytest.raises(SetupError, match="button"):
        start_hand(Variant.STUD, STAKES, seats(50, 50, 50), shuffled(3), button=7)
    with pytest.raises(SetupError, match="unknown game"):
        start_hand("stud", STAKES, seats(50, 50), shuffled(3))  # type: ignore[arg-type]


# --- R1.2 stakes ---------------------------------------------------------------------------------


def test_r1_2_example_stakes_are_valid() -> None:
    stakes = Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10)
    assert Stakes.of(5, ante=1, bring_in=2) == stakes
    assert bet_size(stakes, 3) == bet_size(stakes, 4) == 5  # R4.1 sizes from these stakes
    assert bet_size(stakes, 5) == bet_size(stakes, 7) == 10
    # The edge of the inequality is allowed: ante == bring-in, bring-in == small bet - 1.
    Stakes(ante=2, bring_in=2, small_bet=3, big_bet=6)


@pytest.mark.parametrize(
    ("ante", "bring_in", "small_bet", "big_bet", "message"),
    [
        (3, 2, 5, 10, r"0 < ante <= bring-in < small bet \(got ante 3, bring-in 2, small bet 5\)"),
        (1, 5, 5, 10, r"0 < ante <= bring-in < small bet \(got ante 1, bring-in 5, small bet 5\)"),
        (0, 2, 5, 10, r"0 < ante <= bring-in < small bet \(got ante 0"),
        (-1, 2, 5, 10, r"0 < ante"),
        (1, 6, 5, 10, r"bring-in < small bet"),
        (1, 2, 5, 15, r"big bet must be twice the small bet \(10\), not 15"),
        (1, 2, 5, 5, r"twice the small bet"),
    ],
)
def test_r1_2_bad_stakes_are_rejected_with_a_reason(
    ante: int, bring_in: int, small_bet: int, big_bet: int, message: str
) -> None:
    with pytest.raises(StakesError, match=message):
        Stakes(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet)


@pytest.mark.parametrize("value", [2.5, 2.0, "2", True, None])
def test_r1_2_stakes_must_be_whole_chips(value: object) -> None:
    with pytest.raises(StakesError, match="bring in must be a whole number of chips"):
        Stakes(ante=1, bring_in=value, small_bet=5, big_bet=10)  # type: ignore[arg-type]


def test_r1_2_unknown_game_name_is_a_stakes_error() -> None:
    assert Variant.parse(" Stud8 ") is Variant.STUD8
    assert Variant.parse("RAZZ") is Variant.RAZZ
    with pytest.raises(StakesError, match="choose 'stud', 'stud8' or 'razz'"):
        Variant.parse("holdem")


# --- R1.3 antes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r1_3_short_stack_posts_all_as_ante_and_is_all_in(variant: Variant) -> None:
    """Ex: stacks 50/50/1 -> pot 3, S2 all-in."""
    state, events = start_hand(variant, STAKES, seats(50, 50, 1), shuffled(4))
    antes = [e for e in events if isinstance(e, AntePosted)]
    assert [(e.seat, e.amount, e.all_in) for e in antes] == [
        (0, 1, False),
        (1, 1, False),
        (2, 1, True),
    ]
    assert state.pot == 3
    assert state.stacks == [49, 49, 0]
    assert len(state.cards_of(2)) == 3  # still dealt in


def test_r1_3_stack_below_the_ante_posts_what_it_has() -> None:
    stakes = Stakes(ante=2, bring_in=3, small_bet=10, big_bet=20)
    state, events = start_hand(Variant.STUD, stakes, seats(50, 1, 50), shuffled(5))
    antes = {e.seat: (e.amount, e.all_in) for e in events if isinstance(e, AntePosted)}
    assert antes == {0: (2, False), 1: (1, True), 2: (2, False)}
    assert state.pot == 5


def test_r1_3_antes_are_posted_before_any_card() -> None:
    _, events = start_hand(Variant.STUD, STAKES, seats(50, 50, 50), shuffled(6))
    kinds = [type(e) for e in events]
    last_ante = max(i for i, k in enumerate(kinds) if k is AntePosted)
    first_card = kinds.index(CardDealt)
    assert last_ante < first_card


# --- R2.1 deck -----------------------------------------------------------------------------------


def test_r2_1_cards_come_from_the_top_without_burns() -> None:
    deck = shuffled(7)
    state, events = start_hand(Variant.STUD, STAKES, seats(100, 100, 100), deck)
    hand = Hand(state, list(events)).check_down(until_street=5)
    got = {seat: hand.state.cards_of(seat) for seat in (0, 1, 2)}
    # 3rd street: deck[0..8], 4th street: deck[9..11], 5th: deck[12..14]; no gaps.
    for seat in (0, 1, 2):
        assert got[seat] == (
            deck[seat],
            deck[3 + seat],
            deck[6 + seat],
            deck[9 + seat],
            deck[12 + seat],
        )
    assert hand.state.deck_pos == 15


def test_r2_1_deck_must_be_52_distinct_cards() -> None:
    deck = list(shuffled(8))
    with pytest.raises(CardError, match="52 cards, not 51"):
        start_hand(Variant.STUD, STAKES, seats(50, 50), deck[:51])
    deck[10] = deck[20]
    with pytest.raises(CardError, match="appears twice"):
        start_hand(Variant.STUD, STAKES, seats(50, 50), deck)
    assert validate_deck(list(range(52))) == ALL_CARDS


@pytest.mark.parametrize("bad_code", [52, -1, 99])
def test_r2_1_deck_with_a_code_that_is_no_card_is_a_card_error(bad_code: int) -> None:
    """Decks may be given as card codes (ints); a code outside 0..51 names no card."""
    deck = [*range(51), bad_code]  # A♠ (code 51) missing, replaced by a bad code
    with pytest.raises(CardError):
        start_hand(Variant.STUD, STAKES, seats(50, 50), deck)


@pytest.mark.parametrize("text", ["1s", "Ax", "", "AA", "10", "s", "Asd", "11h"])
def test_r2_1_unknown_card_text_is_a_card_error(text: str) -> None:
    with pytest.raises(CardError):
        Card.parse(text)


def test_r2_1_card_text_parses_and_duplicates_are_refused() -> None:
    assert Card.parse("As") == ALL_CARDS[51]
    assert Card.parse("10h") == Card.parse("Th") == Card.parse("th")
    assert parse_cards("As Kd") == (Card.parse("As"), Card.parse("Kd"))
    with pytest.raises(CardError, match="twice"):
        parse_cards("As Kd As")


# --- R2.2 dealing order --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r2_2_cards_go_clockwise_from_the_buttons_left(variant: Variant) -> None:
    """Ex: B=S2, 3 players: cards 1-3 are S0,S1,S2's first down cards, 7-9 their door cards."""
    deck = shuffled(9)
    state, events = start_hand(variant, STAKES, seats(50, 50, 50), deck, button=2)
    for seat in (0, 1, 2):
        first, second, door = state.cards_of(seat)
        assert (first, second, door) == (deck[seat], deck[3 + seat], deck[6 + seat])
    dealt = [e for e in events if isinstance(e, CardDealt)]
    assert [e.seat for e in dealt] == [0, 1, 2] * 3
    assert [e.face_up for e in dealt] == [False] * 6 + [True] * 3  # down, down, up (door)
    assert [e.private_to for e in dealt[:6]] == [0, 1, 2, 0, 1, 2]
    assert all(e.private_to is None for e in dealt[6:])


@pytest.mark.parametrize("button", [0, 1, 2, 3])
def test_r2_2_dealing_starts_left_of_any_button(button: int) -> None:
    deck = shuffled(10 + button)
    state, _ = start_hand(Variant.STUD, STAKES, seats(50, 50, 50, 50), deck, button=button)
    order = [(button + 1 + k) % 4 for k in range(4)]
    for position, seat in enumerate(order):
        assert state.cards_of(seat) == (deck[position], deck[4 + position], deck[8 + position])
    hand = Hand(state, []).check_down(until_street=5)  # 4th street: same order
    for position, seat in enumerate(order):
        assert hand.state.cards_of(seat)[3] == deck[12 + position]


def test_r2_2_default_button_is_the_last_seat() -> None:
    deck = shuffled(14)
    state, _ = start_hand(Variant.STUD, STAKES, seats(50, 50, 50), deck)
    assert state.button_seat == 2
    assert state.cards_of(0)[0] == deck[0]


# --- R2.3 later streets --------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r2_3_one_up_card_per_street_to_players_still_in_all_in_included(variant: Variant) -> None:
    # S1 is all-in after the ante and the bring-in call; S3 folds on 3rd street.
    hand = deal(
        {0: "? ? 2c", 1: "? ? 9h", 2: "? ? Td", 3: "? ? Jd"},
        stacks={1: 3},
        variant=variant,
    )
    hand.play("S0 bring_in, S1 call, S2 call, S3 fold")
    assert hand.state.stack_of(1) == 0
    hand.check_down()
    dealt = hand.of_type(CardDealt)
    by_street = {
        street: [(e.seat, e.face_up) for e in dealt if e.street == street] for street in range(3, 8)
    }
    for street in (4, 5, 6):
        assert by_street[street] == [(0, True), (1, True), (2, True)]
    assert by_street[7] == [(0, False), (1, False), (2, False)]
    assert len(hand.state.cards_of(1)) == 7
    assert len(hand.state.cards_of(3)) == 3


def test_r2_2_r2_3_street_table_down_down_up_then_up_up_up_then_down() -> None:
    assert dealt_face_up() == (False, False, True, True, True, True, False)
    assert [street for street in range(3, 8) if has_down_card(street)] == [3, 7]
    assert [is_face_up(3, k) for k in range(3)] == [False, False, True]
    assert [is_face_up(street, 0) for street in (4, 5, 6, 7)] == [True, True, True, False]
    cards = parse_cards("2c 3c 4c 5c 6c 7c 8c")  # dealt in this order, 3rd to 7th street
    assert cards[UP_CARDS] == parse_cards("4c 5c 6c 7c")  # the board: door card, 4th-6th


@pytest.mark.parametrize("variant", VARIANTS)
def test_r2_3_street_table_is_what_the_engine_deals(variant: Variant) -> None:
    """The table the table service reads for privacy is the one the engine deals by."""
    hand = deal({0: "? ? 2c", 1: "? ? 9h", 2: "? ? Td"}, variant=variant)
    hand.check_down()
    for seat in range(3):
        flags = tuple(e.face_up for e in hand.of_type(CardDealt) if e.seat == seat)
        assert flags == dealt_face_up()
        street_index: dict[int, int] = {}
        for event in (e for e in hand.of_type(CardDealt) if e.seat == seat):
            k = street_index.get(event.street, 0)
            street_index[event.street] = k + 1
            assert event.face_up is is_face_up(event.street, k)


# --- R2.4 ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r2_4_no_cards_once_one_player_is_left(variant: Variant) -> None:
    hand = deal({0: "? ? 2c", 1: "? ? 9h", 2: "? ? Td"}, variant=variant)
    hand.play("S0 bring_in, S1 fold, S2 fold")
    assert hand.state.is_over
    assert all(len(hand.state.cards_of(seat)) == 3 for seat in (0, 1, 2))
    assert hand.state.deck_pos == 9
    assert not [e for e in hand.events if isinstance(e, StreetStarted) and e.street > 3]
    assert legal_actions(hand.state).options == ()


def test_r2_4_no_cards_after_a_fold_on_a_later_street() -> None:
    hand = deal({0: "? ? 2c Kd", 1: "? ? 9h 3d", 2: "? ? Td"})
    hand.play("S0 bring_in, S1 call, S2 fold")  # 4th street: S0 (K-high board) first
    assert hand.state.street == 4 and hand.to_act == 0
    hand.play("S0 bet, S1 fold")
    assert hand.state.is_over
    assert [len(hand.state.cards_of(seat)) for seat in (0, 1, 2)] == [4, 4, 3]
    assert hand.state.deck_pos == 11

"""docs/rules.md §12 (the community card) and §13 (the button)."""

from __future__ import annotations

import random

import pytest

from dealerbot.engine.cards import ALL_CARDS, Card
from dealerbot.engine.events import (
    ActionKind,
    CardDealt,
    CommunityCardDealt,
    HandShown,
    HandStarted,
)
from dealerbot.engine.opener import next_button
from dealerbot.engine.state import SeatSpec, start_hand
from dealerbot.engine.variants import Variant

from .helpers import STAKES, Hand, deal, replay

VARIANTS = [Variant.STUD, Variant.STUD8]

# Eight players see 7th street: 48 cards dealt, 4 left, so 7♠ goes to the middle.
# Board order: door, 4th, 5th, 6th.
EIGHT = {
    0: "2d 2s 2c 9d 4s Ac",
    1: "3s 4d 3c Td 5s Ad",  # with 7♠: low 7-5-4-3-A (the best low)
    2: "5d 5h 3d Jd 6s Ah",
    3: "7h 8c 7d 7c Ks 2h",  # 7♦7♣K♠2♥; with 7♠ and the 7♥ down: four sevens
    4: "6d 6h 4c Qd 8s As",
    5: "Kh Qc Kd Kc Qh Jh",  # K♦K♣Q♥J♥: leads on 6th street
    6: "8h 9h 5c 9c Ts 3h",
    7: "9s Tc 6c 8d Js 4h",
}


# --- R12.1 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r12_1_too_few_cards_for_7th_street_one_community_card(variant: Variant) -> None:
    hand = deal(EIGHT, variant=variant, community="7s").check_down()
    assert hand.state.community == Card.parse("7s")
    assert [e.card for e in hand.of_type(CommunityCardDealt)] == [Card.parse("7s")]
    assert all(len(hand.state.cards_of(seat)) == 6 for seat in range(8))
    assert not [e for e in hand.of_type(CardDealt) if e.street == 7]
    assert hand.state.deck_pos == 49


def test_r12_1_community_card_plays_in_every_hand() -> None:
    stud = deal(EIGHT, community="7s").check_down()
    assert {e.seat: e.high for e in stud.of_type(HandShown)}[3] == "Four of a kind, sevens"
    assert stud.result.payouts == {3: 24}
    stud8 = deal(EIGHT, variant=Variant.STUD8, community="7s").check_down()
    pot = stud8.result.pots[0]
    assert (pot.high_winners, pot.low_winners) == ((3,), (1,))
    assert stud8.shares() == [{3: 12, 1: 12}]


def test_r12_1_community_card_through_the_replay_tool() -> None:
    actions = ", ".join(["bring_in"] + ["call"] * 7 + ["check"] * 32)
    result = replay(EIGHT, actions, community="7s")
    assert result["ok"], result
    assert result["community"] == "7s"
    assert result["first_actor"]["7"] == 3
    assert result["payouts"] == {"3": 24}


@pytest.mark.parametrize("variant", VARIANTS)
def test_r12_1_exactly_enough_cards_no_community_card(variant: Variant) -> None:
    # S7 folds on 3rd street: 24 + 3 x 7 = 45 cards dealt, 7 left for 7 players.
    doors = ["2c", "3c", "4c", "5c", "6c", "7c", "8c"]
    cards = {seat: f"? ? {door} ? ? ? ?" for seat, door in enumerate(doors)}
    hand = deal({**cards, 7: "? ? 9c"}, variant=variant)
    hand.play("S0 bring_in, S1 call, S2 call, S3 call, S4 call, S5 call, S6 call, S7 fold")
    hand.check_down()
    assert hand.state.community is None
    assert all(len(hand.state.cards_of(seat)) == 7 for seat in range(7))
    assert hand.state.deck_pos == 52


def test_r12_1_fold_on_6th_street_still_leaves_too_few_cards() -> None:
    cards: dict[int, list[str | None]] = {seat: [None] * 6 for seat in range(8)}
    for seat, door in enumerate(["Ac", "3c", "4c", "5c", "6c", "7c", "8c", "9c"]):
        cards[seat][2] = door
    cards[0][3] = "Ad"  # S0 shows a pair of aces and acts first from 4th street on
    hand = deal(cards, community="Kh").check_down(until_street=6)
    assert hand.state.street == 6 and hand.state.first_actors[6] == 0
    while hand.state.street == 6:  # the first seat to act bets, S7 folds, the others call
        if ActionKind.BET in hand.legal.kinds:
            hand.act(ActionKind.BET)
        else:
            hand.act(ActionKind.FOLD if hand.to_act == 7 else ActionKind.CALL)
    assert hand.state.folded[7]
    assert hand.state.community == Card.parse("Kh")  # 4 cards left for 7 players


# --- R12.2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_r12_2_seventh_street_order_counts_the_community_card(variant: Variant) -> None:
    """Ex: 8 players reach 7th, 7♠ common; S3 7♦7♣K♠2♥ (now trips) acts before
    S5 K♦K♣Q♥J♥ (pair), though S5 led on 6th street."""
    hand = deal(EIGHT, variant=variant, community="7s").check_down()
    assert hand.state.first_actors[6] == 5
    assert hand.state.first_actors[7] == 3


@pytest.mark.parametrize("variant", VARIANTS)
def test_r12_2_full_house_on_board_beats_trips(variant: Variant) -> None:
    boards = {
        0: "2c 9d 4s Ac",
        1: "3c Td 5s Ad",
        2: "3d Jd 6s Ah",
        3: "7d 7c Ks Kh",  # two pair; with 7♠ a full house
        4: "4c Kd 8s As",
        5: "Qd Qc Qh Jh",  # trips: leads on 6th street
        6: "5c 9c Ts 3h",
        7: "6c 8d Js 4h",
    }
    cards = {seat: f"? ? {board}" for seat, board in boards.items()}
    hand = deal(cards, variant=variant, community="7s").check_down()
    assert hand.state.first_actors[6] == 5
    assert hand.state.first_actors[7] == 3


# --- R12.3 ------------------------------------------------------------------------------------


def test_r12_3_community_card_always_exists_with_eight_players() -> None:
    """8 players x 6 cards = 48 < 52: the community card is there; the abort path of R12.3
    (refund the hand) cannot be reached through the public API."""
    for seed in range(5):
        deck = list(ALL_CARDS)
        random.Random(seed).shuffle(deck)
        seats = [SeatSpec(seat, 50) for seat in range(8)]
        state, events = start_hand(Variant.STUD, STAKES, seats, deck)
        hand = Hand(state, list(events)).check_down()
        assert hand.state.community == deck[48]
        assert not hand.result.cancelled
        assert sum(hand.result.payouts.values()) == 8 * 3


# --- R13.1 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("button", [0, 1, 2, 3])
def test_r13_1_engine_follows_the_button_it_is_given(variant: Variant, button: int) -> None:
    """The table service moves the button clockwise after each hand to the next player dealt
    in (R13.1); the engine takes it as input and uses it only for the dealing order (R2.2)
    and ties between boards (R6.2)."""
    # S1 and S3 show equal boards, S0 and S2 weaker ones; S0's 2♣ brings in.
    cards = {0: "? ? 2c 3d", 1: "? ? Ks 9h", 2: "? ? 4c 5d", 3: "? ? Kd 9d"}
    hand = deal(cards, variant=variant, button=button)
    started = hand.of_type(HandStarted)[0]
    assert started.button == hand.state.button_seat == button
    first_card = hand.of_type(CardDealt)[0]
    assert first_card.seat == (button + 1) % 4
    assert hand.state.bring_in_seat == 0  # the bring-in does not depend on the button
    hand.check_down(until_street=5)
    clockwise = [(button + 1 + k) % 4 for k in range(4)]
    expected = next(seat for seat in clockwise if seat in (1, 3))
    assert hand.state.first_actors[4] == expected


def test_r13_1_consecutive_hands_with_the_button_moved() -> None:
    """Moving the button one seat moves the first card one seat, hand after hand."""
    deck = list(ALL_CARDS)
    random.Random(99).shuffle(deck)
    seats = [SeatSpec(seat, 50) for seat in range(5)]
    firsts = []
    for button in range(5):
        state, _ = start_hand(Variant.STUD, STAKES, seats, deck, button=button)
        firsts.append(next(seat for seat in range(5) if state.cards_of(seat)[0] == deck[0]))
    assert firsts == [1, 2, 3, 4, 0]


@pytest.mark.parametrize(
    ("previous", "dealt_in", "button"),
    [
        (None, [0, 3, 5], 5),  # first hand: the highest seat, so the lowest is dealt first
        (0, [0, 3, 5], 3),
        (3, [0, 3, 5], 5),
        (5, [0, 3, 5], 0),  # wraps clockwise past the last seat
        (1, [0, 3, 5], 3),  # the last button left: the next seat dealt in after it
        (4, [0, 2], 0),
        (2, [2, 7], 7),
    ],
)
def test_r13_1_next_button_is_the_next_seat_dealt_in_clockwise(
    previous: int | None, dealt_in: list[int], button: int
) -> None:
    assert next_button(previous, dealt_in) == button
    assert next_button(previous, list(reversed(dealt_in))) == button  # order given is irrelevant


def test_r13_1_next_button_goes_round_every_seat_once() -> None:
    seats = [1, 2, 4, 6, 7]
    button = next_button(None, seats)
    visited = []
    for _ in seats:
        button = next_button(button, seats)
        visited.append(button)
    assert visited == [1, 2, 4, 6, 7]


def test_r13_1_next_button_needs_someone_dealt_in() -> None:
    with pytest.raises(ValueError, match="nobody"):
        next_button(3, [])

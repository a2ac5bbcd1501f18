"""opener.board_rank: the strength of the up cards that decides who acts first (R6.1, R6.2,
R12.2). Straights, flushes and suits never count, so equal boards compare equal."""

from __future__ import annotations

import random

import pytest

from dealerbot.engine.cards import Card, parse_cards
from dealerbot.engine.evaluate import HandCategory, high_category, high_rank
from dealerbot.engine.opener import (
    CLOCKWISE,
    best_board_index,
    board_key,
    board_rank,
    low_board_rank,
)

from .test_evaluate import random_hands

# --- R6.1, R6.2, R12.2: boards -----------------------------------------------------------------


def test_r6_1_board_example_pair_beats_ace_king_queen() -> None:
    assert board_rank(parse_cards("4h Kc 4c")) > board_rank(parse_cards("Ad Kd Qd"))


def test_r6_1_board_class_order() -> None:
    boards = [
        "Ac Kd Qh Js Tc",  # high card (a straight never counts)
        "2c 2d 3h 4s 5c",  # pair
        "3c 3d 2h 2s 4c",  # two pair
        "2c 2d 2h 3s 4c",  # trips
        "2c 2d 2h 3s 3c",  # full house (R12.2)
        "2c 2d 2h 2s 3c",  # quads
    ]
    ranks = [board_rank(parse_cards(b)) for b in boards]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


def test_r6_1_board_sets_then_pairs_then_kickers_high_to_low() -> None:
    def rank(text: str) -> tuple[int, ...]:
        return board_rank(parse_cards(text))

    assert rank("Kc Kd Ah 2s") > rank("Kh Ks Qc Jd")  # same pair: highest kicker first
    assert rank("Kc Kd Ah 9s") > rank("Kh Ks Ac 8d")  # then the next kicker
    assert rank("2c 2d 3h") > rank("Ac Kd Qh")  # any pair beats no pair
    assert rank("Qc Qd 3h 3s") > rank("Jc Jd Th Ts")  # higher pair first
    assert rank("Qc Qd 4h 4s") > rank("Qh Qs 3c 3d")  # then the second pair
    assert rank("5c 5d 5h 2s") > rank("4c 4d 4h As")  # the set before the kicker
    assert rank("Ac 3d") > rank("Kc Qd")  # ace high
    assert rank("Ac 3d") > rank("Ah 2d")
    assert rank("2c 2d") > rank("Ac Kd")


def test_r6_1_board_straights_and_flushes_never_count() -> None:
    straight_flush = board_rank(parse_cards("9h 8h 7h 6h"))
    assert straight_flush < board_rank(parse_cards("2c 2d 3h 4s"))
    assert straight_flush < board_rank(parse_cards("Tc 8d 7h 6s"))  # just a higher card
    five = board_rank(parse_cards("9h 8h 7h 6h 5h"))
    assert five == board_rank(parse_cards("9c 8d 7h 6s 5c")) < board_rank(parse_cards("2c 2d 3h"))


def test_r6_2_equal_boards_compare_equal() -> None:
    assert board_rank(parse_cards("Ks 9h")) == board_rank(parse_cards("Kd 9d"))
    assert board_rank(parse_cards("Qs Qh 7c")) == board_rank(parse_cards("Qd Qc 7d"))


def test_r12_2_community_card_makes_trips_beat_a_pair() -> None:
    community = Card.parse("7s")
    trips = board_rank([*parse_cards("7d 7c Ks 2h"), community])
    pair = board_rank([*parse_cards("Kd Kc Qh Jh"), community])
    assert pair < trips
    # and on 6th street (no community card yet) the kings led
    assert board_rank(parse_cards("Kd Kc Qh Jh")) > board_rank(parse_cards("7d 7c Ks 2h"))


def test_r6_1_five_card_boards_order_like_high_hands_without_straights_or_flushes() -> None:
    """Cross-check: where no straight or flush is involved a board orders like a high hand."""
    plain = {
        HandCategory.HIGH_CARD,
        HandCategory.PAIR,
        HandCategory.TWO_PAIR,
        HandCategory.TRIPS,
        HandCategory.FULL_HOUSE,
        HandCategory.QUADS,
    }
    boards = [b for b in random_hands(seed=61, size=5, count=6_000)
              if high_category(high_rank(b)) in plain]  # fmt: skip
    rng = random.Random(62)
    for _ in range(20_000):
        a, b = rng.choice(boards), rng.choice(boards)
        by_board = (board_rank(a) > board_rank(b)) - (board_rank(a) < board_rank(b))
        by_high = (high_rank(a) > high_rank(b)) - (high_rank(a) < high_rank(b))
        assert by_board == by_high, (a, b)


def test_board_rank_refuses_empty_or_oversized_boards() -> None:
    with pytest.raises(ValueError):
        board_rank([])
    with pytest.raises(ValueError):
        board_rank(parse_cards("2c 3c 4c 5c 6c 7c"))


@pytest.mark.parametrize("lowest", [False, True])
def test_r6_1_r6_3_best_board_index_by_keys_is_the_first_strongest_clockwise(
    lowest: bool,
) -> None:
    """best_board_index reads boards as keys; the oracle ranks the cards themselves (R6.1-R6.3,
    R12.2, R14.3): the strongest board, the first clockwise from the button among equals."""
    rng = random.Random(63)
    strength = low_board_rank if lowest else board_rank
    for _ in range(3_000):
        seats = rng.randint(2, 8)
        size = rng.randint(1, 4)
        deck = rng.sample(range(52), 8 * size + 1)
        boards = [tuple(Card(c) for c in deck[k * size : (k + 1) * size]) for k in range(seats)]
        folded = [rng.random() < 0.3 for _ in range(seats)]
        if all(folded):
            folded[rng.randrange(seats)] = False
        button = rng.randrange(seats)
        community = Card(deck[-1]) if size == 4 and rng.random() < 0.5 else None
        extra = () if community is None else (community,)
        live = [i for i in CLOCKWISE[seats][(button + 1) % seats] if not folded[i]]
        best = max(strength([*boards[i], *extra]) for i in live)
        expected = next(i for i in live if strength([*boards[i], *extra]) == best)
        keys = [board_key(board) for board in boards]
        assert best_board_index(keys, folded, button, community, lowest) == expected

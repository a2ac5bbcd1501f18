"""Razz hands as a result and the 7th-street DM show them: the five cards of the ace-to-five
low, high to low, and the low's name (issue 8, follow-up P7b)."""

from __future__ import annotations

from dealerbot.engine import parse_cards
from dealerbot.tables.narration import made_hand, razz_five


def test_the_five_lowest_different_ranks_play_and_the_kings_and_nine_do_not() -> None:
    seven = parse_cards("Ks 7h 5d 4c 2s Ah 9d")
    assert razz_five(seven) == parse_cards("7h 5d 4c 2s Ah")
    assert made_hand(seven, split_low=False, lowball=True) == ("7-5-4-2-A (Seven low)", None)


def test_a_paired_low_shows_both_cards_of_its_pair() -> None:
    seven = parse_cards("Ac Ad 2c 2d 3c 3d 4h")  # four ranks: the best low is a pair of aces
    assert razz_five(seven) == parse_cards("4h 3c 2c Ac Ad")
    assert made_hand(seven, split_low=False, lowball=True) == ("4-3-2-A-A (Pair of aces)", None)


def test_fewer_than_five_cards_have_no_five() -> None:
    assert razz_five(parse_cards("Ac 2d 3h 4s")) == ()
    assert made_hand(parse_cards("Ac 2d 3h 4s"), split_low=False, lowball=True) == (None, None)

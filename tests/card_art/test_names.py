"""Emoji names of the card art: one per card and back in each deck, valid for Discord,
ours alone, and read back to the same (deck, face)."""

from __future__ import annotations

import pytest

from dealerbot.card_art import BACK, Deck, all_emoji, emoji_name, emoji_names, face_of, is_ours
from dealerbot.card_art.emoji_limits import NAME_MAX, NAME_MIN, name_problem
from dealerbot.engine.cards import ALL_CARDS, Card


def test_every_card_and_the_back_has_one_emoji_in_each_deck() -> None:
    for deck in Deck:
        faces = [face for d, face in all_emoji() if d is deck]
        assert sorted(f for f in faces if f is not BACK) == list(ALL_CARDS)
        assert faces.count(BACK) == 1
        assert len(faces) == 53
    assert len(list(all_emoji())) == 106


def test_names_are_unique_and_discord_takes_them() -> None:
    names = emoji_names()
    assert len(names) == len(set(names)) == 106
    assert [n for n in names if name_problem(n) is not None] == []


@pytest.mark.parametrize(
    ("deck", "face", "name"),
    [
        (Deck.CLASSIC, Card.parse("As"), "sc_as"),
        (Deck.CLASSIC, Card.parse("Th"), "sc_10h"),
        (Deck.CLASSIC, Card.parse("2c"), "sc_2c"),
        (Deck.FOUR_COLOUR, Card.parse("Qd"), "s4_qd"),
        (Deck.FOUR_COLOUR, Card.parse("Jc"), "s4_jc"),
        (Deck.CLASSIC, BACK, "sc_back"),
        (Deck.FOUR_COLOUR, BACK, "s4_back"),
    ],
)
def test_a_name_spells_deck_rank_and_suit(deck: Deck, face: Card, name: str) -> None:
    assert emoji_name(deck, face) == name
    assert face_of(name) == (deck, face)


def test_every_name_reads_back_to_its_face() -> None:
    for deck, face in all_emoji():
        assert face_of(emoji_name(deck, face)) == (deck, face)


@pytest.mark.parametrize(
    "name", ["my_logo", "sc_ts", "sc_1h", "SC_AS", "sc_as_", "sc_", "sc_11h", "s2_as", "back"]
)
def test_an_operators_own_emoji_is_not_ours(name: str) -> None:
    assert not is_ours(name)
    assert face_of(name) is None


def test_discords_name_rule_at_its_limits() -> None:
    assert name_problem("a" * NAME_MIN) is None
    assert name_problem("a" * NAME_MAX) is None
    assert name_problem("a" * (NAME_MIN - 1)) is not None
    assert name_problem("a" * (NAME_MAX + 1)) is not None
    assert name_problem("Az09_") is None
    for bad in ("sc-as", "sc as", "sc_a♠", "ésc"):
        assert name_problem(bad) is not None, bad

"""The operator's full export (every down card) in a form a PokerStars tracker reads.

PokerStars writes one player's view: only the hero's ``Dealt to`` lines hold down cards, so a
file that gives every player down cards there makes the last of them the hero, turns the
others' down cards into up cards and doubles a river folder's hand (what FPDB did with our
old full files). The full form is the public, hero-less one with each hand's hidden down
cards revealed at the end of play, as ``shows`` lines marked as revealed by the export; a
player who mucked at the showdown has his cards in the summary (``mucked [...]``), as the
site writes them. Our reader reads it back as the full record; a tracker takes the complete
hands it can place and invents no card.
"""

from __future__ import annotations

import dataclasses
import re

import pytest

from dealerbot.history.from_engine import history_of
from dealerbot.history.model import UP_INDICES, Game, Hand, HoleCards, Move, Street, view_of
from dealerbot.history.pokerstars import REVEALED_NOTE, parse_hand
from dealerbot.history.pokerstars_writer import write_hand, write_hands

from .real_hands import real_hands
from .test_from_engine import random_hand
from .test_from_engine import read_back as read_back_played
from .test_pokerstars_writer import dealerbot_hand, read_back
from .tracker_reading import tracker_read

SEEDS = range(160)


def full_record(seed: int) -> Hand:
    hand = history_of(random_hand(seed).hand)
    assert all(hole.complete for hole in hand.hole_cards) and hand.hero is None
    return hand


@pytest.mark.parametrize("seed", SEEDS)
def test_a_full_export_reads_back_as_the_full_record(seed: int) -> None:
    hand = full_record(seed)
    assert read_back_played(write_hand(hand, full=True), hand) == hand


@pytest.mark.parametrize("seed", SEEDS)
def test_a_tracker_reads_a_full_export_with_no_hero_and_no_invented_card(seed: int) -> None:
    """A tracker finds no hero, every up card where it was dealt, and the whole hand of each
    player who held seven cards (shown, mucked or revealed); it keeps fewer cards than that
    (a player who folded earlier, or a community-card hand) as up cards only, never as more
    cards than were dealt."""
    hand = full_record(seed)
    text = write_hand(hand, full=True)
    seen = tracker_read(text)
    assert seen.hero is None
    for hole in hand.hole_cards:
        cards = seen.cards(hole.player)
        if len(hole.cards) == 7:
            assert cards == list(hole.cards), hole.player
        else:
            up = [card for index, card in enumerate(hole.cards) if index in UP_INDICES]
            assert cards == up, hole.player
    assert not re.search(r"^Dealt to .* \[\S\S \S\S \S\S\]$", text, re.MULTILINE)
    assert "*** RIVER ***\nDealt to" not in text


def test_the_sample_covers_every_way_a_hand_ends() -> None:
    """The random hands include folds on every street (the river too), showdowns, a
    community card and a winner nobody called. (The dealer shows every hand at a showdown;
    a hand mucked there is in the real hands below.)"""
    hands = [full_record(seed) for seed in SEEDS]
    folded_on = {a.street for h in hands for a in h.actions if a.move is Move.FOLD}
    assert folded_on == set(Street)
    texts = [write_hand(hand, full=True) for hand in hands]
    assert any(hand.community for hand in hands)
    assert any("*** SHOW DOWN ***" in text for text in texts)
    assert any("*** SHOW DOWN ***" not in text for text in texts)


def test_the_revealed_lines_are_the_sites_shows_lines() -> None:
    """bob folded on 4th street with nothing shown: his four cards come last in the play, as
    the site writes a player's shown cards, with the note that tells our reader (and a
    person) the table never saw them; the up cards are dealt as in the public view."""
    hand = dealerbot_hand(Game.STUD)
    holes = (hand.hole_cards[0], HoleCards("bob", ("3c", "4d", "2c", "9d")))
    audit = dataclasses.replace(hand, hole_cards=holes, hero=None)
    text = write_hand(audit, full=True)
    assert "Dealt to alice [Qs] [7c]\nDealt to bob [2c] [9d]\n" in text
    assert (
        "alice collected 44 from pot\n"
        f"alice: shows [Ah Kd Qs 7c] ({REVEALED_NOTE})\n"
        f"bob: shows [3c 4d 2c 9d] ({REVEALED_NOTE})\n*** SUMMARY ***\n"
    ) in text
    assert parse_hand(text) == audit
    assert write_hand(audit) == write_hand(view_of(audit, None))  # without full: public


def test_a_hero_keeps_his_dealt_lines_in_a_full_file() -> None:
    hand = dealerbot_hand(Game.STUD)
    holes = (hand.hole_cards[0], HoleCards("bob", ("3c", "4d", "2c", "9d")))
    audit = dataclasses.replace(hand, hole_cards=holes)  # alice is the hero
    text = write_hand(audit, full=True)
    assert "Dealt to alice [Ah Kd Qs] [7c]\nDealt to bob [2c] [9d]\n" in text
    assert f"bob: shows [3c 4d 2c 9d] ({REVEALED_NOTE})" in text and "alice: shows" not in text
    assert parse_hand(text) == audit


@pytest.mark.parametrize("hand_id", sorted(real_hands()))
def test_a_full_file_of_a_real_hand_reads_back_the_same(hand_id: int) -> None:
    """The real hands know only some down cards: full writes what is known, reveals nothing
    more, and reads back the same."""
    hand = real_hands()[hand_id]
    text = write_hand(hand, full=True)
    assert read_back(text, hand) == hand
    assert REVEALED_NOTE not in text
    seen = tracker_read(text)
    assert seen.hero == hand.hero
    for hole in hand.hole_cards:
        assert len(seen.cards(hole.player)) <= len(hole.cards)


def test_a_whole_full_file_reads_back() -> None:
    hands = [full_record(seed) for seed in range(12)]
    text = write_hands(hands, full=True)
    blocks = text.split("\n\n\n\n")
    pairs = zip(blocks, hands, strict=True)
    assert [read_back_played(block, hand) for block, hand in pairs] == hands

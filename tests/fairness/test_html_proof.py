"""The hand page's file, read in Python: what it holds, how it is escaped, how large it is.

The browser's side (the proofs checked, failures shown) is test_html_proof_browser.py.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest

from dealerbot.fairness.html_proof import HandPageError, hand_page, page_filename
from dealerbot.history.from_engine import history_of
from tests.history.test_from_engine import random_hand

from .hand_pages import (
    ALL_SHOWN_SEED,
    CARD_TEXT,
    DATA_BLOCK,
    SIDE_POTS_SEED,
    build,
    folded_seats,
    page_data,
)

QUOTED_CARD = re.compile(r'"([2-9TJQKA][cdhs])"')
SEEDS = range(40)  # stud, stud/8 and razz; 2 to 8 players; fold-outs, side pots, a community card
HOSTILE = {
    "p0": "</script><script>document.title='pwned'</script>",
    "p1": "<!-- <img src=x onerror=alert(1)> -->",
    "p4": "a\u2028b\u2029c & <b>bold</b>",
}


def strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for value in obj.values() for s in strings(value)]
    if isinstance(obj, list):
        return [s for value in obj for s in strings(value)]
    return []


def viewer_seats(seed: int) -> list[int | None]:
    return [None, *(s.seat for s in random_hand(seed).hand.seats)]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_viewers_page_holds_exactly_the_cards_he_saw(seed: int) -> None:
    for seat in viewer_seats(seed):
        page = build(seed, seat)
        data = page_data(page.html)
        opened = {card["card"] for card in data["proof"]["cards"]}
        assert opened == page.allowed, (seed, seat)  # every card he saw has its proof
        cards = {s for s in strings(data) if CARD_TEXT.fullmatch(s)}
        assert cards <= page.allowed, (seed, seat, cards - page.allowed)
        match = DATA_BLOCK.search(page.html)
        assert match is not None
        assert set(QUOTED_CARD.findall(match.group(2))) <= page.allowed  # however nested
        hidden = sum(card["card"] is None for s in data["hand"]["seats"] for card in s["cards"])
        assert hidden == len(page.secret), (seed, seat)


def test_the_page_numbers_seats_from_1_as_the_hand_file_does() -> None:
    viewer = folded_seats(build(SIDE_POTS_SEED, None).played)[0]
    page = build(SIDE_POTS_SEED, viewer)
    data = page_data(page.html)
    labels = [s.seat for s in page.played.hand.seats]
    assert [s["seat"] for s in data["hand"]["seats"]] == [label + 1 for label in labels]
    assert data["hand"]["hero"] == viewer + 1
    assert {c["seat"] for c in data["proof"]["cards"]} - {None} <= set(labels)  # the engine's


def test_a_hand_showing_a_card_without_a_proof_is_refused() -> None:
    page = build(SIDE_POTS_SEED, None)
    assert page.secret, "the hand must hide someone's down cards"
    full = history_of(page.played.hand)  # every down card: not what a spectator saw
    with pytest.raises(HandPageError, match="has no proof in the document"):
        hand_page(page.doc, full)


def test_a_proof_placing_a_card_elsewhere_is_refused() -> None:
    page = build(SIDE_POTS_SEED, 0)
    entries = list(page.doc.cards)
    first, second = entries[0], entries[1]
    assert first.seat != second.seat
    entries[0] = dataclasses.replace(first, seat=second.seat)
    with pytest.raises(HandPageError, match="is placed elsewhere by its proof"):
        hand_page(dataclasses.replace(page.doc, cards=tuple(entries)), page.view)


def test_hostile_names_cannot_leave_the_data_block() -> None:
    page = build(SIDE_POTS_SEED, 3, **HOSTILE)
    match = DATA_BLOCK.search(page.html)
    assert match is not None
    block = match.group(2)
    for char in "<>&\u2028\u2029":
        assert char not in block
    assert page.html.count("</script>") == 2 and page.html.count("<script") == 2
    assert "<!--" not in page.html
    data = page_data(page.html)
    players = {c["player"] for c in data["proof"]["cards"]}
    assert set(HOSTILE.values()) <= players  # the document's names, untouched
    names = {s["name"] for s in data["hand"]["seats"]}
    assert HOSTILE["p0"] in names and "a b c & <b>bold</b>" in names  # the hand file's names


def test_the_page_loads_nothing_from_anywhere() -> None:
    html = build(ALL_SHOWN_SEED, 2).html
    assert not re.search(r"https?:|//[a-z]|\bsrc=|\bhref=|@import|url\(", html, re.IGNORECASE)
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
    assert policy is not None and policy.group(1).startswith("default-src 'none';")


def test_an_eight_player_page_is_far_under_discords_upload_limit() -> None:
    page = build(ALL_SHOWN_SEED, 2)  # 8 players to 7th street, all shown: 49 cards proved
    assert len(page.view.seats) == 8 and len(page.doc.cards) == 49
    size = len(page.html.encode())
    assert size < 256 * 1024, size  # Discord takes 10 MiB
    assert page_filename(page.view) == f"hand-{page.view.hand_id}.html"

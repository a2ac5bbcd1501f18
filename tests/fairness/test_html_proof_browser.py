"""The hand page in a real headless browser (the system's Chromium, see browser.py).

A good file shows "All N proofs check"; a file with one card, one salt or one replayed card
changed shows the failure naming it; without Web Crypto the page's own SHA-256 checks the
same; a viewer's page shows no card he did not see; hostile names stay text.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest

from dealerbot.engine.cards import Card

from .browser import Node, chromium_or_skip, rendered
from .hand_pages import SIDE_POTS_SEED, Page, build, folded_seats, page_data, with_data

NO_WEB_CRYPTO = (
    'Object.defineProperty(globalThis.crypto, "subtle", {value: undefined, configurable: true});'
)


@pytest.fixture(scope="module")
def chromium() -> str:
    return chromium_or_skip()


@pytest.fixture(scope="module")
def page() -> Page:
    """Stud/8, 8 players, side pots; seen by the first player to fold (his down cards are
    his alone, three players' unshown down cards are nobody's)."""
    viewer = folded_seats(build(SIDE_POTS_SEED, None).played)[0]
    return build(SIDE_POTS_SEED, viewer)


def pretty(card: str) -> str:
    return Card.parse(card).pretty


def verdict(dom: Node) -> tuple[str, str]:
    box = dom.by_id("verdict")
    return box.attrs.get("data-state", "pending"), " ".join(box.text().split())


def marks(dom: Node) -> list[tuple[str, str]]:
    """(text, mark) of every shown card of the replay."""
    return [
        (n.text(), n.attrs["data-mark"])
        for n in dom.walk()
        if n.tag == "span" and "data-mark" in n.attrs
    ]


def test_a_good_file_shows_all_proofs_check(chromium: str, page: Page, tmp_path: Path) -> None:
    dom = rendered(chromium, page.html, tmp_path)
    state, text = verdict(dom)
    count = len(page.doc.cards)
    assert state == "ok", text
    assert f"All {count} proofs check against the commitment" in text
    assert "Web Crypto" in text
    shown = marks(dom)
    assert shown and all(mark == "proved" for _, mark in shown)
    known = {pretty(c) for hole in page.view.hole_cards for c in hole.known}
    assert {card for card, _ in shown} == known
    items = [n for n in dom.by_id("proofs").walk() if n.tag == "li"]
    assert len(items) == count and all(n.attrs["class"] == "ok" for n in items)
    body = " ".join(dom.by_id("replay").visible_text().split())
    assert page.viewer is not None
    seat = page.view.seat_of(page.viewer).number
    assert f"Seat {seat} {page.viewer} (you)" in body
    compare = dom.by_id("compare").text()
    number = page.doc.hand.number
    assert f"matches the commitment in your deal DM of hand #{number}" in compare
    assert dom.by_id("commitment").text() == page.doc.commitment


def test_a_viewers_page_shows_no_card_he_did_not_see(
    chromium: str, page: Page, tmp_path: Path
) -> None:
    assert page.secret
    dom = rendered(chromium, page.html, tmp_path)
    text = dom.visible_text()
    for card in page.secret:
        assert pretty(card) not in text, card
    everything = dom.text()  # the embedded data and the script included
    for card in page.secret:
        assert f'"{card}"' not in everything, card
    hidden = [n for n in dom.walk() if n.tag == "span" and "hidden" in n.attrs.get("class", "")]
    result = dom.by_id("result")
    in_result = [n for n in result.walk() if n.tag == "span" and "hidden" in n.attrs["class"]]
    assert len(in_result) == len(page.secret)  # each unseen card is a card back, once
    assert len(hidden) == 2 * len(page.secret)  # and once more on its street


def test_a_changed_card_shows_the_failure_naming_it(
    chromium: str, page: Page, tmp_path: Path
) -> None:
    data = page_data(page.html)
    entry = next(c for c in data["proof"]["cards"] if c["face"] == "down")
    dealt = {c["card"] for c in data["proof"]["cards"]}
    new = next(str(c) for c in map(Card, range(52)) if str(c) not in dealt)
    old, entry["card"] = entry["card"], new
    dom = rendered(chromium, with_data(page.html, data), tmp_path)
    state, text = verdict(dom)
    assert state == "failed", text
    count = len(page.doc.cards)
    assert f"Check FAILED ({count - 1} of {count} proofs check)" in text
    assert f"Proof FAILED for {pretty(new)} at position {entry['position']}" in text
    assert "it does not match the commitment" in text
    assert f"The replay shows {pretty(old)}" in text and "no proof opens it" in text
    assert (pretty(old), "unproved") in marks(dom)


def test_a_changed_salt_shows_the_failure(chromium: str, page: Page, tmp_path: Path) -> None:
    data = page_data(page.html)
    entry = data["proof"]["cards"][5]
    salt = entry["salt"]
    entry["salt"] = salt[:-1] + ("0" if salt[-1] != "0" else "1")
    dom = rendered(chromium, with_data(page.html, data), tmp_path)
    state, text = verdict(dom)
    assert state == "failed", text
    assert (
        f"Proof FAILED for {pretty(entry['card'])} at position {entry['position']}" in text
        and "it does not match the commitment" in text
    )
    assert (pretty(entry["card"]), "failed") in marks(dom)
    failed = [n for n in dom.by_id("proofs").walk() if n.tag == "li" and n.attrs["class"] == "fail"]
    assert [n.attrs["data-position"] for n in failed] == [str(entry["position"])]


def test_a_changed_card_in_the_replay_shows_the_failure(
    chromium: str, page: Page, tmp_path: Path
) -> None:
    data = page_data(page.html)
    seat = next(s for s in data["hand"]["seats"] if s["cards"][2]["card"] is not None)
    door = seat["cards"][2]
    other = next(c for c in data["proof"]["cards"] if c["card"] != door["card"])
    door["card"] = other["card"]  # a card the deck did deal, but to another place
    dom = rendered(chromium, with_data(page.html, data), tmp_path)
    state, text = verdict(dom)
    assert state == "failed", text
    assert f"The replay shows {pretty(other['card'])}" in text
    assert "but its proof puts it elsewhere" in text


def test_without_web_crypto_the_pages_own_sha256_checks_the_same(
    chromium: str, page: Page, tmp_path: Path
) -> None:
    digest = base64.b64encode(hashlib.sha256(NO_WEB_CRYPTO.encode()).digest()).decode()
    html = page.html.replace("script-src '", f"script-src 'sha256-{digest}' '", 1)
    html = html.replace("<body>", f"<body>\n<script>{NO_WEB_CRYPTO}</script>", 1)
    dom = rendered(chromium, html, tmp_path)
    state, text = verdict(dom)
    assert state == "ok", text
    assert f"All {len(page.doc.cards)} proofs check" in text
    assert "this page's own code" in text


def test_hostile_names_are_shown_as_text(chromium: str, tmp_path: Path) -> None:
    hostile = "</script><script>document.title='pwned'</script>"
    page = build(SIDE_POTS_SEED, 3, p0=hostile, p1="<img src=x onerror=alert(1)>")
    dom = rendered(chromium, page.html, tmp_path)
    state, text = verdict(dom)
    assert state == "ok", text
    assert hostile in dom.by_id("replay").text()
    tags = [n.tag for n in dom.walk()]
    assert tags.count("script") == 2 and "img" not in tags
    title = next(n for n in dom.walk() if n.tag == "title").text()
    assert title.startswith(f"Hand #{page.doc.hand.number} at ")

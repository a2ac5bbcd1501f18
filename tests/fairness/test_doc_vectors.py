"""docs/fairness.md's test vectors are what the code computes, so the page cannot drift.

The page is the repository's own statement of the scheme; its vectors block is read here and
every value in it (leaf data, commitment, each position's card, salt and path, the proof
that must fail) is checked against :mod:`dealerbot.fairness` on the vector deck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from dealerbot.engine.cards import Card
from dealerbot.fairness import DECK_SIZE, CardProof, leaf_data

from .helpers import vector_deck, vector_salt

PAGE = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


@dataclass(frozen=True)
class PageVector:
    position: int
    card: str
    salt: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class PageVectors:
    leaf_data: tuple[int, str]
    commitment: str
    vectors: tuple[PageVector, ...]
    must_fail: tuple[int, str]


def parse_vectors(text: str) -> PageVectors:
    """The ``text`` block under "## Test vectors" of a fairness page."""
    section = text[text.index("## Test vectors") :]
    block = re.search(r"```text\n(.*?)```", section, re.DOTALL)
    assert block is not None, "the test vectors are in a text block"
    lines = block.group(1).splitlines()
    leaf = re.fullmatch(r"leaf data of position (\d+): (.+)", lines[0])
    commitment = re.fullmatch(r"commitment: ([0-9a-f]{64})", lines[1])
    fail = re.fullmatch(r"must fail: position (\d+) with card (\w\w)", lines[-1])
    assert leaf and commitment and fail, "leaf data, commitment and must-fail lines"
    vectors = []
    for chunk in re.split(r"\n\s*\n", "\n".join(lines[2:-1]).strip()):
        entry = re.fullmatch(
            r"position: (\d+)\ncard: (\w\w)\nsalt: ([0-9a-f]{32})\npath:\n((?:  [0-9a-f]{64}\n?)+)",
            chunk,
        )
        assert entry is not None, f"a vector reads position, card, salt, path: {chunk!r}"
        path = tuple(entry[4].split())
        vectors.append(PageVector(int(entry[1]), entry[2], entry[3], path))
    return PageVectors(
        (int(leaf[1]), leaf[2]),
        commitment[1],
        tuple(vectors),
        (int(fail[1]), fail[2]),
    )


@pytest.fixture(scope="module")
def page() -> PageVectors:
    return parse_vectors(PAGE.read_text(encoding="utf-8"))


def test_the_page_gives_vectors_at_both_ends_of_the_unbalanced_tree(page: PageVectors) -> None:
    positions = [v.position for v in page.vectors]
    assert len(positions) == len(set(positions)) >= 3
    assert {0, DECK_SIZE - 1} <= set(positions)


def test_the_leaf_data_shown_is_the_codes(page: PageVectors) -> None:
    position, text = page.leaf_data
    deck = vector_deck()
    assert leaf_data(position, deck.cards[position], vector_salt(position)).decode() == text


def test_the_commitment_shown_is_the_codes(page: PageVectors) -> None:
    assert vector_deck().commitment() == page.commitment


def test_every_vector_is_the_proof_the_code_builds(page: PageVectors) -> None:
    deck = vector_deck()
    for vector in page.vectors:
        proof = deck.proof(vector.position)
        assert str(proof.card) == vector.card, f"position {vector.position}"
        assert proof.salt.hex() == vector.salt, f"position {vector.position}"
        assert tuple(h.hex() for h in proof.path) == vector.path, f"position {vector.position}"
        assert proof.verifies(page.commitment)


def test_the_proof_the_page_says_must_fail_fails(page: PageVectors) -> None:
    position, card = page.must_fail
    shown = next(v for v in page.vectors if v.position == position)
    assert card != shown.card
    proof = CardProof(
        position,
        Card.parse(card),
        bytes.fromhex(shown.salt),
        tuple(bytes.fromhex(h) for h in shown.path),
    )
    assert not proof.verifies(page.commitment)


def test_a_changed_vector_on_the_page_is_caught() -> None:
    text = PAGE.read_text(encoding="utf-8")
    last = parse_vectors(text).vectors[-1].path[-1]
    other = last[:-1] + ("0" if last[-1] != "0" else "1")
    changed = parse_vectors(text.replace(f"  {last}", f"  {other}"))
    deck = vector_deck()
    assert any(
        tuple(h.hex() for h in deck.proof(v.position).path) != v.path for v in changed.vectors
    )

"""The by-hand check printed in the README is the one the tests run (test_by_hand.py), and
it accepts our documents and refuses a tampered card. The README is part of the repository,
so reading it here is reading the product's own text."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealerbot.fairness import document_for_viewer

from .helpers import HAND, PLAYERS, sample_record, vector_deck
from .test_by_hand import BY_HAND

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Proofs of a fair deal"


def readme_snippet() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index(SECTION) :]
    match = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert match is not None, "the proofs section shows a Python block"
    return match.group(1)


def readme_checker() -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    """``card_checks`` defined from the README's own lines (not the file-reading tail)."""
    code = readme_snippet().split("\ndoc = ")[0]
    namespace: dict[str, Any] = {}
    exec(code, namespace)
    return namespace["card_checks"]  # type: ignore[no-any-return]


def code_lines(text: str) -> list[str]:
    """The lines that hold code (a formatter may add blank lines between definitions)."""
    return [line for line in text.splitlines() if line.strip()]


def test_the_readme_shows_the_tested_check() -> None:
    shown, tested = code_lines(readme_snippet()), code_lines(BY_HAND)
    assert any(shown[i : i + len(tested)] == tested for i in range(len(shown)))
    assert len(tested) <= 20  # "a few lines"


def test_the_readme_check_accepts_our_documents_and_refuses_a_changed_card() -> None:
    card_checks = readme_checker()
    doc = json.loads(
        document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, 5).to_json()
    )
    assert doc["cards"] and all(card_checks(doc, c) for c in doc["cards"])
    changed = dict(doc["cards"][0], card="Kh" if doc["cards"][0]["card"] != "Kh" else "Qh")
    assert not card_checks(doc, changed)

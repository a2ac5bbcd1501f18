"""The pre-commit hooks run what CI runs: the same lint commands, with the pinned tools."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _ci_steps() -> list[str]:
    text = (REPO / ".ci" / "run").read_text()
    commands = re.findall(r'^step "[^"]+" (.+)$', text, flags=re.MULTILINE)
    return [c for c in commands if c.split()[0] in ("ruff", "mypy")]  # the lint steps


def _hook_entries() -> list[str]:
    text = (REPO / ".pre-commit-config.yaml").read_text()
    return re.findall(r"^\s+entry: (.+)$", text, flags=re.MULTILINE)


def test_the_hooks_run_every_lint_step_of_ci() -> None:
    steps = _ci_steps()
    assert steps, "no lint steps found in .ci/run"
    assert sorted(_hook_entries()) == sorted(steps)


def test_the_lint_tools_are_pinned_for_ci_and_the_hooks_alike() -> None:
    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]["test"]
    for tool in ("ruff", "mypy"):
        [spec] = [s for s in extras if re.match(rf"{tool}\b", s)]
        assert re.fullmatch(rf"{tool}==\d+(\.\d+)+", spec), spec

"""``python -m dealerbot.verify FILE`` / ``main(argv)`` on good and bad documents."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dealerbot.fairness import document_for_viewer
from dealerbot.verify import main

from .helpers import HAND, PLAYERS, sample_record, vector_deck

ROOT = Path(__file__).resolve().parents[2]


def good_obj() -> dict[str, Any]:
    doc = document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, 2)
    return json.loads(doc.to_json())


def write(tmp_path: Path, obj: Any, name: str = "proof.json") -> str:
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return str(path)


def test_good_document_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    obj = good_obj()
    assert main([write(tmp_path, obj)]) == 0
    out = capsys.readouterr().out
    assert f"OK: all {len(obj['cards'])} cards match the commitment" in out
    assert "FAIL" not in out


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("card", "Ah"),
        ("salt", "00" * 16),
        ("position", 50),
        ("path", ["00" * 32] * 6),
    ],
)
def test_tampered_card_exits_1_naming_the_first_bad_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, value: Any
) -> None:
    obj = good_obj()
    for index in (4, 6):  # two bad cards: the first is the one named
        obj["cards"][index][field] = value if field != "position" else value - 6 + index
    bad = obj["cards"][4]
    assert main([write(tmp_path, obj)]) == 1
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    assert last.startswith(f"FAILED: {bad['card']} at position {bad['position']} ")
    assert out.count("FAIL ") == 2


def test_a_document_with_no_card_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    obj = good_obj()
    obj["cards"] = []
    assert main([write(tmp_path, obj)]) == 1
    assert "proves nothing" in capsys.readouterr().out


@pytest.mark.parametrize(
    "content",
    ["{not json", "[]", json.dumps({"scheme": "sha256-deck"}), json.dumps({"hello": 1})],
)
def test_not_a_proof_document_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    assert main([write(tmp_path, content)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert "is not a proof document" in captured.err


def test_missing_file_and_bad_usage_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main([]) == 2


def run_module(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dealerbot.verify", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_python_dash_m_on_good_and_bad_files(tmp_path: Path) -> None:
    obj = good_obj()
    good = run_module(write(tmp_path, obj))
    assert good.returncode == 0, good.stderr
    obj["cards"][1]["salt"] = "11" * 16
    bad = run_module(write(tmp_path, obj, "bad.json"))
    assert bad.returncode == 1
    assert f"position {obj['cards'][1]['position']}" in bad.stdout.splitlines()[-1]
    from_stdin = run_module("-", stdin=json.dumps(good_obj()))
    assert from_stdin.returncode == 0, from_stdin.stderr
    garbage = run_module("-", stdin="not json")
    assert garbage.returncode == 2 and garbage.stderr.count("\n") == 1


def test_cards_out_of_dealing_order_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    obj = good_obj()
    river = next(c for c in obj["cards"] if c["street"] == 7)
    river["street"] = 4
    assert main([write(tmp_path, obj)]) == 1
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith(f"FAILED: {river['card']} at position {river['position']} ")
    assert "earlier street" in last

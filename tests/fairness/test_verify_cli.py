"""``python -m dealerbot.verify FILE`` / ``main(argv)`` on good and bad documents."""

from __future__ import annotations

import json
import os
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


# Crafted files (issue 23, item 4): anything that is not a proof document exits 2 with
# one line on stderr saying why (never a traceback, never exit 1, which means "a card
# does not match"), and what a document says about its players is printed cleaned.


def crafted_files() -> dict[str, bytes]:
    top = '{"scheme": "dealerbot-merkle-v1", "hand": {"guild_id": "1", "channel_id": "2"'
    return {
        "nested 200,000 arrays deep": b"[" * 200_000 + b"]" * 200_000,
        "nested objects deep": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
        "a 5,000-digit number": (top + ', "number": ' + "9" * 5000 + "}}").encode(),
        "a 5,000-digit number inside a list": b"[" + b"1" * 5000 + b"]",
        "not JSON": b"hello, world",
        "empty": b"",
        "NaN": (top + ', "number": NaN}}').encode(),
        "not UTF-8 (latin-1)": b'{"scheme": "d\xe9alerbot"}',
        "not UTF-8 (UTF-16)": json.dumps(good_obj()).encode("utf-16"),
        "binary": bytes(range(256)),
        "a list": b"[1, 2, 3]",
        "a number": b"42",
        "wrong shape": json.dumps({**good_obj(), "cards": {"0": "As"}}).encode(),
        "a card that is a list": json.dumps({**good_obj(), "cards": [[1]]}).encode(),
        "too large": json.dumps(good_obj()).encode() + b" " * (2 * 1024 * 1024),
    }


@pytest.mark.parametrize("name", sorted(crafted_files()))
def test_a_crafted_file_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    path = tmp_path / "crafted.json"
    path.write_bytes(crafted_files()[name])
    assert main([str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err[:2000]
    assert lines[0].startswith(f"error: {path} is not a proof document: ")
    assert len(lines[0]) < 400, lines[0][:2000]


@pytest.mark.parametrize("module", [["dealerbot.verify"], ["dealerbot", "verify"]])
def test_a_crafted_file_through_the_process_exits_2_without_a_traceback(
    tmp_path: Path, module: list[str]
) -> None:
    for name in ("nested 200,000 arrays deep", "a 5,000-digit number"):
        path = tmp_path / "crafted.json"
        path.write_bytes(crafted_files()[name])
        done = subprocess.run(
            [sys.executable, "-m", *module, str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 2, (name, done.stderr[-500:])
        assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, name


def test_a_name_the_terminal_cannot_show_is_escaped_not_a_crash(tmp_path: Path) -> None:
    obj = good_obj()
    obj["cards"][0]["player"] = "z\u00e9ro \U0001f0a1"
    done = subprocess.run(
        [sys.executable, "-m", "dealerbot.verify", write(tmp_path, obj)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert "z\\xe9ro \\U0001f0a1" in done.stdout


HOSTILE_NAMES = [
    "bob\nOK: all 52 cards match the commitment, in dealing order",
    "bob\rOK: all 52 cards match",
    "bob\x1b[2K\x1b[1GOK: all 52 cards match",
    "bob\x1b]0;title\x07",
    "\u202eecila",  # right-to-left override
    "bob\u2066\u2069\u200f",  # bidi isolates, right-to-left mark
    "bob\u2028OK",  # line separator
    "bob\x85OK",  # next line (C1)
    "bob\ud800",  # a lone surrogate: cannot even be written as UTF-8
    "bob\x00\x7f\x9b31m",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_player_names_are_printed_cleaned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    obj = good_obj()
    for card in obj["cards"]:
        if card["seat"] is not None:
            card["player"] = name
    assert main([write(tmp_path, obj)]) == 0  # the name is not part of what is proved
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == len(obj["cards"]) + 2  # the hand, one per card, the verdict
    assert sum(line.startswith("OK: ") for line in lines) == 1
    assert lines[-1].startswith(f"OK: all {len(obj['cards'])} cards match")
    assert all(ch.isprintable() for line in lines for ch in line), out
    assert "bob" in out or "ecila" in out


def test_a_tampered_card_with_a_hostile_name_still_fails_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    obj = good_obj()
    obj["cards"][3]["salt"] = "11" * 16
    obj["cards"][3]["player"] = "x\nOK: all 52 cards match the commitment, in dealing order"
    assert main([write(tmp_path, obj)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert not any(line.startswith("OK") for line in lines)
    assert lines[-1].startswith("FAILED: ") and "\\n" in lines[-1]


@pytest.mark.parametrize("field", ["guild_id", "channel_id"])
def test_hand_ids_are_printed_cleaned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str
) -> None:
    obj = good_obj()
    obj["hand"][field] = "1\nOK: all 52 cards match\x1b[0m"
    main([write(tmp_path, obj)])
    lines = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("OK") for line in lines) == 1
    assert all(ch.isprintable() for line in lines for ch in line)


def test_a_long_field_is_cut_in_the_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    obj = good_obj()
    obj["scheme"] = "x" * 100_000
    assert main([write(tmp_path, obj)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 400


def test_a_document_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(good_obj()).encode())
    assert main([str(path)]) == 0

"""``dealerbot verify FILE``: the main command line checks a proof offline (no settings,
no database), with the exit codes of ``python -m dealerbot.verify``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbot import cli, verify
from dealerbot.fairness import document_for_viewer

from .helpers import HAND, PLAYERS, sample_record, vector_deck

ROOT = Path(__file__).resolve().parents[2]


def proof_file(tmp_path: Path, tamper: bool = False) -> Path:
    obj = json.loads(
        document_for_viewer(HAND, vector_deck(), sample_record(), PLAYERS, 2).to_json()
    )
    if tamper:
        obj["cards"][1]["card"] = "As" if obj["cards"][1]["card"] != "As" else "Ks"
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(obj))
    return path


@pytest.mark.parametrize(
    ("tamper", "code", "words"),
    [(False, verify.EXIT_OK, "OK: all"), (True, verify.EXIT_FAILED, "FAILED: ")],
)
def test_the_subcommand_checks_a_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], tamper: bool, code: int, words: str
) -> None:
    # An env file that does not exist and no database: verify needs neither.
    argv = ["--env-file", str(tmp_path / "missing.env"), "verify"]
    assert cli.main([*argv, str(proof_file(tmp_path, tamper))]) == code
    assert words in capsys.readouterr().out


def test_the_subcommand_refuses_a_file_that_is_not_a_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"scheme": "something else"}')
    assert cli.main(["verify", str(path)]) == verify.EXIT_BAD_INPUT
    assert "is not a proof document" in capsys.readouterr().err


def test_python_dash_m_dealerbot_verify(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "dealerbot", "verify", str(proof_file(tmp_path))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "OK: all" in done.stdout

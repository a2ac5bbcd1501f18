"""``dealerbot export-hands`` and ``dealerbot db prune`` on a database the service played on."""

from __future__ import annotations

import asyncio
import stat
import tomllib
from pathlib import Path

import pytest

from dealerbot import cli
from dealerbot.history.pokerstars import iter_hands
from dealerbot.tables import events as ev

from .helpers import GUILD, Harness, make_harness, snapshot
from .test_records import play_random_hands


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


async def played(tmp_path: Path) -> tuple[Path, list[ev.HandEnded], dict[str, list[tuple]]]:
    h: Harness = await make_harness(tmp_path)
    try:
        ended = await play_random_hands(h, 6, seed=9)
        return h.path, ended, await snapshot(h)
    finally:
        await h.close()


async def rows(tmp_path: Path, audit: bool = False) -> dict[str, list[tuple]]:
    """The chip and game rows (after an audit that must pass, if asked)."""
    h = await make_harness(tmp_path)
    try:
        if audit:
            await h.audit_ok()
        return await snapshot(h)
    finally:
        await h.close()


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = cli.main(args)
    return code, capsys.readouterr().out


def test_export_hands_writes_the_public_view_or_every_card(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ended, _ = asyncio.run(played(clean_env))
    base = ["--database", str(path), "export-hands", "--guild", str(GUILD)]
    code, out = run([*base, "--out", "public"], capsys)
    assert code == 0 and f"wrote {len(ended)} hands" in out
    hands = [h for f in sorted((clean_env / "public").iterdir()) for h in iter_hands(f.read_text())]
    assert [h.hand_id for h in hands] == [e.hand_id for e in ended]
    assert all(h.hero is None for h in hands)
    assert not all(all(hole.complete for hole in h.hole_cards) for h in hands)

    code, out = run([*base, "--out", "full", "--full"], capsys)
    assert code == 0 and "every down card" in out
    [file] = (clean_env / "full").iterdir()
    assert file.name.endswith("-full.txt")
    fully = list(iter_hands(file.read_text()))
    assert all(all(hole.complete for hole in h.hole_cards) for h in fully)
    assert all(h.hero is None for h in fully)  # a tracker reads it: nobody is the hero

    code, _ = run([*base, "--out", "phh", "--format", "phh"], capsys)
    [file] = (clean_env / "phh").iterdir()
    document = tomllib.loads(file.read_text())
    assert code == 0 and [document[str(i)]["hand"] for i in range(1, len(ended) + 1)] == [
        e.hand_id for e in ended
    ]

    code, out = run([*base, "--out", "later", "--since", "2030-01-01"], capsys)
    assert code == 0 and "wrote 0 hands in 0 files" in out
    code, out = run(["--database", str(path), "export-hands", "--guild", "5"], capsys)
    assert code == 0 and "wrote 0 hands" in out


def test_bad_operator_input_is_refused(clean_env: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, _, before = asyncio.run(played(clean_env))
    for args in (
        ["db", "prune", "--older-than", "0"],
        ["db", "prune", "--older-than", "soon"],
        ["export-hands", "--guild", str(GUILD), "--since", "yesterday"],
        ["export-hands", "--guild", str(GUILD), "--format", "xml"],
        ["export-hands"],
    ):
        with pytest.raises(SystemExit) as stop:
            cli.main(["--database", str(path), *args])
        assert stop.value.code == 2
    code, out = run(["--database", "nothing.sqlite3", "db", "prune", "--older-than", "3"], capsys)
    assert code == 1 and "no database here" in out
    code, out = run(["--database", "nothing.sqlite3", "export-hands", "--guild", "1"], capsys)
    assert code == 1 and "no database here" in out
    assert asyncio.run(rows(clean_env)) == before


def test_db_prune_keeps_results_ledger_and_audit(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, ended, before = asyncio.run(played(clean_env))
    code, out = run(["--database", str(path), "db", "prune", "--older-than", "30"], capsys)
    assert code == 0, out
    assert out.startswith(f"pruned {len(ended)} hands")
    assert "audit: ok" in out
    after = asyncio.run(rows(clean_env, audit=True))
    assert after["ledger"] == before["ledger"] and after["hands"] == before["hands"]
    assert after["actions"] == []
    code, out = run(["--database", str(path), "db", "prune", "--older-than", "30"], capsys)
    assert code == 0 and out.startswith("pruned 0 hands")


def export_args(path: Path, *more: str) -> list[str]:
    return ["--database", str(path), "export-hands", "--guild", str(GUILD), *more]


@pytest.mark.parametrize("full", [True, False])
def test_exported_files_are_the_owners_only(
    clean_env: Path, capsys: pytest.CaptureFixture[str], full: bool
) -> None:
    """--full holds every down card: 0600 files in a 0700 folder, like the database (the
    public view too: one way to write an export)."""
    path, _, _ = asyncio.run(played(clean_env))
    out = clean_env / "new" / "exports"
    code, _ = run(export_args(path, "--out", str(out), *(["--full"] if full else [])), capsys)
    assert code == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    written = list(out.iterdir())
    assert written and all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in written)

    # Exporting again over files others could read leaves them the owner's only.
    for file in written:
        file.chmod(0o644)
    code, _ = run(export_args(path, "--out", str(out), *(["--full"] if full else [])), capsys)
    assert code == 0
    assert all(stat.S_IMODE(f.stat().st_mode) == 0o600 for f in out.iterdir())


def test_an_out_that_cannot_take_files_is_one_line_and_exit_2(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _, _ = asyncio.run(played(clean_env))
    code, _ = run(export_args(path, "--out", "probe", "--full"), capsys)
    assert code == 0
    names = sorted(f.name for f in (clean_env / "probe").iterdir())
    a_file = clean_env / "notes.txt"
    a_file.write_text("keep me")
    taken = clean_env / "taken"
    for name in names:  # a folder where each export file would go
        (taken / name).mkdir(parents=True)
    for out, words in (
        (a_file, "is a file, not a folder"),
        (a_file / "sub", "Not a directory"),
        (taken, "Is a directory"),
    ):
        code = cli.main(export_args(path, "--out", str(out), "--full"))
        captured = capsys.readouterr()
        assert code == 2, (out, captured)
        assert captured.out == ""
        [line] = captured.err.splitlines()
        assert line.startswith("export-hands: ") and str(out) in line and words in line, line
    assert a_file.read_text() == "keep me"

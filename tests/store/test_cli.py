"""The command line in-process: `run` imports the bot lazily; maintenance commands do not."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

from dealerbot import cli
from dealerbot.settings import Settings


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "LOG_LEVEL", "DEV_GUILD_ID"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fake_bot(monkeypatch: pytest.MonkeyPatch, *, coroutine: bool) -> list[Settings]:
    calls: list[Settings] = []
    module = types.ModuleType("dealerbot.runner")

    if coroutine:

        async def run_bot(settings: Settings) -> None:
            calls.append(settings)

    else:

        def run_bot(settings: Settings) -> None:  # type: ignore[misc]
            calls.append(settings)

    module.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "dealerbot.runner", module)
    return calls


@pytest.mark.parametrize("coroutine", [False, True])
@pytest.mark.parametrize("argv", [[], ["run"]])
def test_run_hands_settings_to_the_bot(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], coroutine: bool
) -> None:
    calls = fake_bot(monkeypatch, coroutine=coroutine)
    monkeypatch.setenv("DISCORD_TOKEN", "t0ken")
    assert cli.main(["--database", "x.sqlite3", *argv]) == 0
    assert [(c.discord_token, c.database_path) for c in calls] == [("t0ken", Path("x.sqlite3"))]


def test_run_without_a_token_exits_2(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    calls = fake_bot(monkeypatch, coroutine=False)
    assert cli.main(["run"]) == 2
    assert calls == []
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_db_upgrade_then_check(
    clean_env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Maintenance commands must work without the bot package: make importing it fail.
    monkeypatch.setitem(sys.modules, "dealerbot.runner", None)
    monkeypatch.setitem(sys.modules, "dealerbot.bot", None)
    assert cli.main(["db", "upgrade"]) == 0
    assert "applied 0001_init.sql" in capsys.readouterr().out
    assert (clean_env / "dealerbot.sqlite3").is_file()
    assert cli.main(["db", "upgrade"]) == 0
    assert "already up to date" in capsys.readouterr().out
    assert cli.main(["db", "check"]) == 0
    assert cli.main(["audit"]) == 0


@pytest.mark.parametrize("days", ["100000000", "99999999999999999999", "36501"])
def test_db_prune_refuses_a_day_count_past_its_range_before_pruning(
    clean_env: Path, capsys: pytest.CaptureFixture[str], days: str
) -> None:
    """Issue 23 item 5: these used to prune, then crash printing the cutoff date (year
    -271764 out of range, OverflowError), so the report was lost."""
    assert cli.main(["db", "upgrade"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        cli.main(["db", "prune", "--older-than", days])
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [error] = [line for line in captured.err.splitlines() if not line.startswith("usage:")]
    assert "from 1 to 36500" in error and "Traceback" not in captured.err


def test_db_prune_at_the_top_of_its_range_reports(
    clean_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["db", "upgrade"]) == 0
    capsys.readouterr()
    assert cli.main(["db", "prune", "--older-than", "36500"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pruned 0 hands that ended before 19") and "audit: ok" in out

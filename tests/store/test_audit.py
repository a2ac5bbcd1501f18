"""The audit: passes after real activity, catches tampering, and its CLI exit code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dealerbot.store import hands, seats, tables, wallets
from dealerbot.store.audit import audit
from dealerbot.store.db import Database

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, sit
from .hand_helpers import begin_hand

REPO = Path(__file__).resolve().parents[2]


async def busy_guild(db: Database) -> int:
    """Wallets, a daily, admin changes, buy-ins, a settled and a cancelled hand, a cash-out."""
    table = await tables.open_table(db, GUILD, CHANNEL)
    await wallets.claim_daily(db, GUILD, ALICE)
    await wallets.get_wallet(db, GUILD, BOB)
    await wallets.admin_give(db, GUILD, BOB, 300)
    await wallets.admin_take(db, GUILD, BOB, 50)
    for user in (ALICE, BOB, CAROL):
        await sit(db, table.id, user, str(user), 300)
    hand = await begin_hand(db, table.id)
    await hands.settle_hand(db, hand.id, {ALICE: 40, BOB: -25, CAROL: -15}, {})
    hand = await begin_hand(db, table.id, seed=9)
    await hands.cancel_hand(db, hand.id, reason="test", committed={ALICE: 1})
    await seats.stand_up(db, table.id, CAROL)
    await begin_hand(db, table.id, seed=10)  # left in progress, as after a crash
    await wallets.get_wallet(db, GUILD + 1, ALICE)  # a second guild
    return table.id


async def test_audit_passes_on_a_busy_database(db: Database) -> None:
    await busy_guild(db)
    report = await audit(db)
    assert report.ok, report.render()
    text = report.render()
    assert f"guild {GUILD}: wallets + tables == granted" in text
    assert "1 finished hands of 3" in text
    assert text.endswith("audit passed: 18 checks")  # 9 per guild


@pytest.mark.parametrize(
    ("sql", "failing"),
    [
        (
            "UPDATE wallets SET chips = chips + 5, net_worth = net_worth + 5 WHERE user_id = ?",
            "wallets match the ledger",
        ),
        ("UPDATE seats SET stack = stack - 1 WHERE user_id = ?", "seat stacks match the ledger"),
        (
            "UPDATE wallets SET table_chips = table_chips + 1, net_worth = net_worth + 1"
            " WHERE user_id = ?",
            "table chips",
        ),
    ],
)
async def test_audit_detects_tampering(db: Database, sql: str, failing: str) -> None:
    await busy_guild(db)
    async with db.transaction() as conn:
        await conn.execute(sql, (ALICE,))
    report = await audit(db)
    assert not report.ok
    names = {c.name for c in report.failures}
    assert any(failing in n for n in names), report.render()
    assert str(ALICE) in report.render()


async def test_audit_detects_an_unbalanced_hand(db: Database) -> None:
    table_id = await busy_guild(db)
    async with db.transaction() as conn:
        # Bypass the store: a hand result with no counterpart, and a matching seat change
        # (so only the hand-sum and guild-total checks can notice).
        await conn.execute("UPDATE seats SET stack = stack + 3 WHERE user_id = ?", (ALICE,))
        await conn.execute(
            "INSERT INTO ledger (guild_id, user_id, account, table_id, delta, reason, hand_id,"
            " created_at) VALUES (?, ?, 'table', ?, 3, 'hand_result', 1, 0)",
            (GUILD, ALICE, table_id),
        )
    report = await audit(db)
    names = {c.name for c in report.failures}
    assert names == {
        "hand results sum to zero",
        "wallets + tables == granted",
        "internal movements net to zero",
    }, report.render()


def run_cli(target: Path | str, *args: str) -> subprocess.CompletedProcess[str]:
    """The command line with DATABASE_PATH (a file) or DATABASE_URL (a URL) set."""
    setting = "DATABASE_PATH" if isinstance(target, Path) else "DATABASE_URL"
    env = {**os.environ, setting: str(target), "PYTHONPATH": str(REPO)}
    env.pop("LOG_LEVEL", None)
    env.pop("DATABASE_URL" if setting == "DATABASE_PATH" else "DATABASE_PATH", None)
    return subprocess.run(
        [sys.executable, "-m", "dealerbot", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


async def set_version(db: Database, version: int) -> None:
    async with db.transaction() as conn:
        if db.backend == "sqlite":
            await conn.execute(f"PRAGMA user_version = {version}")
        else:
            await conn.execute("UPDATE schema_version SET version = ?", (version,))


async def test_cli_audit_exit_codes(db_url: str, db: Database) -> None:
    await busy_guild(db)
    ok = run_cli(db_url, "audit")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "audit passed" in ok.stdout
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE wallets SET chips = chips + 5, net_worth = net_worth + 5 WHERE user_id = ?",
            (BOB,),
        )
    bad = run_cli(db_url, "audit")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "[FAIL]" in bad.stdout and "audit FAILED" in bad.stdout


async def test_cli_db_check(db_url: str, db: Database) -> None:
    await busy_guild(db)
    ok = run_cli(db_url, "db", "check")
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "pending migrations: none" in ok.stdout
    if db.backend == "sqlite":
        assert "integrity_check: ok" in ok.stdout
    await set_version(db, 0)
    stale = run_cli(db_url, "db", "check")
    assert stale.returncode == 1
    assert "0001_init.sql" in stale.stdout
    await set_version(db, 999)
    newer = run_cli(db_url, "db", "check")
    assert newer.returncode == 1
    assert "newer release" in newer.stderr


def test_cli_check_missing_database(tmp_path: Path) -> None:
    missing = run_cli(tmp_path / "nothing.sqlite3", "db", "check")
    assert missing.returncode == 1
    assert not (tmp_path / "nothing.sqlite3").exists()

"""A real crash test: worker processes running busy tables are killed with SIGKILL at random
moments; after each kill the audit holds and every interrupted hand is continued by the
next worker or cancelled and refunded. Sometimes the test also corrupts an interrupted
hand's log while the process is down, and then it must be refunded.

Kills: 50 x SOAK_SCALE (default 1). The workers are forked from one pre-imported child
(tests/tables/crash_child.py), so a kill cycle costs a fraction of a second.
"""

from __future__ import annotations

import asyncio
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealerbot.store import audit as audit_db
from dealerbot.store.opening import open_database

REPO = Path(__file__).resolve().parents[2]
KILLS = max(1, round(50 * float(os.environ.get("SOAK_SCALE", "1"))))
READ_TIMEOUT = 60.0

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork (POSIX)")


class Zygote:
    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.tables.crash_child", str(db)],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self._buffer = b""
        self.bugs: list[str] = []
        assert self.read_until("ZYGOTE")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def read_line(self) -> str:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + READ_TIMEOUT
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise AssertionError("the crash child stopped talking")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError("the crash child exited")
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        text = line.decode()
        if text.startswith("BUG"):
            self.bugs.append(text)
        return text

    def read_until(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.read_line()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self) -> None:
        try:
            self.send("QUIT")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
            self.proc.wait()


def _in_progress(db: Path) -> dict[int, int]:
    """Hands in progress and how many actions each has logged."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT h.id, (SELECT COUNT(*) FROM hand_actions a WHERE a.hand_id = h.id)"
            " FROM hands h WHERE h.status = 'in_progress'"
        ).fetchall()
    return dict(rows)


def _corrupt(db: Path, hand_id: int, actions: int) -> None:
    with sqlite3.connect(db) as conn:
        if actions:
            conn.execute(
                "UPDATE hand_actions SET action = 'shove' WHERE hand_id = ? AND seq = ?",
                (hand_id, actions - 1),
            )
        else:
            conn.execute(
                "UPDATE hands SET deck = substr(deck, 3, 2) || substr(deck, 1, 2)"
                " || substr(deck, 5) WHERE id = ?",
                (hand_id,),
            )


def _refund_rows(db: Path, hand_id: int) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT COUNT(*) FROM ledger WHERE hand_id = ? AND reason = 'refund'", (hand_id,)
        ).fetchone()[0]


async def _audit(db: Path) -> tuple[bool, str]:
    database = await open_database(db)
    try:
        report = await audit_db.audit(database)
        return report.ok, report.render()
    finally:
        await database.close()


def test_sigkill_at_random_moments_loses_no_chip(tmp_path):
    db = tmp_path / "crash.sqlite3"
    rng = random.Random(int(os.environ.get("CRASH_SEED", "20261129")))
    zygote = Zygote(db)
    resumed = cancelled = corrupted = hands_seen = 0
    try:
        expected: dict[int, str] = {}  # interrupted hand -> "resume" or "refund"
        for kill in range(KILLS + 1):
            zygote.send(f"RUN {rng.randrange(1 << 30)}")
            lines = zygote.read_until("READY")
            pid = int(next(line for line in lines if line.startswith("PID")).split()[1])
            recovered = {
                int(words[1]): words[2]
                for words in (line.split() for line in lines)
                if words[0] == "RECOVERED"
            }
            for hand_id, want in expected.items():
                got = recovered.get(hand_id)
                assert got is not None, f"hand {hand_id} was not recovered: {lines}"
                if want == "refund":
                    assert got == "cancelled", (hand_id, got)
                    assert _refund_rows(db, hand_id) > 0
                    cancelled += 1
                else:
                    assert got in ("resumed", "finished"), (hand_id, got)
                    resumed += 1
            if kill == KILLS:  # the last worker only had to recover
                os.kill(pid, signal.SIGKILL)
                zygote.read_until("EXIT")
                break
            time.sleep(rng.uniform(0.01, 0.3))
            os.kill(pid, signal.SIGKILL)
            exit_line = zygote.read_until("EXIT")[-1]
            assert exit_line.split()[2] != "0", "the worker was not killed"
            ok, report = asyncio.run(_audit(db))
            assert ok, report
            interrupted = _in_progress(db)
            expected = dict.fromkeys(interrupted, "resume")
            if interrupted and rng.random() < 0.15:
                victim = rng.choice(sorted(interrupted))
                _corrupt(db, victim, interrupted[victim])
                expected[victim] = "refund"
                corrupted += 1
        ok, report = asyncio.run(_audit(db))
        assert ok, report
        with sqlite3.connect(db) as conn:
            hands_seen = conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    finally:
        zygote.close()
    assert zygote.bugs == []
    print(
        f"\n{KILLS} kills, {hands_seen} hands, {resumed} resumed, {cancelled} refunded"
        f" ({corrupted} corrupted on purpose)"
    )
    assert hands_seen >= 10  # the workers did play between kills
    assert resumed > 0

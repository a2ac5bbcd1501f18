"""Bad database settings: one line naming the setting, a non-zero exit, nothing written.

Through the real command line (a subprocess), for the maintenance commands and for the
bot itself (``dealerbot run``, which opens the database before it goes near Discord).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pg.server import PostgresServer

REPO = Path(__file__).resolve().parents[2]


def dealerbot(cwd: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "DATABASE_PATH", "DISCORD_TOKEN", "SHARD_COUNT", "SHARD_IDS")
    }
    return subprocess.run(
        [sys.executable, "-m", "dealerbot", *args],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(REPO), **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode != 0, done.stdout + done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://u@h/db", "must start with sqlite:/// or postgresql://"),
        ("postgresql://user@/dbname", "names no host"),
        ("postgresql://user@localhost:99999/db", "port"),
        ("postgresql://user@localhost:5432", "names no database"),
        ("sqlite://relative.db", "sqlite:///"),
    ],
)
@pytest.mark.parametrize("command", [("audit",), ("db", "upgrade"), ("run",)])
def test_a_malformed_database_url(tmp_path: Path, url: str, says: str, command: tuple) -> None:
    done = dealerbot(tmp_path, {"DATABASE_URL": url, "DISCORD_TOKEN": "x"}, *command)
    line = one_line(done)
    assert done.returncode == 2
    assert line.startswith("dealerbot: DATABASE_URL: ") and says in line
    assert "postgresql://user:password@host:5432/dbname" in line  # what to write instead
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [("audit",), ("db", "upgrade"), ("run",)])
def test_an_unreachable_server(tmp_path: Path, command: tuple) -> None:
    url = "postgresql://dealer:secret@127.0.0.1:9/cardroom"  # the discard port: nobody there
    done = dealerbot(tmp_path, {"DATABASE_URL": url, "DISCORD_TOKEN": "x"}, *command)
    line = one_line(done)
    assert done.returncode == 1
    assert "DATABASE_URL" in line and "cannot connect" in line
    assert "secret" not in line  # the password is never printed
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("user", "database", "says"),
    [("nobody_here", "postgres", "refused the login"), ("postgres", "no_such_db", "no database")],
)
@pytest.mark.parametrize("command", [("audit",), ("run",)])
def test_wrong_credentials_or_database(
    tmp_path: Path, pg_server: PostgresServer, user: str, database: str, says: str, command: tuple
) -> None:
    from urllib.parse import urlsplit

    parts = urlsplit(pg_server.url)
    url = f"postgresql://{user}:pw@{parts.hostname}:{parts.port}/{database}"
    done = dealerbot(tmp_path, {"DATABASE_URL": url, "DISCORD_TOKEN": "x"}, *command)
    line = one_line(done)
    assert done.returncode == 1
    assert "DATABASE_URL" in line and says in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        ("2", "0-2", "SHARD_IDS names shard 2, outside SHARD_COUNT=2 (shards are numbered 0 to 1)"),
        ("4", "5", "SHARD_IDS names shard 5, outside SHARD_COUNT=4"),
        ("2", "1-0", "SHARD_IDS range '1-0' runs backwards"),
        ("two", "0", "SHARD_COUNT must be whole numbers"),
        ("0", "", "SHARD_COUNT must be from 1"),
        ("", "0,1", "SHARD_IDS needs SHARD_COUNT"),
    ],
)
def test_bad_shard_settings(tmp_path: Path, count: str, ids: str, says: str) -> None:
    env = {"DISCORD_TOKEN": "x", "DATABASE_PATH": str(tmp_path / "bot.sqlite3")}
    env.update({k: v for k, v in (("SHARD_COUNT", count), ("SHARD_IDS", ids)) if v})
    done = dealerbot(tmp_path, env, "run")
    line = one_line(done)
    assert done.returncode == 2
    assert line == f"dealerbot: {says}" or line.startswith(f"dealerbot: {says}")
    assert list(tmp_path.iterdir()) == []


def test_a_wrong_password(tmp_path: Path, pg_server: PostgresServer) -> None:
    """A role that logs in with a password, given the wrong one (throwaway server only: an
    external server keeps its own authentication rules, so there the role is just unknown)."""
    import asyncio
    from urllib.parse import urlsplit

    import asyncpg

    role = "dealerbot_pw_test"
    if not pg_server.external:
        assert pg_server._root is not None
        hba = pg_server._root / "data" / "pg_hba.conf"
        rules = hba.read_text()
        line = f"host all {role} 127.0.0.1/32 scram-sha-256\n"
        if line not in rules:
            hba.write_text(line + rules)  # first match wins: only this role needs a password

        async def prepare() -> None:
            admin = await asyncpg.connect(pg_server.url)
            try:
                exists = await admin.fetchval("SELECT 1 FROM pg_roles WHERE rolname = $1", role)
                if not exists:
                    await admin.execute(f"CREATE ROLE {role} LOGIN PASSWORD 'right'")
                await admin.execute("SELECT pg_reload_conf()")
            finally:
                await admin.close()

        asyncio.run(prepare())
    parts = urlsplit(pg_server.url)
    url = f"postgresql://{role}:wrong@{parts.hostname}:{parts.port}/postgres"
    done = dealerbot(tmp_path, {"DATABASE_URL": url, "DISCORD_TOKEN": "x"}, "audit")
    line = one_line(done)
    assert done.returncode == 1
    assert "DATABASE_URL" in line and "wrong" not in line
    says = "refused the login" if pg_server.external else "refused the user name or password"
    assert says in line, line
    assert list(tmp_path.iterdir()) == []

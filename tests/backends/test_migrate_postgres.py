"""`dealerbot db upgrade` on an empty PostgreSQL database, from two processes at once.

The advisory lock in the runner lets one of them apply each migration; the other waits and
finds it done. Afterwards `db check` and `audit` pass and every migration was applied once.
"""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import asyncpg

from dealerbot.store import migrate
from tests.pg.databases import create_database, drop_database
from tests.pg.server import PostgresServer

REPO = Path(__file__).resolve().parents[2]


async def cli(url: str, cwd: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_PATH", "LOG_LEVEL")}
    env.update(DATABASE_URL=url, PYTHONPATH=str(REPO))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "dealerbot",
        *args,
        env=env,
        cwd=cwd,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_two_upgrades_at_once_migrate_once(tmp_path: Path, pg_server: PostgresServer) -> None:
    url = await create_database(pg_server)
    try:
        results = await asyncio.gather(*(cli(url, tmp_path, "db", "upgrade") for _ in range(2)))
        latest = migrate.discover()[-1].version
        applied = []
        for code, out, err in results:
            assert code == 0, err
            assert f"schema version {latest}" in out
            applied += [line for line in out.splitlines() if line.startswith("applied ")]
        names = [m.name for m in migrate.discover()]
        assert sorted(applied) == sorted(f"applied {name}" for name in names)  # each once
        code, out, err = await cli(url, tmp_path, "db", "check")
        assert code == 0, out + err
        assert "(postgresql)" in out and "pending migrations: none" in out
        code, out, err = await cli(url, tmp_path, "audit")
        assert code == 0 and "audit passed" in out, out + err
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SELECT version FROM schema_version") == latest
        finally:
            await conn.close()
    finally:
        await drop_database(pg_server, url)

"""The test server helper: it starts, asyncpg talks to it, and it leaves nothing behind."""

from __future__ import annotations

import socket

import asyncpg
import pytest

from . import server as pg
from .databases import create_database, drop_database


async def test_start_connect_select_stop() -> None:
    running = pg.start()
    try:
        conn = await asyncpg.connect(running.url)
        try:
            assert await conn.fetchval("SELECT 1") == 1
            version = await conn.fetchval("SHOW server_version_num")
            assert int(version) >= 130000  # DROP DATABASE ... WITH (FORCE) needs 13
        finally:
            await conn.close()
    finally:
        running.stop()
    if running.external:
        return  # someone else's server: stop() must leave it alone, nothing more to check
    assert running.port is not None
    with socket.socket() as probe, pytest.raises(ConnectionRefusedError):
        probe.connect(("127.0.0.1", running.port))


async def test_throwaway_server_removes_its_files() -> None:
    running = pg.start_throwaway()
    root = running._root
    try:
        assert root is not None and (root / "data" / "PG_VERSION").is_file()
        assert running.url.startswith("postgresql://postgres@127.0.0.1:")
        assert 0 < running.startup_seconds < pg.READY_TIMEOUT_SECONDS
    finally:
        running.stop()
    assert not root.exists()
    running.stop()  # a second stop is harmless


def test_environment_url_starts_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "postgresql://someone:secret@127.0.0.1:1/elsewhere"
    monkeypatch.setenv(pg.ENV_URL, url)
    monkeypatch.setattr(pg, "start_throwaway", _must_not_start)
    with pg.postgres_server() as running:
        assert running.external
        assert running.url == url
        assert running.url_for("other") == "postgresql://someone:secret@127.0.0.1:1/other"


def _must_not_start() -> pg.PostgresServer:
    raise AssertionError("a server was started although DEALERBOT_TEST_POSTGRES_URL is set")


async def test_each_test_database_is_separate(pg_server: pg.PostgresServer) -> None:
    first = await create_database(pg_server)
    second = await create_database(pg_server)
    try:
        assert first != second
        a = await asyncpg.connect(first)
        b = await asyncpg.connect(second)
        try:
            await a.execute("CREATE TABLE only_here (x INTEGER)")
            assert await b.fetchval("SELECT to_regclass('only_here')") is None
        finally:
            await a.close()
            await b.close()
    finally:
        await drop_database(pg_server, first)
        await drop_database(pg_server, second)
    admin = await asyncpg.connect(pg_server.url)
    try:
        left = await admin.fetchval(
            "SELECT count(*) FROM pg_database WHERE datname = ANY($1::text[])",
            [first.rsplit("/", 1)[1], second.rsplit("/", 1)[1]],
        )
    finally:
        await admin.close()
    assert left == 0

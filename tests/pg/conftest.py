"""PostgreSQL fixtures: one server per test session, one fresh database per test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from .databases import apply_all, create_database, drop_database
from .server import PostgresServer, postgres_server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """DEALERBOT_TEST_POSTGRES_URL's server, or a throwaway one started for this session."""
    with postgres_server() as server:
        yield server


@pytest.fixture
async def pg_url(pg_server: PostgresServer) -> AsyncIterator[str]:
    """The URL of an empty database of its own."""
    url = await create_database(pg_server)
    try:
        yield url
    finally:
        await drop_database(pg_server, url)


@pytest.fixture
async def pg_conn(pg_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection to an empty database of its own."""
    conn = await asyncpg.connect(pg_url)
    try:
        yield conn
    finally:
        await conn.close()


@pytest.fixture
async def pg_schema(pg_conn: asyncpg.Connection) -> asyncpg.Connection:
    """A connection to a database of its own with every PostgreSQL migration applied."""
    await apply_all(pg_conn)
    return pg_conn

"""PostgreSQL fixtures: one fresh database per test (the session's server, ``pg_server``,
is in tests/conftest.py, shared with the store and table-service tests)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import asyncpg
import pytest

from .databases import create_database, create_migrated_template, drop_database
from .server import PostgresServer


@pytest.fixture(scope="session")
def pg_template(pg_server: PostgresServer) -> Iterator[str]:
    """The name of a database with every migration applied, made once per session."""
    name = asyncio.run(create_migrated_template(pg_server))
    try:
        yield name
    finally:
        asyncio.run(drop_database(pg_server, pg_server.url_for(name)))


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
async def pg_schema_url(pg_server: PostgresServer, pg_template: str) -> AsyncIterator[str]:
    """The URL of a database of its own with every PostgreSQL migration applied."""
    url = await create_database(pg_server, template=pg_template)
    try:
        yield url
    finally:
        await drop_database(pg_server, url)


@pytest.fixture
async def pg_schema(pg_schema_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection to a database of its own with every PostgreSQL migration applied."""
    conn = await asyncpg.connect(pg_schema_url)
    try:
        yield conn
    finally:
        await conn.close()

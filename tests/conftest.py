"""Session-wide fixtures: the PostgreSQL server and one database URL per test per backend.

Store and table-service tests that take ``db_url`` (or a fixture built on it) run twice:
on SQLite (a file in the test's temp folder) and on PostgreSQL (a fresh database copied
from a migrated template on the session's server: DEALERBOT_TEST_POSTGRES_URL's, or a
throwaway one started the first time a test needs it). A test marked
``@pytest.mark.backends("sqlite")`` runs only where it names (SQLite-only mechanics).
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

from dealerbot.store.opening import open_database
from tests.pg.databases import create_database, drop_database
from tests.pg.server import PostgresServer, postgres_server

BACKENDS = ("sqlite", "postgresql")
T = TypeVar("T")


def run_async(make: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine to completion from sync code, even inside a running event loop.

    Session fixtures are first requested from inside a test's loop (lazily, so SQLite-only
    runs never start a server); their setup runs in a thread with a loop of its own.
    """

    async def main() -> T:
        return await make()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        names = marker.args if marker else BACKENDS
        metafunc.parametrize("backend", names, scope="function")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PostgresServer]:
    """DEALERBOT_TEST_POSTGRES_URL's server, or a throwaway one started for this session."""
    with postgres_server() as server:
        yield server


async def _store_template(server: PostgresServer) -> str:
    url = await create_database(server)
    database = await open_database(url)  # the store's own migration runner
    await database.close()  # a template must have no open sessions when it is copied
    return url.rsplit("/", 1)[1]


@pytest.fixture(scope="session")
def pg_store_template(pg_server: PostgresServer) -> Iterator[str]:
    """A database migrated by the store's runner (schema_version included), to copy."""
    name = run_async(lambda: _store_template(pg_server))
    try:
        yield name
    finally:
        run_async(lambda: drop_database(pg_server, pg_server.url_for(name)))


class DatabaseSupply:
    """Copies of the store template made ahead, and dropped, by a thread of their own.

    A copy costs the server a fraction of a second of work (CREATE DATABASE writes the whole
    catalog); made while the previous test runs, a test takes a ready one instead of waiting.
    One worker thread, so the server sees one CREATE or DROP at a time, as before.
    """

    AHEAD = 2

    def __init__(self, server: PostgresServer, template: str) -> None:
        self._server = server
        self._template = template
        self._worker = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="pg-supply")
        self._ready: collections.deque[concurrent.futures.Future[str]] = collections.deque()
        self._drops: list[concurrent.futures.Future[None]] = []
        self._fill()

    def _fill(self) -> None:
        while len(self._ready) < self.AHEAD:
            self._ready.append(
                self._worker.submit(
                    asyncio.run, create_database(self._server, template=self._template)
                )
            )

    async def take(self) -> str:
        """A fresh copy of the template (the caller gives it back to :meth:`drop`)."""
        made = self._ready.popleft()
        self._fill()
        return await asyncio.wrap_future(made)

    def drop(self, url: str) -> None:
        """Drop a copy in the background (closing any session still in it)."""
        self._drops.append(self._worker.submit(asyncio.run, drop_database(self._server, url)))

    def close(self) -> None:
        """Drop the copies nobody took, wait for every drop, stop the thread."""
        for made in self._ready:
            with contextlib.suppress(Exception):  # a copy that failed has nothing to drop
                self.drop(made.result())
        self._ready.clear()
        self._worker.shutdown(wait=True)
        for dropped in self._drops:
            dropped.result()


@pytest.fixture(scope="session")
def pg_store_copies(pg_server: PostgresServer, pg_store_template: str) -> Iterator[DatabaseSupply]:
    """Ready copies of the store template (torn down before the template is dropped)."""
    supply = DatabaseSupply(pg_server, pg_store_template)
    try:
        yield supply
    finally:
        supply.close()


NewUrl = Callable[[str], Awaitable[str]]


@pytest.fixture
async def new_db_url(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[NewUrl]:
    """Make fresh, migrated databases of the test's backend: ``await new_db_url(name)``."""
    made: list[str] = []
    supply: DatabaseSupply | None = None

    async def make(name: str) -> str:
        nonlocal supply
        if backend == "sqlite":
            return f"sqlite:///{tmp_path / name}"
        if supply is None:
            supply = request.getfixturevalue("pg_store_copies")
        url = await supply.take()
        made.append(url)
        return url

    try:
        yield make
    finally:
        for url in made:
            assert supply is not None
            supply.drop(url)


@pytest.fixture
async def db_url(new_db_url: NewUrl) -> str:
    """One fresh, migrated database of the test's backend."""
    return await new_db_url("store.sqlite3")

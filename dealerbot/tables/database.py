"""Opening the database for a front end: store failures come out as a table-service error.

The bot imports only :mod:`dealerbot.tables`; this is its one way to get a
:class:`~dealerbot.store.db.Database` (migrations run on open) without seeing store errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from dealerbot.store import opening
from dealerbot.store.db import Database
from dealerbot.store.dburl import DatabaseUrlError, parse_target
from dealerbot.store.errors import StoreError
from dealerbot.store.files import ProcessLock, is_memory

from .errors import DatabaseError
from .stats import backfill


async def open_database(path: str | Path, *, clock: Callable[[], float] = time.time) -> Database:
    """Open (and migrate) the database at ``path``, and record the stats of finished hands
    that have none; :class:`DatabaseError` says why it cannot."""
    try:
        db = await opening.open_database(path, clock=clock)
    except StoreError as error:
        raise DatabaseError(error.message) from error
    try:
        await backfill(db)  # stats rows for hands finished before they were recorded
    except StoreError as error:
        await db.close()
        raise DatabaseError(error.message) from error
    return db


class DatabaseLock:
    """The one-bot-per-database lock (SQLite: a lock file beside it; PostgreSQL: none here,
    the server's table leases cover it)."""

    def __init__(self, target: str | Path) -> None:
        try:
            parsed = parse_target(target)
        except DatabaseUrlError:  # open_database says what is wrong with it
            parsed = None
        path = parsed.path if parsed is not None and parsed.backend == "sqlite" else None
        self._lock = ProcessLock(path) if path and not is_memory(path) else None

    def acquire(self) -> None:
        """Take it, or :class:`DatabaseError` in one line naming the process that holds it."""
        if self._lock is not None:
            try:
                self._lock.acquire()
            except StoreError as error:
                raise DatabaseError(error.message) from error

    def release(self) -> None:
        if self._lock is not None:
            self._lock.release()

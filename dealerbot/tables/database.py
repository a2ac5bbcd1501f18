"""Opening the database for a front end: store failures come out as a table-service error.

The bot imports only :mod:`dealerbot.tables`; this is its one way to get a
:class:`~dealerbot.store.db.Database` (migrations run on open) without seeing store errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from dealerbot.store.db import Database
from dealerbot.store.errors import StoreError

from .errors import DatabaseError


async def open_database(path: str | Path, *, clock: Callable[[], float] = time.time) -> Database:
    """Open (and migrate) the database at ``path``; :class:`DatabaseError` says why it cannot."""
    try:
        return await Database.open(path, clock=clock)
    except StoreError as error:
        raise DatabaseError(error.message) from error

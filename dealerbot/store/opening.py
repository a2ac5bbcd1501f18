"""Opening a database: the backend its target names, connected, then migrated (or checked).

Apart from :mod:`.db` (the contract both backends implement) so that the arrows run one way:
the backends and the migration runner import :mod:`.db`, and only this module (and the
runner, for SQLite) imports the backends. PostgreSQL's is imported when a target names it:
a SQLite-only process never loads its driver.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import migrate
from .db import Database
from .dburl import parse_target
from .sqlite_db import SqliteDatabase


async def open_database(
    target: str | Path,
    *,
    migrate_now: bool = True,
    clock: Callable[[], float] = time.time,
    migrations_dir: Any = None,
    **options: Any,
) -> Database:
    """Connect and (by default) apply pending migrations.

    ``target``: a file path, ``sqlite:///path`` or ``postgresql://user:pass@host/db``;
    ``options`` go to the backend's ``connect`` (SQLite: ``busy_timeout_ms``,
    ``synchronous``; PostgreSQL: ``pool_size``). A database newer than the code raises
    DatabaseTooNewError even with ``migrate_now=False``: the code must never write to a
    schema it does not know.
    """
    parsed = parse_target(target)
    database: Database
    if parsed.backend == "postgresql":
        from .postgres_db import PostgresDatabase

        database = await PostgresDatabase.connect(parsed, clock, **options)
    else:
        database = await SqliteDatabase.connect(parsed, clock, **options)
    try:
        if migrate_now:
            await migrate.upgrade(database, migrations_dir)
        else:
            await migrate.status(database, migrations_dir, refuse_newer=True)
    except BaseException:
        await database.close()
        raise
    return database

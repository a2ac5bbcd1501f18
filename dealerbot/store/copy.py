"""``dealerbot db copy --from URL --to URL``: a whole card room into an empty database.

The target is empty (its schema is created here) or freshly migrated with no rows; one
holding data is refused, and so is a source with a hand in progress (its chips are
committed to a hand only a running bot can finish), with migrations pending (opening it
would change it) or in use by a running bot: on SQLite its lock file is held
(:class:`.files.ProcessLock`), on PostgreSQL a table's lease is (:mod:`.leases`). The copy
holds that lock (or every table's lease) itself until it is done, so no bot starts on the
source meanwhile, and reads the source in ONE read transaction, its audit included. Only
then is the target opened, so a copy refused for the source's sake leaves the target as it
was (not created, not migrated); one holding data is refused before it is migrated. Every
table is copied in ONE transaction on the target, parents before children; rows that the
schema derives (wallet counts and table chips by triggers, the stats roll-ups by the
store's fold) are then set to the source's values, every table is compared row by row
with the source, and the audit runs on the target before the transaction commits. The
source is only read (its leases are taken without a fencing epoch).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from . import migrate
from .audit import AuditReport, audit
from .catalog import TableInfo, rows_of, schema_of
from .db import Connection, Database, fetch_all, fetch_one
from .dburl import DatabaseTarget, parse_target
from .errors import StoreError
from .files import DatabaseFileError, ProcessLock, is_memory
from .leases import TableLeases
from .opening import open_database

MAX_FIXUP_PASSES = 3


class CopyRefused(StoreError):
    """The copy cannot start (or could not finish): nothing was written to the target."""


@dataclass(frozen=True, slots=True)
class CopyResult:
    rows: dict[str, int]
    source_audit: AuditReport
    target_audit: AuditReport


@dataclass(frozen=True, slots=True)
class SourceRows:
    """Everything the copy takes from the source, read at one moment."""

    tables: list[TableInfo]
    data: dict[str, list[tuple[object, ...]]]
    audit: AuditReport


async def _count_rows(conn: Connection, tables: list[TableInfo]) -> int:
    total = 0
    for info in tables:
        row = await fetch_one(conn, f"SELECT COUNT(*) FROM {info.name}")
        total += int(row[0]) if row is not None else 0
    return total


async def _insert(conn: Connection, info: TableInfo, rows: list[tuple[object, ...]]) -> None:
    cols = ", ".join(info.columns)
    marks = ", ".join("?" for _ in info.columns)
    await conn.executemany(
        f"INSERT INTO {info.name} ({cols}) VALUES ({marks}) ON CONFLICT DO NOTHING", rows
    )


async def _fix_up(conn: Connection, info: TableInfo, want: list[tuple[object, ...]]) -> int:
    """Make the target's rows equal the source's; return how many needed a change."""
    have = await rows_of(conn, info)
    if have == want:
        return 0
    if not info.key:
        raise CopyRefused(f"table {info.name} differs after the copy and has no primary key")
    at = [info.columns.index(k) for k in info.key]
    want_by = {tuple(r[i] for i in at): r for r in want}
    have_by = {tuple(r[i] for i in at): r for r in have}
    others = [c for c in info.columns if c not in info.key]
    where = " AND ".join(f"{k} = ?" for k in info.key)
    changed = 0
    for key in have_by:
        if key not in want_by:
            await conn.execute(f"DELETE FROM {info.name} WHERE {where}", key)
            changed += 1
    for key, row in want_by.items():
        if key not in have_by:
            await _insert(conn, info, [row])
            changed += 1
        elif have_by[key] != row and others:
            sets = ", ".join(f"{c} = ?" for c in others)
            values = [row[info.columns.index(c)] for c in others]
            await conn.execute(f"UPDATE {info.name} SET {sets} WHERE {where}", (*values, *key))
            changed += 1
    return changed


async def _reset_identities(conn: Connection, tables: list[TableInfo]) -> None:
    """PostgreSQL: the next generated id follows the copied ones."""
    if conn.backend != "postgresql":
        return
    for info in tables:
        if info.key == ("id",):
            await conn.execute(
                f"SELECT setval(pg_get_serial_sequence('{info.name}', 'id'),"
                f" COALESCE(MAX(id), 0) + 1, false) FROM {info.name}"
                f" WHERE pg_get_serial_sequence('{info.name}', 'id') IS NOT NULL"
            )


@asynccontextmanager
async def _one_read(source: Database) -> AsyncIterator[Connection]:
    """One read transaction on the source: PostgreSQL's snapshot is one (repeatable read);
    SQLite's reads hold only this process's connection, so BEGIN makes them one too (WAL:
    a writer elsewhere goes on, unseen)."""
    async with source.snapshot() as conn:
        if conn.backend != "sqlite":
            yield conn
            return
        await conn.execute("BEGIN")
        try:
            yield conn
        finally:
            await conn.execute("COMMIT")  # nothing was written: this only ends the read


async def _hold_leases(conn: Connection, leases: TableLeases) -> None:
    """Take every table's lease (PostgreSQL), or refuse: a bot holding one runs that table."""
    for row in await fetch_all(conn, "SELECT DISTINCT channel_id FROM tables ORDER BY 1"):
        if not await leases.hold(int(row[0])):
            raise CopyRefused(
                f"the table in channel {row[0]} is run by a bot (it holds the table's lease): "
                "stop the bot, then copy"
            )


async def read_source(source: Database, leases: TableLeases) -> SourceRows:
    """Every row and the audit of ``source``, in one read transaction (see the module doc)."""
    async with _one_read(source) as src:
        await _hold_leases(src, leases)
        live = await fetch_one(src, "SELECT COUNT(*) FROM hands WHERE status = 'in_progress'")
        if live is not None and int(live[0]):
            raise CopyRefused(
                f"the source has {live[0]} hand(s) in progress: stop the bot after they end "
                "(or let it resume and finish them), then copy"
            )
        tables = await schema_of(src)
        data = {info.name: await rows_of(src, info) for info in tables}
        report = await audit(source)  # joins this read: the rows copied are the rows audited
    if not report.ok:
        raise CopyRefused("the source fails its audit; fix it first:\n" + report.render())
    return SourceRows(tables, data, report)


async def copy_database(source: SourceRows, target: Database) -> CopyResult:
    """Copy ``source``'s rows into ``target`` (migrated, empty); see the module doc."""
    tables, data = source.tables, source.data
    async with target.transaction() as dst:
        target_tables = {info.name: info for info in await schema_of(dst)}
        if await _count_rows(dst, list(target_tables.values())):
            raise CopyRefused("the target already holds data; copy only into an empty database")
        for info in tables:
            theirs = target_tables.get(info.name)
            if theirs is None or set(theirs.columns) != set(info.columns):
                raise CopyRefused(f"table {info.name} does not have the same columns on both sides")
            await _insert(dst, info, data[info.name])
        for _ in range(MAX_FIXUP_PASSES):
            if not sum([await _fix_up(dst, info, data[info.name]) for info in tables]):
                break
        else:
            raise CopyRefused("the target's rows still differ from the source's after the copy")
        await _reset_identities(dst, tables)
        target_audit = await audit(target)
        if not target_audit.ok:
            raise CopyRefused(
                "the copy fails its audit; nothing was kept:\n" + target_audit.render()
            )
    return CopyResult({n: len(rows) for n, rows in data.items()}, source.audit, target_audit)


@asynccontextmanager
async def _bot_lock(source: DatabaseTarget) -> AsyncIterator[None]:
    """SQLite: hold the lock file a running bot holds for as long as the copy runs."""
    if source.backend != "sqlite" or source.path is None or is_memory(source.path):
        yield
        return
    lock = _take_bot_lock(Path(source.path))
    try:
        yield
    finally:
        lock.release()


def _take_bot_lock(path: Path) -> ProcessLock:
    """The source's :class:`.files.ProcessLock`, or refused naming the process holding it."""
    if not path.is_file():
        raise CopyRefused(f"{path}: no database here to copy")
    lock = ProcessLock(path)
    try:
        lock.acquire()
    except DatabaseFileError:
        holder = lock.path.read_text(errors="replace").strip() or "another process"
        raise CopyRefused(
            f"the source is in use by process {holder} (lock file {lock.path}): "
            "stop the bot, then copy"
        ) from None
    return lock


async def _open_target(url: str) -> Database:
    """The target, migrated to the code's schema unless it holds rows (then refused)."""
    db = await open_database(url, migrate_now=False)
    try:
        if await db.schema_version():
            async with db.reading() as conn:
                tables = await schema_of(conn)
                if await _count_rows(conn, tables):
                    raise CopyRefused(
                        "the target already holds data; copy only into an empty database"
                    )
        await migrate.upgrade(db)
    except BaseException:
        await db.close()
        raise
    return db


async def db_copy(source_url: str, target_url: str) -> int:
    """The command: print what was copied and both audits; 0 when done."""
    src, dst = parse_target(source_url), parse_target(target_url)
    if src == dst:
        raise CopyRefused("the source and the target are the same database")
    async with _bot_lock(src), await open_database(source_url, migrate_now=False) as source:
        state = await migrate.status(source)
        if state.pending:
            raise CopyRefused(
                f"the source is at schema version {state.current}, the code at {state.latest}: "
                "run `dealerbot db upgrade` on it first"
            )
        leases = await source.open_leases(fencing=False)  # the source is only read
        try:
            rows = await read_source(source, leases)
            target = await _open_target(target_url)  # only now: a refusal leaves it as it was
            try:
                result = await copy_database(rows, target)
            finally:
                await target.close()
        finally:
            await leases.close()
    for name, count in result.rows.items():
        print(f"{name}: {count} rows")
    print(f"audit of {src.display} (source): {_verdict(result.source_audit)}")
    print(f"audit of {dst.display} (target): {_verdict(result.target_audit)}")
    print(f"copied {sum(result.rows.values())} rows from {src.display} to {dst.display}")
    return 0


def _verdict(report: AuditReport) -> str:
    return f"passed ({len(report.checks)} checks)" if report.ok else "FAILED"

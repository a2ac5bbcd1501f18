"""What tables a database holds, their columns, keys and foreign keys, on either backend.

For ``db copy`` and the tests that compare two databases row by row: the schema is the
migrations', so every name is the same on both sides; only the way to ask differs.
"""

from __future__ import annotations

from dataclasses import dataclass

from .db import Connection, fetch_all

# Bookkeeping tables that are not card-room data.
SKIPPED = frozenset({"schema_version"})


@dataclass(frozen=True, slots=True)
class TableInfo:
    name: str
    columns: tuple[str, ...]
    key: tuple[str, ...]  # primary key columns
    parents: frozenset[str]  # tables its foreign keys point at


async def table_names(conn: Connection) -> list[str]:
    if conn.backend == "sqlite":
        sql = (
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
    else:
        sql = (
            "SELECT table_name FROM information_schema.tables WHERE"
            " table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        )
    return [r[0] for r in await fetch_all(conn, sql) if r[0] not in SKIPPED]


async def table_info(conn: Connection, name: str) -> TableInfo:
    if conn.backend == "sqlite":
        cols = await fetch_all(conn, f'PRAGMA table_info("{name}")')
        columns = tuple(r["name"] for r in cols)
        key = tuple(r["name"] for r in sorted((r for r in cols if r["pk"]), key=lambda r: r["pk"]))
        fks = await fetch_all(conn, f'PRAGMA foreign_key_list("{name}")')
        parents = frozenset(r["table"] for r in fks)
    else:
        cols = await fetch_all(
            conn,
            "SELECT column_name FROM information_schema.columns WHERE"
            " table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
            (name,),
        )
        columns = tuple(r[0] for r in cols)
        keys = await fetch_all(
            conn,
            "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
            " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = to_regclass(?) AND i.indisprimary"
            " ORDER BY array_position(i.indkey::int2[], a.attnum)",
            (name,),
        )
        key = tuple(r[0] for r in keys)
        fks = await fetch_all(
            conn,
            "SELECT confrelid::regclass::text FROM pg_constraint"
            " WHERE conrelid = to_regclass(?) AND contype = 'f'",
            (name,),
        )
        parents = frozenset(r[0].strip('"') for r in fks)
    return TableInfo(name, columns, key, parents - {name})


async def schema_of(conn: Connection) -> list[TableInfo]:
    """Every data table, parents before children (foreign keys can be checked as rows land)."""
    infos = {n: await table_info(conn, n) for n in await table_names(conn)}
    ordered: list[TableInfo] = []
    done: set[str] = set()
    while len(ordered) < len(infos):
        ready = [i for n, i in sorted(infos.items()) if n not in done and i.parents <= done | {n}]
        if not ready:  # a cycle: keep the rest in name order
            ready = [i for n, i in sorted(infos.items()) if n not in done]
        for info in ready:
            ordered.append(info)
            done.add(info.name)
    return ordered


async def rows_of(conn: Connection, info: TableInfo) -> list[tuple[object, ...]]:
    """All rows in primary-key order (or every column's order without one)."""
    cols = ", ".join(info.columns)
    order = ", ".join(info.key or info.columns)
    rows = await fetch_all(conn, f"SELECT {cols} FROM {info.name} ORDER BY {order}")
    return [tuple(r) for r in rows]

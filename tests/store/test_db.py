"""Transactions: commit, rollback, savepoints for nested use, isolation between tasks."""

from __future__ import annotations

import asyncio

import pytest

from dealerbot.store.db import Database, fetch_all, fetch_one
from dealerbot.store.sqlite_db import SqliteDatabase


async def make_scratch(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE scratch (v INTEGER)")


async def values(db: Database) -> list[int]:
    async with db.reading() as conn:
        return [r[0] for r in await fetch_all(conn, "SELECT v FROM scratch ORDER BY v")]


async def test_commit_and_rollback(db: Database) -> None:
    await make_scratch(db)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO scratch VALUES (1)")
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO scratch VALUES (2)")
            raise RuntimeError("boom")
    assert await values(db) == [1]
    if isinstance(db, SqliteDatabase):
        assert not db.conn.in_transaction


async def test_nested_transaction_is_a_savepoint(db: Database) -> None:
    await make_scratch(db)
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO scratch VALUES (1)")
        with pytest.raises(ValueError):
            async with db.transaction() as inner:
                await inner.execute("INSERT INTO scratch VALUES (2)")
                raise ValueError("inner fails")
        async with db.transaction() as inner:
            await inner.execute("INSERT INTO scratch VALUES (3)")
    assert await values(db) == [1, 3]


async def test_outer_failure_undoes_committed_inner_block(db: Database) -> None:
    await make_scratch(db)
    with pytest.raises(KeyError):
        async with db.transaction():
            async with db.transaction() as inner:
                await inner.execute("INSERT INTO scratch VALUES (7)")
            raise KeyError("outer fails")
    assert await values(db) == []


async def test_other_tasks_never_see_uncommitted_writes(db: Database) -> None:
    await make_scratch(db)
    inside = asyncio.Event()
    seen: list[list[int]] = []

    async def writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO scratch VALUES (5)")
            inside.set()
            await asyncio.sleep(0.05)
            raise RuntimeError("roll back")

    async def reader() -> None:
        await inside.wait()
        seen.append(await values(db))

    results = await asyncio.gather(writer(), reader(), return_exceptions=True)
    assert isinstance(results[0], RuntimeError)
    assert seen == [[]]


async def test_a_task_started_inside_a_transaction_does_not_join_it(db: Database) -> None:
    await make_scratch(db)

    async def child() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO scratch VALUES (9)")

    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO scratch VALUES (8)")
            task = asyncio.create_task(child())
            await asyncio.sleep(0.01)
            if db.backend == "sqlite":  # one connection: the child waits for our lock
                assert not task.done()
            raise RuntimeError("our transaction rolls back; the child's is its own")
    await task
    assert await values(db) == [9]


@pytest.mark.backends("sqlite")
async def test_pragmas(db: SqliteDatabase) -> None:
    async with db.reading() as conn:
        row = await fetch_one(conn, "PRAGMA busy_timeout")
    assert row is not None and row[0] == 5000
    assert db.conn.isolation_level is None

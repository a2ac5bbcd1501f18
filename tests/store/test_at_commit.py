"""Statements held for the COMMIT (``executemany_at_commit``, the stats rows' write): they
land with the transaction, or not at all; a savepoint undone drops its own."""

from __future__ import annotations

import pytest

from dealerbot.store.db import Database, fetch_all

INSERT = "INSERT INTO scratch (v) VALUES (?)"


async def values(db: Database) -> list[int]:
    async with db.reading() as conn:
        return [int(r[0]) for r in await fetch_all(conn, "SELECT v FROM scratch ORDER BY v")]


async def make_scratch(db: Database) -> None:
    async with db.transaction() as conn:
        await conn.execute("CREATE TABLE scratch (v INTEGER NOT NULL CHECK (v < 100))")


async def test_held_rows_land_with_the_commit(db: Database) -> None:
    await make_scratch(db)
    async with db.transaction() as conn:
        await conn.execute(INSERT, (1,))
        await conn.executemany_at_commit(INSERT, [(2,), (3,)])
        await conn.execute(INSERT, (4,))
    assert await values(db) == [1, 2, 3, 4]
    async with db.reading() as conn:  # outside a transaction: at once
        await conn.executemany_at_commit(INSERT, [(5,)])
    assert await values(db) == [1, 2, 3, 4, 5]


async def test_a_held_row_refused_undoes_the_whole_transaction(db: Database) -> None:
    await make_scratch(db)
    with pytest.raises(Exception, match=r"(?i)check"):
        async with db.transaction() as conn:
            await conn.execute(INSERT, (1,))
            await conn.executemany_at_commit(INSERT, [(2,), (200,)])
    assert await values(db) == []
    async with db.transaction() as conn:  # the connection is usable, nothing left held
        await conn.execute(INSERT, (7,))
    assert await values(db) == [7]


async def test_an_error_drops_the_held_rows(db: Database) -> None:
    await make_scratch(db)
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.executemany_at_commit(INSERT, [(1,)])
            raise RuntimeError("boom")
    async with db.transaction() as conn:
        await conn.execute(INSERT, (2,))
    assert await values(db) == [2]


async def test_a_savepoint_undone_drops_only_its_held_rows(db: Database) -> None:
    await make_scratch(db)
    async with db.transaction() as conn:
        await conn.executemany_at_commit(INSERT, [(1,)])
        with pytest.raises(RuntimeError):
            async with db.transaction() as inner:
                await inner.executemany_at_commit(INSERT, [(2,)])
                raise RuntimeError("inner")
        async with db.transaction() as inner:
            await inner.executemany_at_commit(INSERT, [(3,)])
    assert await values(db) == [1, 3]

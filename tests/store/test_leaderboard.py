"""Leaderboard: order by wallet + table chips, competition ranks, paging, index use."""

from __future__ import annotations

import pytest

from dealerbot.store import leaderboard, tables, wallets
from dealerbot.store.boards import Seek
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.leaderboard import PAGE_SIZE, RANK_SQL, TOP_SQL

from .conftest import CHANNEL, GUILD, sit

BASE_USER = 500_000_000_000_000_000


async def make_players(db: Database, worths: list[int]) -> list[int]:
    """Players whose wallets hold the given amounts (start 1,000 then give/take)."""
    users = []
    for i, worth in enumerate(worths):
        user = BASE_USER + i
        await wallets.get_wallet(db, GUILD, user)
        if worth > 1000:
            await wallets.admin_give(db, GUILD, user, worth - 1000)
        elif worth < 1000:
            await wallets.admin_take(db, GUILD, user, 1000 - worth)
        users.append(user)
    return users


async def test_top_counts_chips_at_tables(db: Database) -> None:
    users = await make_players(db, [1000, 1500, 900])
    table = await tables.open_table(db, GUILD, CHANNEL)
    await sit(db, table.id, users[0], "zero", 1000)  # all in play, still 1,000
    await wallets.admin_give(db, GUILD + 1, users[1], 99_999)  # another guild: not counted
    top = await leaderboard.top(db, GUILD, 10)
    assert [(e.rank, e.user_id, e.chips, e.table_chips, e.net_worth) for e in top] == [
        (1, users[1], 1500, 0, 1500),
        (2, users[0], 0, 1000, 1000),
        (3, users[2], 900, 0, 900),
    ]


async def test_ties_share_a_rank_and_order_by_user_id(db: Database) -> None:
    users = await make_players(db, [500, 800, 800, 800, 200])
    top = await leaderboard.top(db, GUILD, 5)
    assert [(e.rank, e.user_id) for e in top] == [
        (1, users[1]),
        (1, users[2]),
        (1, users[3]),
        (4, users[0]),
        (5, users[4]),
    ]
    for entry in top:
        assert await leaderboard.rank_of(db, GUILD, entry.user_id) == entry
    assert await leaderboard.rank_of(db, GUILD, BASE_USER + 99) is None


async def test_paging(db: Database) -> None:
    worths = [1000 + 7 * ((i * 37) % 25) for i in range(25)]  # shuffled, with ties
    users = await make_players(db, worths)
    expected = sorted(zip(worths, users, strict=True), key=lambda p: (-p[0], p[1]))
    seen = []
    for number in (1, 2, 3):
        page = await leaderboard.page(db, GUILD, number)
        assert (page.page, page.pages, page.total_players) == (number, 3, 25)
        assert len(page.entries) == (PAGE_SIZE if number < 3 else 5)
        seen.extend(page.entries)
    assert [(e.net_worth, e.user_id) for e in seen] == expected
    for e in seen:
        assert e.rank == 1 + sum(1 for w in worths if w > e.net_worth)
        assert (await leaderboard.rank_of(db, GUILD, e.user_id)) == e
    assert (await leaderboard.page(db, GUILD, 99)).page == 3
    assert (await leaderboard.page(db, GUILD, 0)).page == 1
    for position, (_, user) in enumerate(expected):
        assert await leaderboard.page_of_user(db, GUILD, user) == position // PAGE_SIZE + 1


async def test_empty_guild(db: Database) -> None:
    page = await leaderboard.page(db, GUILD)
    assert (page.page, page.pages, page.total_players, page.entries) == (1, 1, 0, ())


@pytest.mark.backends("sqlite")  # EXPLAIN QUERY PLAN is SQLite's
@pytest.mark.parametrize(("sql", "params"), [(TOP_SQL, (GUILD, 10, 0)), (RANK_SQL, (GUILD, 500))])
async def test_queries_use_the_leaderboard_index(db: Database, sql: str, params: tuple) -> None:
    await make_players(db, [100, 200])
    async with db.reading() as conn:
        plan = " ".join(r[3] for r in await fetch_all(conn, "EXPLAIN QUERY PLAN " + sql, params))
    assert "COVERING INDEX wallets_leaderboard" in plan
    assert "TEMP B-TREE" not in plan
    assert "SCAN" not in plan


async def test_seek_paging_walks_the_board_both_ways(db: Database) -> None:
    """Pages seek from a neighbouring page's row (no OFFSET): forward to the end and back
    to the top they list the board in order, with the page numbers and ranks of OFFSET pages."""
    worths = [1000 + 7 * ((i * 37) % 9) for i in range(25)]  # many ties across page edges
    users = await make_players(db, worths)
    expected = sorted(zip(worths, users, strict=True), key=lambda p: (-p[0], p[1]))
    page = await leaderboard.page(db, GUILD, 1)
    forward = [page]
    while not page.at_end:
        last = page.entries[-1]
        page = await leaderboard.page(db, GUILD, 1, after=Seek(last.net_worth, last.user_id))
        forward.append(page)
    assert [p.page for p in forward] == [1, 2, 3]
    assert [p.start for p in forward] == [0, 10, 20]
    seen = [e for p in forward for e in p.entries]
    assert [(e.net_worth, e.user_id) for e in seen] == expected
    for number, p in enumerate(forward, 1):
        assert p.entries == (await leaderboard.page(db, GUILD, number)).entries
    backward = [page]
    while page.start > 0:
        first = page.entries[0]
        page = await leaderboard.page(db, GUILD, 9, before=Seek(first.net_worth, first.user_id))
        backward.append(page)
    assert [p.entries for p in backward] == [p.entries for p in reversed(forward)]


async def test_seek_from_a_row_that_moved(db: Database) -> None:
    """The board changed since the button was made: after the last row there is nothing
    left (its last rows); before a row with fewer than a page above it (the top page)."""
    users = await make_players(db, [1000 + 10 * i for i in range(15)])
    page = await leaderboard.page(db, GUILD, 1, after=Seek(0, users[0]))
    assert (page.page, page.start, len(page.entries)) == (1, 5, 10) and page.at_end
    assert [e.user_id for e in page.entries] == users[9::-1]
    top = await leaderboard.page(db, GUILD, 2, before=Seek(1000 + 10 * 9, users[9]))
    assert (top.page, top.start) == (1, 0)
    assert [e.user_id for e in top.entries] == users[:4:-1]

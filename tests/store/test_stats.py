"""The stats store on both backends: rows at settlement, the rollups the fold keeps (equal to
a recount of the rows), the periods, the winnings board and ranks, and the CHECKs that
refuse a row that does not add up."""

from __future__ import annotations

import random

import pytest

from dealerbot.store import hands, rollups, stats, tables
from dealerbot.store.boards import Seek
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.stats import Period, PeriodKeys, PlayerHandRow

from .conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock, sit
from .hand_helpers import begin_hand
from .rollup_recount import random_hand, recounted, stored

DAY = 86_400


def row(user: int, seat: int, put_in: int, won: int, **flags: object) -> PlayerHandRow:
    shown = flags.get("shown")
    return PlayerHandRow(
        user,
        seat,
        put_in,
        won,
        won - put_in,
        int(flags.get("street", 3)),  # type: ignore[call-overload]
        int(bool(flags.get("entered"))),
        int(bool(flags.get("raised"))),
        int(shown is not None),
        int(shown is not None and won > 0),
        None if shown is None else int(shown),  # type: ignore[call-overload]
        None if shown is None else "As Ad Ah Ac Kd Ks 2c",
    )


async def settled(
    db: Database, table_id: int, rows: list[PlayerHandRow], variant: str = "stud"
) -> int:
    """Settle a hand and write its rows in the same transaction, as the service does."""
    hand = await begin_hand(db, table_id, users=[r.user_id for r in rows])
    deltas = {r.user_id: r.net for r in rows}
    async with db.transaction():
        await hands.settle_hand(db, hand.id, deltas, {})
        await stats.record_hand(db, hand.id, table_id, variant, rows)
    return hand.id


async def seated(db: Database) -> int:
    table = await tables.open_table(db, GUILD, CHANNEL)
    for i, user in enumerate((ALICE, BOB, CAROL)):
        await sit(db, table.id, user, f"P{i}", 500)
    return table.id


async def test_rollups_periods_board_and_ranks(db: Database, clock: FakeClock) -> None:
    table_id = await seated(db)
    clock.now = 1_796_083_200.0 + 3600  # Tuesday 2026-12-01, 01:00 UTC
    tuesday = [
        row(ALICE, 0, 10, 25, entered=True, street=7, shown=50),
        row(BOB, 1, 10, 0, street=7, shown=40, raised=True),
        row(CAROL, 2, 5, 0),
    ]
    await settled(db, table_id, tuesday)
    clock.advance(-2 * DAY)  # Sunday: the week before
    sunday = [
        row(ALICE, 0, 30, 0, street=7, shown=90),
        row(BOB, 1, 30, 60, entered=True, street=7, shown=95),
    ]
    await settled(db, table_id, sunday)
    clock.now = 1_796_083_200.0 + 7200  # back to Tuesday

    keys = PeriodKeys.at(clock.now)
    all_time = await stats.player_totals(db, GUILD, ALICE, since_day=None, variant=None)
    [alice] = all_time
    assert (alice.hands, alice.net, alice.won_hands, alice.entered_third) == (2, -15, 1, 1)
    assert (alice.saw_seventh, alice.showdowns, alice.won_showdowns) == (2, 2, 1)
    assert (alice.biggest_win, alice.best_rank) == (25, 90)
    assert alice.best_cards == "As Ad Ah Ac Kd Ks 2c"
    week = await stats.player_totals(
        db, GUILD, ALICE, since_day=keys.first_day(Period.WEEK), variant=None
    )
    assert [(t.hands, t.net, t.best_rank) for t in week] == [(1, 15, 50)]
    assert await stats.player_totals(db, GUILD, ALICE, since_day=None, variant="stud8") == []

    board = await stats.winnings_page(db, GUILD, Period.WEEK, 1)
    assert [(e.rank, e.user_id, e.net) for e in board.entries] == [
        (1, ALICE, 15),
        (2, CAROL, -5),
        (3, BOB, -10),
    ]
    everything = await stats.winnings_page(db, GUILD, Period.ALL, 1)
    assert [(e.user_id, e.net, e.hands) for e in everything.entries] == [
        (BOB, 20, 2),
        (CAROL, -5, 1),
        (ALICE, -15, 2),
    ]
    assert await stats.winnings_rank(db, GUILD, BOB, Period.WEEK) == stats.WinningsEntry(
        3, BOB, -10, 1
    )
    assert await stats.winnings_rank(db, GUILD, CAROL, Period.TODAY) is not None
    clock.advance(DAY)
    assert await stats.winnings_rank(db, GUILD, CAROL, Period.TODAY) is None  # a new day
    assert (await stats.winnings_page(db, GUILD, Period.TODAY, 1)).entries == ()


async def test_equal_nets_share_a_rank_and_pages_stop_at_the_last(
    db: Database, clock: FakeClock
) -> None:
    table_id = await seated(db)
    await settled(db, table_id, [row(ALICE, 0, 5, 10), row(BOB, 1, 0, 0), row(CAROL, 2, 5, 0)])
    page = await stats.winnings_page(db, GUILD, Period.MONTH, 7)
    assert (page.page, page.pages, page.total_players) == (1, 1, 3)
    assert [(e.rank, e.net) for e in page.entries] == [(1, 5), (2, 0), (3, -5)]
    await settled(db, table_id, [row(BOB, 1, 0, 5), row(CAROL, 2, 5, 0)])
    page = await stats.winnings_page(db, GUILD, Period.MONTH, 1)
    assert [(e.rank, e.net) for e in page.entries] == [(1, 5), (1, 5), (3, -10)]


async def test_a_row_that_does_not_add_up_is_refused(db: Database) -> None:
    table_id = await seated(db)
    bad = row(ALICE, 0, 5, 10)._replace(net=7)
    hand = await begin_hand(db, table_id, users=[ALICE, BOB])
    with pytest.raises(Exception):  # noqa: B017 (each backend names its integrity error)
        async with db.transaction():
            await stats.record_hand(db, hand.id, table_id, "stud", [bad])
    assert await stats.player_totals(db, GUILD, ALICE, since_day=None, variant=None) == []


async def test_a_late_hand_of_an_earlier_period_leaves_the_current_one(
    db: Database, clock: FakeClock
) -> None:
    table_id = await seated(db)
    clock.now = 1_796_083_200.0 + 3600  # Tuesday
    await settled(db, table_id, [row(ALICE, 0, 0, 10), row(BOB, 1, 10, 0)])
    # A hand of the previous Sunday recorded afterwards (as the backfill may): it counts for
    # all time, not for this week or today.
    hand = await begin_hand(db, table_id, users=[ALICE, BOB])
    async with db.transaction():
        await hands.settle_hand(db, hand.id, {ALICE: 30, BOB: -30}, {})
        late = [row(ALICE, 0, 0, 30), row(BOB, 1, 30, 0)]
        await stats.record_hand(db, hand.id, table_id, "stud", late, clock.now - 2 * 86_400)
    week = await stats.winnings_page(db, GUILD, Period.WEEK, 1)
    assert [(e.user_id, e.net, e.hands) for e in week.entries] == [(ALICE, 10, 1), (BOB, -10, 1)]
    ever = await stats.winnings_page(db, GUILD, Period.ALL, 1)
    assert [(e.user_id, e.net, e.hands) for e in ever.entries] == [(ALICE, 40, 2), (BOB, -40, 2)]


async def test_winnings_pages_seek_from_a_neighbouring_row(db: Database) -> None:
    """Seek pages (from the last row of a page, or the first) equal the OFFSET pages."""
    table_id = await seated(db)
    many = [ALICE + 1000 + i for i in range(23)]
    hand = await begin_hand(db, table_id, users=[ALICE, BOB])
    async with db.transaction():  # rows alone: only the board's paging is under test
        rows = [row(u, i % 8, 5, 5 * (i % 4)) for i, u in enumerate(many)]
        await stats.record_hand(db, hand.id, table_id, "stud", rows)
    by_number = [await stats.winnings_page(db, GUILD, Period.WEEK, n) for n in (1, 2, 3)]
    assert [len(p.entries) for p in by_number] == [10, 10, 3]
    page, walked = by_number[0], [by_number[0]]
    while not page.at_end:
        last = page.entries[-1]
        page = await stats.winnings_page(
            db, GUILD, Period.WEEK, 1, after=Seek(last.net, last.user_id)
        )
        walked.append(page)
    assert walked == by_number
    first = by_number[2].entries[0]
    back = await stats.winnings_page(
        db, GUILD, Period.WEEK, 3, before=Seek(first.net, first.user_id)
    )
    assert back == by_number[1]
    ranks = [e.rank for p in by_number for e in p.entries]
    nets = [e.net for p in by_number for e in p.entries]
    assert ranks == [1 + sum(1 for n in nets if n > net) for net in nets]


async def test_settlement_rows_wait_for_the_fold_and_every_read_folds_first(db: Database) -> None:
    """Rows written at settlement are pending: the rollups do not have them until a fold
    (which counts each row once); every read folds first, so no answer misses a hand."""
    table_id = await seated(db)
    await settled(db, table_id, [row(ALICE, 0, 5, 10), row(BOB, 1, 5, 0)])

    async def rolled_up() -> list[tuple[int, int]]:
        async with db.reading() as conn:
            found = await fetch_all(
                conn, "SELECT user_id, all_net FROM winnings ORDER BY user_id", ()
            )
        return [(int(user), int(net)) for user, net in found]

    assert await rolled_up() == []
    assert await stats.fold_pending(db) == 2
    assert await rolled_up() == [(ALICE, 5), (BOB, -5)]
    assert await stats.fold_pending(db) == 0  # folded once
    await settled(db, table_id, [row(ALICE, 0, 5, 0), row(CAROL, 2, 0, 5)])
    assert await rolled_up() == [(ALICE, 5), (BOB, -5)]
    page = await stats.winnings_page(db, GUILD, Period.ALL, 1)  # the read folds first
    assert [(e.user_id, e.net, e.hands) for e in page.entries] == [
        (CAROL, 5, 1), (ALICE, 0, 2), (BOB, -5, 1)
    ]  # fmt: skip
    assert await stats.fold_pending(db) == 0
    await settled(db, table_id, [row(BOB, 1, 0, 20), row(CAROL, 2, 20, 0)])
    [bob] = await stats.player_totals(db, GUILD, BOB, since_day=None, variant=None)
    assert (bob.hands, bob.net, bob.biggest_win) == (2, 15, 20)
    assert (await stats.winnings_rank(db, GUILD, BOB, Period.ALL)) is not None
    assert await stats.fold_pending(db) == 0


async def test_the_rollups_equal_a_recount_of_the_folded_rows(
    db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hands over six weeks in random order (late ones too), three games, several a day
    (ties of shown ranks, unshown rows beside shown ones), folds at random moments (some
    rows folded, more pending): after every fold the rollups equal a recount of the folded
    rows from hand_players. Few hands per statement, so a fold runs several padded batches."""
    monkeypatch.setattr(rollups, "HANDS_PER_STATEMENT", 3)
    table_id = await seated(db)
    rng = random.Random(11)
    start = 1_796_083_200.0  # Tuesday 2026-12-01 00:00 UTC: a month and a week begin near
    mixed = late = 0
    latest = start - 36 * DAY
    days_played = (-35, -29, -8, -1, 0, 6)  # two months, three weeks, a few days each
    for _ in range(48):
        clock.now = start + (rng.choice(days_played) + rng.random()) * DAY
        late += int(clock.now < latest)  # a hand of an earlier time recorded after a later one
        latest = max(latest, clock.now)
        users = rng.sample([ALICE, BOB, CAROL], rng.choice((2, 3)))
        await settled(db, table_id, random_hand(rng, users), rng.choice(("stud", "stud8", "razz")))
        if rng.random() < 0.3:
            async with db.reading() as conn:
                [(folded, pending)] = await fetch_all(
                    conn,
                    "SELECT SUM(1 - pending), SUM(pending) FROM hand_players",
                )
            mixed += int(folded > 0 and pending > 0)
            assert await stats.fold_pending(db) == pending
            assert await stored(db) == await recounted(db)
    assert mixed >= 2  # folds met folded rows and pending ones together
    await stats.fold_pending(db)
    days, wins = await stored(db)
    assert (days, wins) == await recounted(db)
    assert len({row[2] for row in days}) == 3 and late > 5 and len(wins) == 3
    assert sum(row[5] for row in days) > 2 * len(days)  # several rows in most rollup rows


async def test_no_roll_up_or_fold_trigger_is_left(db: Database) -> None:
    """Migration 0011 dropped the rollup triggers (and PostgreSQL's trigger function): the
    fold's SQL in the store is the only roll-up."""
    async with db.reading() as conn:
        if conn.backend == "sqlite":
            triggers = await fetch_all(
                conn, "SELECT name FROM sqlite_master WHERE type = 'trigger'"
            )
            functions: list[object] = []
        else:
            triggers = await fetch_all(conn, "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
            functions = await fetch_all(
                conn,
                "SELECT proname FROM pg_proc WHERE pronamespace = current_schema()::regnamespace",
            )
    names = {str(r[0]) for r in [*triggers, *functions]}  # type: ignore[index]
    assert "ledger_no_update" in names  # the other triggers are still seen
    assert sorted(n for n in names if "roll_up" in n or "fold" in n) == []

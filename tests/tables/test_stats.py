"""Player stats through the table service: every settled hand's rows match a hand-by-hand
recount from the engine's events (the hand log replayed), the reports and the winnings
board add them up, and the backfill writes exactly what live settlement wrote."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict

from dealerbot import cli
from dealerbot.engine import (
    Action,
    ActionKind,
    SeatSpec,
    apply,
    format_cards,
    parse_deck_text,
    start_hand,
)
from dealerbot.store import hand_actions as actions_db
from dealerbot.store import hands as hands_db
from dealerbot.store import wallets as wallets_db
from dealerbot.store.stats import PeriodKeys, fold_pending
from dealerbot.tables import StatsPeriod, TableConfig, Variant, parse_period
from dealerbot.tables.stats import backfill
from tests.engine.stats_recount import Counted, recount

from .helpers import GUILD, Harness, make_harness, play_hand

CHANNELS = (401, 402)
USERS = list(range(1, 7))
DAY = 86_400


async def rows(h: Harness, sql: str) -> list[tuple]:
    async with h.db.conn.execute(sql) as cursor:
        return [tuple(r) for r in await cursor.fetchall()]


async def replayed_facts(h: Harness, hand_id: int) -> tuple[dict[int, Counted], dict[int, int]]:
    """The logged hand played again through the engine, recounted from its events."""
    record = await hands_db.get_hand(h.db, hand_id)
    assert record.revealed_deck is not None
    config = TableConfig.from_row(record.config)
    state, events = start_hand(
        config.variant,
        config.stakes,
        [SeatSpec(s.seat_no, s.stack) for s in record.seats],
        parse_deck_text(record.revealed_deck),
        record.button_seat,
    )
    every = list(events)
    for action in await actions_db.get_actions(h.db, hand_id):
        state, events = apply(state, Action(action.seat or 0, ActionKind(action.action)))
        every.extend(events)
    assert state.is_over
    return recount(every), {s.seat_no: s.user_id for s in record.seats}


async def play_room(h: Harness, hands: int, seed: int) -> None:
    rng = random.Random(seed)
    await h.service.config_set(GUILD, CHANNELS[1], variant="stud8")
    for channel in CHANNELS:
        await h.service.config_set(GUILD, channel, between_hands_seconds=1)
    for i, user in enumerate(USERS):
        channel = CHANNELS[i % 2]
        await h.service.join(GUILD, channel, user, f"p{user}", rng.choice([100, 150, 400]))
    played = 0
    while played < hands:
        channel = CHANNELS[played % 2]
        table = await h.service.table_view(GUILD, channel)
        if table.hand_id is None:
            seated = [s for s in table.seats if s.stack > 0]
            if len(seated) < 2:  # top up the broke so the table keeps playing
                for s in table.seats:
                    if s.stack == 0:
                        await h.service.leave(GUILD, channel, s.user_id)
                        await h.service.join(GUILD, channel, s.user_id, f"p{s.user_id}", 100)
            await h.service.start(GUILD, channel)
        await play_hand(h, rng=rng, channel=channel)
        played += 1
        if played % 7 == 0:
            await h.advance(DAY / 3)  # hands over several days
        else:
            await h.advance(2)


async def test_rows_match_a_recount_and_reports_add_them_up(tmp_path) -> None:
    h = await make_harness(tmp_path, seed=5)
    try:
        await play_room(h, 40, seed=5)
        finished = await rows(h, "SELECT id FROM hands WHERE status = 'finished' ORDER BY id")
        assert len(finished) >= 40
        stored = await rows(
            h,
            "SELECT hand_id, user_id, seat_no, put_in, won, net, last_street, entered_third,"
            " raised_third, showdown, won_showdown, shown_rank, shown_cards, variant, day"
            " FROM hand_players ORDER BY hand_id, user_id",
        )
        by_hand: dict[int, list[tuple]] = defaultdict(list)
        for row in stored:
            by_hand[row[0]].append(row)
        expected_totals: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0] * 8)
        best_shown: dict[int, tuple[int, str]] = {}  # user -> (rank, name the showdown said)
        for (hand_id,) in finished:
            counted, users = await replayed_facts(h, hand_id)
            got = {row[1]: row for row in by_hand[hand_id]}
            assert set(got) == {users[seat] for seat in counted}
            for seat, want in counted.items():
                row = got[users[seat]]
                assert row[2:13] == (
                    seat,
                    want.put_in,
                    want.won,
                    want.net,
                    want.last_street,
                    int(want.entered_third),
                    int(want.raised_third),
                    int(want.showdown),
                    int(want.won_showdown),
                    want.shown_rank,
                    None if want.shown_cards is None else format_cards(want.shown_cards, False),
                )
                total = expected_totals[(users[seat], row[13])]
                if want.shown_rank is not None and want.shown_name is not None:
                    best = best_shown.get(users[seat])
                    if best is None or want.shown_rank > best[0]:
                        best_shown[users[seat]] = (want.shown_rank, want.shown_name)
                for i, value in enumerate(
                    (
                        1,
                        want.net,
                        want.won > 0,
                        want.entered_third,
                        want.raised_third,
                        want.last_street == 7,
                        want.showdown,
                        want.won_showdown,
                    )
                ):
                    total[i] += int(value)
        # The ledger agrees: each player's nets are his hand_result ledger rows.
        ledger = dict(
            await rows(
                h,
                "SELECT user_id, SUM(delta) FROM ledger WHERE reason = 'hand_result'"
                " GROUP BY user_id",
            )
        )
        nets = dict(await rows(h, "SELECT user_id, SUM(net) FROM hand_players GROUP BY user_id"))
        assert {u: n for u, n in nets.items() if n} == {u: n for u, n in ledger.items() if n}
        # Reports: all time, per variant and overall.
        for user in USERS:
            for variant in (Variant.STUD, Variant.STUD8, None):
                report = await h.service.stats.report(GUILD, user, variant=variant)
                parts = [
                    t
                    for (u, v), t in expected_totals.items()
                    if u == user and (variant is None or v == variant.value)
                ]
                want = [sum(t[i] for t in parts) for i in range(8)]
                got = [
                    report.hands,
                    report.net,
                    report.won_hands,
                    report.entered_third,
                    report.raised_third,
                    report.saw_seventh,
                    report.showdowns,
                    report.won_showdowns,
                ]
                assert got == want, (user, variant)
            report = await h.service.stats.report(GUILD, user)
            shown = best_shown.get(user)
            assert [b.name for b in report.best_hands] == ([] if shown is None else [shown[1]])
        assert any(r.showdowns for r in [await h.service.stats.report(GUILD, u) for u in USERS])
        # Today only: the rows of today's UTC day.
        today = PeriodKeys.at(h.clock.now()).day
        for user in USERS:
            report = await h.service.stats.report(GUILD, user, period=StatsPeriod.TODAY)
            [(count, net)] = await rows(
                h,
                "SELECT COUNT(*), COALESCE(SUM(net), 0) FROM hand_players"
                f" WHERE user_id = {user} AND day = {today}",
            )
            assert (report.hands, report.net) == (count, net)
    finally:
        await h.close()


async def test_the_winnings_board_ranks_table_winnings_only(tmp_path) -> None:
    h = await make_harness(tmp_path, seed=8)
    try:
        await play_room(h, 24, seed=8)
        await wallets_db.admin_give(h.db, GUILD, USERS[0], 50_000)  # not winnings
        for period in StatsPeriod:
            page = await h.service.stats.winnings(GUILD, period)
            key = PeriodKeys.at(h.clock.now())
            column = {"day": "day", "week": "week", "month": "month"}.get(period.value)
            where = "" if column is None else f" WHERE {column} = {key.start(period)}"
            expected = await rows(
                h,
                f"SELECT user_id, SUM(net) FROM hand_players{where}"
                " GROUP BY user_id ORDER BY SUM(net) DESC, user_id",
            )
            assert [(e.user_id, e.net) for e in page.entries] == expected[:10]
            assert page.total_players == len(expected)
            for entry in page.entries:
                ahead = sum(1 for _, net in expected if net > entry.net)
                assert entry.rank == ahead + 1
                mine = await h.service.stats.winnings_rank(GUILD, entry.user_id, period)
                assert mine == entry
        assert await h.service.stats.winnings_rank(GUILD, 999, StatsPeriod.ALL) is None
        assert parse_period(None) is StatsPeriod.ALL
    finally:
        await h.close()


async def test_backfill_writes_what_settlement_wrote(tmp_path) -> None:
    h = await make_harness(tmp_path, seed=11)
    try:
        await play_room(h, 30, seed=11)
        tables = ("hand_players", "player_days", "winnings")
        await fold_pending(h.db)  # the rollups hold every row settled (a read would fold too)
        live = {t: await rows(h, f"SELECT * FROM {t} ORDER BY 1, 2, 3, 4") for t in tables}
        assert live["hand_players"]
        for table in tables:
            await h.db.conn.execute(f"DELETE FROM {table}")
        recorded, skipped = await backfill(h.db, batch=7)
        assert skipped == 0
        assert recorded == len({row[0] for row in live["hand_players"]})
        for table in tables:
            assert await rows(h, f"SELECT * FROM {table} ORDER BY 1, 2, 3, 4") == live[table]
        assert await backfill(h.db) == (0, 0)  # idempotent
        await h.audit_ok()
    finally:
        await h.close()


async def test_a_hand_whose_log_no_longer_replays_is_skipped(tmp_path) -> None:
    h = await make_harness(tmp_path, seed=12)
    try:
        await play_room(h, 3, seed=12)
        [(hand_id,)] = await rows(h, "SELECT MIN(hand_id) FROM hand_players")
        await h.db.conn.execute("DELETE FROM hand_players WHERE hand_id = ?", (hand_id,))
        await h.db.conn.execute("DELETE FROM hand_actions WHERE hand_id = ?", (hand_id,))
        assert await backfill(h.db) == (0, 1)
        assert await rows(h, f"SELECT * FROM hand_players WHERE hand_id = {hand_id}") == []
    finally:
        await h.close()


def test_period_keys_are_utc_calendar_periods() -> None:
    # 2026-12-01 is a Tuesday: its week starts on Monday 2026-11-30.
    tuesday = 1_796_083_200  # 2026-12-01 00:00:00 UTC
    keys = PeriodKeys.at(tuesday + 3600)
    assert keys.day == tuesday // DAY
    assert keys.week == keys.day - 1
    assert keys.month == 2026 * 12 + 11
    assert keys.first_day(StatsPeriod.MONTH) == keys.day
    assert PeriodKeys.at(tuesday - 1).month == 2026 * 12 + 10
    assert PeriodKeys.at(tuesday - 1).week == keys.week  # Monday still the same week
    assert PeriodKeys.at(tuesday - DAY - 1).week == keys.week - 7  # Sunday before


def test_db_upgrade_records_older_hands(tmp_path, capsys) -> None:
    async def played() -> int:
        h = await make_harness(tmp_path, seed=13)
        try:
            await play_room(h, 4, seed=13)
            [(count,)] = await rows(h, "SELECT COUNT(DISTINCT hand_id) FROM hand_players")
            for table in ("hand_players", "player_days", "winnings"):
                await h.db.conn.execute(f"DELETE FROM {table}")
            return int(count)
        finally:
            await h.close()

    count = asyncio.run(played())
    assert count >= 4
    assert cli.main(["--database", str(tmp_path / "t.sqlite3"), "db", "upgrade"]) == 0
    assert f"player stats: {count} older hands recorded" in capsys.readouterr().out
    assert cli.main(["--database", str(tmp_path / "t.sqlite3"), "db", "upgrade"]) == 0
    assert "player stats" not in capsys.readouterr().out  # nothing left to record

"""The stats fold: pending ``hand_players`` rows added to ``player_days`` and ``winnings``.

Settlement appends each hand's rows as pending (:func:`.stats.record_hand`). A fold rolls a
batch of them up and marks them folded, in one transaction (the caller's: every stats read
folds first in its own, so what it answers counts every settled hand). The roll-up is
written here once, in SQL both backends run: per rollup, one ``INSERT ... SELECT ... GROUP
BY ... ON CONFLICT DO UPDATE`` adding the batch's sums to the rows already there (until
migration 0011 it was a trigger per row, written three times over the two dialects).

The batch is named by its hands, listed first: a hand's rows are written in one
transaction (settlement's, or the backfill's), so under PostgreSQL's READ COMMITTED, where
each statement sees what committed before it, rows that land during the fold belong to
hands not listed, and the roll-up and the marking meet exactly the same rows.

House players' rows (negative ids, store/house.py) are marked folded but rolled up nowhere:
no house player has a stats page or a place on a winnings board; the house's result is
read from its rows directly (:func:`.house.book`).
"""

from __future__ import annotations

from functools import cache

from .db import Connection, execute, fetch_all

HANDS_PER_STATEMENT = 256  # one IN list; its length is padded to a power of two

# PostgreSQL: one fold at a time (a transaction lock; the two-key form, apart from the
# leases' and the migrations' one-key locks). Two folds meeting the same rollup rows could
# otherwise take them in opposite orders and deadlock, or both count rows committed in
# between. Taken first, so every statement after it sees what the previous fold committed.
_FOLD_LOCK = "SELECT pg_advisory_xact_lock(1937006962, 9)"
# The partial index hand_players_pending lists them.
_PENDING_HANDS = "SELECT hand_id FROM hand_players WHERE pending = 1 GROUP BY hand_id"

# One row per player, game, day and kind of hand (cash or tournament, migration 0013): sums,
# the biggest pot, and the best hand shown (its cards are the batch's first row with the
# best rank; an earlier best is kept on a tie).
_ROLL_UP_DAYS = """
INSERT INTO player_days (guild_id, user_id, variant, day, tournament, hands, net,
    won_hands, entered_third, raised_third, saw_seventh, showdowns, won_showdowns, biggest_win,
    best_rank, best_cards)
SELECT guild_id, user_id, variant, day, tournament, COUNT(*), SUM(net),
    SUM(CASE WHEN won > 0 THEN 1 ELSE 0 END), SUM(entered_third), SUM(raised_third),
    SUM(CASE WHEN last_street = 7 THEN 1 ELSE 0 END), SUM(showdown), SUM(won_showdown),
    MAX(won), MAX(shown_rank), MAX(CASE WHEN best = 1 THEN shown_cards END)
FROM (SELECT guild_id, user_id, variant, day, tournament, net, won, entered_third,
        raised_third, last_street, showdown, won_showdown, shown_rank, shown_cards,
        ROW_NUMBER() OVER (PARTITION BY guild_id, user_id, variant, day, tournament
            ORDER BY shown_rank IS NULL, shown_rank DESC, hand_id) AS best
    FROM hand_players WHERE pending = 1 AND hand_id IN ({hands}) AND user_id > 0) AS batch
GROUP BY guild_id, user_id, variant, day, tournament
ON CONFLICT (guild_id, user_id, variant, day, tournament) DO UPDATE SET
    hands = player_days.hands + excluded.hands,
    net = player_days.net + excluded.net,
    won_hands = player_days.won_hands + excluded.won_hands,
    entered_third = player_days.entered_third + excluded.entered_third,
    raised_third = player_days.raised_third + excluded.raised_third,
    saw_seventh = player_days.saw_seventh + excluded.saw_seventh,
    showdowns = player_days.showdowns + excluded.showdowns,
    won_showdowns = player_days.won_showdowns + excluded.won_showdowns,
    biggest_win = CASE WHEN excluded.biggest_win > player_days.biggest_win
        THEN excluded.biggest_win ELSE player_days.biggest_win END,
    best_cards = CASE WHEN player_days.best_rank IS NULL
        OR excluded.best_rank > player_days.best_rank
        THEN COALESCE(excluded.best_cards, player_days.best_cards)
        ELSE player_days.best_cards END,
    best_rank = CASE WHEN player_days.best_rank IS NULL
        OR excluded.best_rank > player_days.best_rank
        THEN COALESCE(excluded.best_rank, player_days.best_rank)
        ELSE player_days.best_rank END"""

# One row per player: his current day, week and month (those of his latest hand) and all
# time (see migration 0006). From the batch, each player's latest day, week and month and
# his net and hands in them; merged, a later period replaces the row's, the same one adds to
# it, an earlier one (a late hand: the backfill) leaves it, as if the rows came one by one.
# Cash hands only: tournament chips are not wallet chips (migration 0013).
_ROLL_UP_WINNINGS = """
INSERT INTO winnings (guild_id, user_id, day, day_net, day_hands, week, week_net,
    week_hands, month, month_net, month_hands, all_net, all_hands)
SELECT guild_id, user_id,
    last_day, SUM(CASE WHEN day = last_day THEN net ELSE 0 END),
    SUM(CASE WHEN day = last_day THEN 1 ELSE 0 END),
    last_week, SUM(CASE WHEN week = last_week THEN net ELSE 0 END),
    SUM(CASE WHEN week = last_week THEN 1 ELSE 0 END),
    last_month, SUM(CASE WHEN month = last_month THEN net ELSE 0 END),
    SUM(CASE WHEN month = last_month THEN 1 ELSE 0 END),
    SUM(net), COUNT(*)
FROM (SELECT guild_id, user_id, day, week, month, net, MAX(day) OVER mine AS last_day,
        MAX(week) OVER mine AS last_week, MAX(month) OVER mine AS last_month
    FROM hand_players WHERE pending = 1 AND hand_id IN ({hands}) AND user_id > 0
        AND tournament = 0
    WINDOW mine AS (PARTITION BY guild_id, user_id)) AS batch
GROUP BY guild_id, user_id, last_day, last_week, last_month
ON CONFLICT (guild_id, user_id) DO UPDATE SET
    day_net = CASE WHEN excluded.day > winnings.day THEN excluded.day_net
        WHEN excluded.day = winnings.day THEN winnings.day_net + excluded.day_net
        ELSE winnings.day_net END,
    day_hands = CASE WHEN excluded.day > winnings.day THEN excluded.day_hands
        WHEN excluded.day = winnings.day THEN winnings.day_hands + excluded.day_hands
        ELSE winnings.day_hands END,
    day = CASE WHEN excluded.day > winnings.day THEN excluded.day ELSE winnings.day END,
    week_net = CASE WHEN excluded.week > winnings.week THEN excluded.week_net
        WHEN excluded.week = winnings.week THEN winnings.week_net + excluded.week_net
        ELSE winnings.week_net END,
    week_hands = CASE WHEN excluded.week > winnings.week THEN excluded.week_hands
        WHEN excluded.week = winnings.week THEN winnings.week_hands + excluded.week_hands
        ELSE winnings.week_hands END,
    week = CASE WHEN excluded.week > winnings.week THEN excluded.week ELSE winnings.week END,
    month_net = CASE WHEN excluded.month > winnings.month THEN excluded.month_net
        WHEN excluded.month = winnings.month THEN winnings.month_net + excluded.month_net
        ELSE winnings.month_net END,
    month_hands = CASE WHEN excluded.month > winnings.month THEN excluded.month_hands
        WHEN excluded.month = winnings.month THEN winnings.month_hands + excluded.month_hands
        ELSE winnings.month_hands END,
    month = CASE WHEN excluded.month > winnings.month THEN excluded.month
        ELSE winnings.month END,
    all_net = winnings.all_net + excluded.all_net,
    all_hands = winnings.all_hands + excluded.all_hands"""

_MARK = "UPDATE hand_players SET pending = 0 WHERE pending = 1 AND hand_id IN ({hands})"


@cache
def _statements(size: int) -> tuple[str, str, str]:
    """The roll-ups and the marking for ``size`` hands (a few sizes: few statement texts)."""
    hands = ", ".join("?" for _ in range(size))
    days, winnings, mark = (
        sql.format(hands=hands) for sql in (_ROLL_UP_DAYS, _ROLL_UP_WINNINGS, _MARK)
    )
    return days, winnings, mark


async def fold(conn: Connection) -> int:
    """Roll the pending rows up and mark them folded, in ``conn``'s transaction; how many."""
    if conn.backend == "postgresql":
        await fetch_all(conn, _FOLD_LOCK)
    hands = [int(row[0]) for row in await fetch_all(conn, _PENDING_HANDS)]
    folded = 0
    for start in range(0, len(hands), HANDS_PER_STATEMENT):
        ids = hands[start : start + HANDS_PER_STATEMENT]
        size = 1 << (len(ids) - 1).bit_length()
        ids += ids[-1:] * (size - len(ids))  # a hand twice in an IN list is the same hand
        days, winnings, mark = _statements(size)
        await execute(conn, days, ids)
        await execute(conn, winnings, ids)
        folded += await execute(conn, mark, ids)
    return folded

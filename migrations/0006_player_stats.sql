-- 0006: player statistics. One row per player and finished hand, written in the
-- settlement's transaction (and backfilled by replaying older hands through the engine:
-- dealerbot.tables.stats_record.backfill, run by `dealerbot db upgrade` and at start, because a
-- migration cannot run the engine). Two rollups, kept by the trigger below, answer
-- /stud stats and the winnings leaderboard without reading every hand.
-- Period keys are UTC: day = days since 1970-01-01, week = the day number of its Monday,
-- month = year * 12 + month - 1. A cancelled hand has no rows. A shown hand is kept as its
-- rank (the engine's: higher is better within stud and stud/8, or within razz) and its
-- cards; the engine names it when it is shown. The tables are WITHOUT ROWID (clustered on
-- their key): settlement writes a row and two rollup rows per player, and each b-tree
-- fewer is time saved while the settlement's transaction holds the database.
CREATE TABLE hand_players (
    hand_id       INTEGER NOT NULL REFERENCES hands (id),
    user_id       INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL REFERENCES guilds (guild_id),
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    variant       TEXT    NOT NULL,
    seat_no       INTEGER NOT NULL CHECK (seat_no BETWEEN 0 AND 7),
    put_in        INTEGER NOT NULL CHECK (put_in >= 0),
    won           INTEGER NOT NULL CHECK (won >= 0),
    net           INTEGER NOT NULL,
    last_street   INTEGER NOT NULL CHECK (last_street BETWEEN 3 AND 7),
    entered_third INTEGER NOT NULL CHECK (entered_third IN (0, 1)),
    raised_third  INTEGER NOT NULL CHECK (raised_third IN (0, 1)),
    showdown      INTEGER NOT NULL CHECK (showdown IN (0, 1)),
    won_showdown  INTEGER NOT NULL CHECK (won_showdown IN (0, 1)),
    shown_rank    INTEGER,
    shown_cards   TEXT,
    ended_at      REAL    NOT NULL,
    day           INTEGER NOT NULL,
    week          INTEGER NOT NULL,
    month         INTEGER NOT NULL,
    PRIMARY KEY (hand_id, user_id),
    CHECK (net = won - put_in),
    CHECK ((shown_rank IS NULL) = (shown_cards IS NULL))
) WITHOUT ROWID;

-- /stud stats: one row per player, variant and UTC day; a period is a range of days.
CREATE TABLE player_days (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    day           INTEGER NOT NULL,
    hands         INTEGER NOT NULL,
    net           INTEGER NOT NULL,
    won_hands     INTEGER NOT NULL,
    entered_third INTEGER NOT NULL,
    raised_third  INTEGER NOT NULL,
    saw_seventh   INTEGER NOT NULL,
    showdowns     INTEGER NOT NULL,
    won_showdowns INTEGER NOT NULL,
    biggest_win   INTEGER NOT NULL,
    best_rank     INTEGER,
    best_cards    TEXT,
    PRIMARY KEY (guild_id, user_id, variant, day)
) WITHOUT ROWID;

-- /stud leaderboard by:winnings: net chips won at the tables (daily bonuses and admin grants
-- never get here). One row per player holding his CURRENT day, week and month (the keys of
-- his latest hand) and all time: one upsert per player and hand instead of one per period,
-- and no row per past period. A board for a period reads the rows whose key is that period;
-- a late hand of an earlier period (the backfill) leaves a newer period's sums alone.
CREATE TABLE winnings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    day         INTEGER NOT NULL,
    day_net     INTEGER NOT NULL,
    day_hands   INTEGER NOT NULL,
    week        INTEGER NOT NULL,
    week_net    INTEGER NOT NULL,
    week_hands  INTEGER NOT NULL,
    month       INTEGER NOT NULL,
    month_net   INTEGER NOT NULL,
    month_hands INTEGER NOT NULL,
    all_net     INTEGER NOT NULL,
    all_hands   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
) WITHOUT ROWID;
-- One board per period, each an index: a page is an index range, a rank a count over one.
CREATE INDEX winnings_day ON winnings (guild_id, day, day_net DESC, user_id);
CREATE INDEX winnings_week ON winnings (guild_id, week, week_net DESC, user_id);
CREATE INDEX winnings_month ON winnings (guild_id, month, month_net DESC, user_id);
CREATE INDEX winnings_all ON winnings (guild_id, all_net DESC, user_id);

CREATE TRIGGER hand_players_roll_up AFTER INSERT ON hand_players
BEGIN
    INSERT INTO player_days (guild_id, user_id, variant, day, hands, net, won_hands,
        entered_third, raised_third, saw_seventh, showdowns, won_showdowns, biggest_win,
        best_rank, best_cards)
    VALUES (NEW.guild_id, NEW.user_id, NEW.variant, NEW.day, 1, NEW.net,
        CASE WHEN NEW.won > 0 THEN 1 ELSE 0 END, NEW.entered_third, NEW.raised_third,
        CASE WHEN NEW.last_street = 7 THEN 1 ELSE 0 END, NEW.showdown, NEW.won_showdown,
        NEW.won, NEW.shown_rank, NEW.shown_cards)
    ON CONFLICT (guild_id, user_id, variant, day) DO UPDATE SET
        hands = player_days.hands + 1,
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
            THEN COALESCE(excluded.best_cards, player_days.best_cards) ELSE player_days.best_cards END,
        best_rank = CASE WHEN player_days.best_rank IS NULL
            OR excluded.best_rank > player_days.best_rank
            THEN COALESCE(excluded.best_rank, player_days.best_rank) ELSE player_days.best_rank END;
    INSERT INTO winnings (guild_id, user_id, day, day_net, day_hands, week, week_net,
        week_hands, month, month_net, month_hands, all_net, all_hands)
    VALUES (NEW.guild_id, NEW.user_id, NEW.day, NEW.net, 1, NEW.week, NEW.net, 1, NEW.month,
        NEW.net, 1, NEW.net, 1)
    ON CONFLICT (guild_id, user_id) DO UPDATE SET
        day_net = CASE WHEN excluded.day > winnings.day THEN excluded.day_net
            WHEN excluded.day = winnings.day THEN winnings.day_net + excluded.day_net
            ELSE winnings.day_net END,
        day_hands = CASE WHEN excluded.day > winnings.day THEN 1
            WHEN excluded.day = winnings.day THEN winnings.day_hands + 1
            ELSE winnings.day_hands END,
        day = CASE WHEN excluded.day > winnings.day THEN excluded.day ELSE winnings.day END,
        week_net = CASE WHEN excluded.week > winnings.week THEN excluded.week_net
            WHEN excluded.week = winnings.week THEN winnings.week_net + excluded.week_net
            ELSE winnings.week_net END,
        week_hands = CASE WHEN excluded.week > winnings.week THEN 1
            WHEN excluded.week = winnings.week THEN winnings.week_hands + 1
            ELSE winnings.week_hands END,
        week = CASE WHEN excluded.week > winnings.week THEN excluded.week ELSE winnings.week END,
        month_net = CASE WHEN excluded.month > winnings.month THEN excluded.month_net
            WHEN excluded.month = winnings.month THEN winnings.month_net + excluded.month_net
            ELSE winnings.month_net END,
        month_hands = CASE WHEN excluded.month > winnings.month THEN 1
            WHEN excluded.month = winnings.month THEN winnings.month_hands + 1
            ELSE winnings.month_hands END,
        month = CASE WHEN excluded.month > winnings.month THEN excluded.month ELSE winnings.month END,
        all_net = winnings.all_net + excluded.all_net,
        all_hands = winnings.all_hands + 1;
END;

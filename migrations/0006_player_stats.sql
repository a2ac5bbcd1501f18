-- 0006: player statistics. One row per player and finished hand, written in the
-- settlement's transaction (and backfilled by replaying older hands through the engine:
-- dealerbot.tables.stats_record.backfill, run by `dealerbot db upgrade` and at start, because a
-- migration cannot run the engine). Two rollups, kept by the trigger below, answer
-- /stud stats and the winnings leaderboard without reading every hand.
-- Period keys are UTC: day = days since 1970-01-01, week = the day number of its Monday,
-- month = year * 12 + month - 1. A cancelled hand has no rows. A shown hand is kept as its
-- rank (the engine's: higher is better within stud and stud/8, or within razz) and its
-- cards; the engine names it when it is shown. The tables are WITHOUT ROWID (clustered on
-- their key): settlement writes a row and five rollup rows per player, and each b-tree
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

-- /stud leaderboard by:winnings: net chips won at the tables per period (daily bonuses and
-- admin grants never get here). period_start: the day, week or month key; 0 for 'all'.
CREATE TABLE winnings (
    guild_id     INTEGER NOT NULL,
    period       TEXT    NOT NULL CHECK (period IN ('day', 'week', 'month', 'all')),
    period_start INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    net          INTEGER NOT NULL,
    hands        INTEGER NOT NULL,
    PRIMARY KEY (guild_id, period, period_start, user_id)
) WITHOUT ROWID;
-- The board walks this index: a page is an index range, a rank a count over one.
CREATE INDEX winnings_board ON winnings (guild_id, period, period_start, net DESC, user_id);

-- Settlement carries the rows in the hand's result (result_json's "stats": one array per
-- player, in hand_players' column order from user_id, see dealerbot.store.stats), so the
-- UPDATE that finishes the hand files them here: no statement of its own, one round trip
-- less while the settlement holds the database.
CREATE TRIGGER hands_finished_stats AFTER UPDATE OF status ON hands
WHEN NEW.status = 'finished' AND OLD.status <> 'finished'
    AND json_type(NEW.result_json, '$.stats') = 'array'
BEGIN
    INSERT INTO hand_players (hand_id, user_id, guild_id, table_id, variant, seat_no, put_in,
        won, net, last_street, entered_third, raised_third, showdown, won_showdown,
        shown_rank, shown_cards, ended_at, day, week, month)
    SELECT NEW.id, r.value ->> 0, t.guild_id, NEW.table_id, r.value ->> 1, r.value ->> 2,
        r.value ->> 3, r.value ->> 4, r.value ->> 5, r.value ->> 6, r.value ->> 7,
        r.value ->> 8, r.value ->> 9, r.value ->> 10, r.value ->> 11, r.value ->> 12,
        r.value ->> 13, r.value ->> 14, r.value ->> 15, r.value ->> 16
    FROM json_each(NEW.result_json, '$.stats') AS r JOIN tables AS t ON t.id = NEW.table_id;
END;

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
    INSERT INTO winnings (guild_id, period, period_start, user_id, net, hands)
    VALUES (NEW.guild_id, 'day', NEW.day, NEW.user_id, NEW.net, 1),
           (NEW.guild_id, 'week', NEW.week, NEW.user_id, NEW.net, 1),
           (NEW.guild_id, 'month', NEW.month, NEW.user_id, NEW.net, 1),
           (NEW.guild_id, 'all', 0, NEW.user_id, NEW.net, 1)
    ON CONFLICT (guild_id, period, period_start, user_id) DO UPDATE SET
        net = winnings.net + excluded.net,
        hands = winnings.hands + 1;
END;

-- 0006 (PostgreSQL), as ../0006_player_stats.sql: player statistics. One row per player
-- and finished hand, written in the settlement's transaction (older hands are backfilled
-- by dealerbot.tables.stats_record.backfill); two rollups kept by a trigger answer
-- /stud stats and the winnings leaderboard. Period keys are UTC: day = days since
-- 1970-01-01, week = the day number of its Monday, month = year * 12 + month - 1.
-- A cancelled hand has no rows. A shown hand is kept as its engine rank and its cards.
-- (SQLite's tables are WITHOUT ROWID; PostgreSQL tables have no rowid to drop.)
CREATE TABLE hand_players (
    hand_id       BIGINT           NOT NULL REFERENCES hands (id),
    user_id       BIGINT           NOT NULL,
    guild_id      BIGINT           NOT NULL REFERENCES guilds (guild_id),
    table_id      BIGINT           NOT NULL REFERENCES tables (id),
    variant       TEXT             NOT NULL,
    seat_no       INTEGER          NOT NULL CHECK (seat_no BETWEEN 0 AND 7),
    put_in        BIGINT           NOT NULL CHECK (put_in >= 0),
    won           BIGINT           NOT NULL CHECK (won >= 0),
    net           BIGINT           NOT NULL,
    last_street   INTEGER          NOT NULL CHECK (last_street BETWEEN 3 AND 7),
    entered_third INTEGER          NOT NULL CHECK (entered_third IN (0, 1)),
    raised_third  INTEGER          NOT NULL CHECK (raised_third IN (0, 1)),
    showdown      INTEGER          NOT NULL CHECK (showdown IN (0, 1)),
    won_showdown  INTEGER          NOT NULL CHECK (won_showdown IN (0, 1)),
    shown_rank    BIGINT,
    shown_cards   TEXT,
    ended_at      DOUBLE PRECISION NOT NULL,
    day           INTEGER          NOT NULL,
    week          INTEGER          NOT NULL,
    month         INTEGER          NOT NULL,
    PRIMARY KEY (hand_id, user_id),
    CHECK (net = won - put_in),
    CHECK ((shown_rank IS NULL) = (shown_cards IS NULL))
);

CREATE TABLE player_days (
    guild_id      BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    variant       TEXT    NOT NULL,
    day           INTEGER NOT NULL,
    hands         BIGINT  NOT NULL,
    net           BIGINT  NOT NULL,
    won_hands     BIGINT  NOT NULL,
    entered_third BIGINT  NOT NULL,
    raised_third  BIGINT  NOT NULL,
    saw_seventh   BIGINT  NOT NULL,
    showdowns     BIGINT  NOT NULL,
    won_showdowns BIGINT  NOT NULL,
    biggest_win   BIGINT  NOT NULL,
    best_rank     BIGINT,
    best_cards    TEXT,
    PRIMARY KEY (guild_id, user_id, variant, day)
);

-- One row per player: his current day, week, month and all time (see ../0006).
CREATE TABLE winnings (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    day         INTEGER NOT NULL,
    day_net     BIGINT  NOT NULL,
    day_hands   BIGINT  NOT NULL,
    week        INTEGER NOT NULL,
    week_net    BIGINT  NOT NULL,
    week_hands  BIGINT  NOT NULL,
    month       INTEGER NOT NULL,
    month_net   BIGINT  NOT NULL,
    month_hands BIGINT  NOT NULL,
    all_net     BIGINT  NOT NULL,
    all_hands   BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
-- One board per period, each an index: a page is an index range, a rank a count over one.
CREATE INDEX winnings_day ON winnings (guild_id, day, day_net DESC, user_id);
CREATE INDEX winnings_week ON winnings (guild_id, week, week_net DESC, user_id);
CREATE INDEX winnings_month ON winnings (guild_id, month, month_net DESC, user_id);
CREATE INDEX winnings_all ON winnings (guild_id, all_net DESC, user_id);

CREATE FUNCTION hand_players_roll_up() RETURNS trigger LANGUAGE plpgsql AS $$
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
    RETURN NULL;
END;
$$;

CREATE TRIGGER hand_players_roll_up AFTER INSERT ON hand_players
    FOR EACH ROW EXECUTE FUNCTION hand_players_roll_up();

-- 0006 (PostgreSQL), as ../0006_player_stats.sql: player statistics. One row per player
-- and finished hand, written in the settlement's transaction (older hands are backfilled
-- by dealerbot.tables.stats_record.backfill); two rollups kept by a trigger answer
-- /stud stats and the winnings leaderboard. Period keys are UTC: day = days since
-- 1970-01-01, week = the day number of its Monday, month = year * 12 + month - 1.
-- A cancelled hand has no rows. A shown hand is kept as its engine rank and its cards.
-- Settlement carries the rows in the hand's result (result_json's "stats"), and the UPDATE
-- that finishes the hand files them (hands_finished_stats): no round trip of their own.
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

CREATE TABLE winnings (
    guild_id     BIGINT  NOT NULL,
    period       TEXT    NOT NULL CHECK (period IN ('day', 'week', 'month', 'all')),
    period_start INTEGER NOT NULL,
    user_id      BIGINT  NOT NULL,
    net          BIGINT  NOT NULL,
    hands        BIGINT  NOT NULL,
    PRIMARY KEY (guild_id, period, period_start, user_id)
);
CREATE INDEX winnings_board ON winnings (guild_id, period, period_start, net DESC, user_id);

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
    INSERT INTO winnings (guild_id, period, period_start, user_id, net, hands)
    VALUES (NEW.guild_id, 'day', NEW.day, NEW.user_id, NEW.net, 1),
           (NEW.guild_id, 'week', NEW.week, NEW.user_id, NEW.net, 1),
           (NEW.guild_id, 'month', NEW.month, NEW.user_id, NEW.net, 1),
           (NEW.guild_id, 'all', 0, NEW.user_id, NEW.net, 1)
    ON CONFLICT (guild_id, period, period_start, user_id) DO UPDATE SET
        net = winnings.net + excluded.net,
        hands = winnings.hands + 1;
    RETURN NULL;
END;
$$;

CREATE TRIGGER hand_players_roll_up AFTER INSERT ON hand_players
    FOR EACH ROW EXECUTE FUNCTION hand_players_roll_up();

CREATE FUNCTION hands_finished_stats() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.status = 'finished' AND OLD.status <> 'finished'
        AND jsonb_typeof(NEW.result_json::jsonb -> 'stats') = 'array' THEN
        INSERT INTO hand_players (hand_id, user_id, guild_id, table_id, variant, seat_no,
            put_in, won, net, last_street, entered_third, raised_third, showdown, won_showdown,
            shown_rank, shown_cards, ended_at, day, week, month)
        SELECT NEW.id, (r ->> 0)::bigint, t.guild_id, NEW.table_id, r ->> 1, (r ->> 2)::integer,
            (r ->> 3)::bigint, (r ->> 4)::bigint, (r ->> 5)::bigint, (r ->> 6)::integer,
            (r ->> 7)::integer, (r ->> 8)::integer, (r ->> 9)::integer, (r ->> 10)::integer,
            (r ->> 11)::bigint, r ->> 12, (r ->> 13)::double precision, (r ->> 14)::integer,
            (r ->> 15)::integer, (r ->> 16)::integer
        FROM jsonb_array_elements(NEW.result_json::jsonb -> 'stats') AS r
        JOIN tables AS t ON t.id = NEW.table_id;
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER hands_finished_stats AFTER UPDATE OF status ON hands
    FOR EACH ROW EXECUTE FUNCTION hands_finished_stats();

-- 0009: settlement appends the stats rows; the rollups are folded in batches, off it.
-- 0006's trigger rolled each new hand_players row up at once: two upserts per player in the
-- settlement's transaction, and six more b-tree pages per player to write at its commit
-- (player_days, winnings and its four board indexes; measured in benchmarks/bench_stats.py).
-- Now a row written at settlement is PENDING (pending = 1; the partial index lists those):
-- the rollups take it when it is folded, UPDATE ... SET pending = 0 (store/stats.py
-- fold_pending: before every stats or board read, in the read's own transaction, so
-- what players see is exact; and by the table service every few hands, after a
-- settlement's transaction). The fold runs the same rollup as before, row by row; a batch
-- writes each rollup page once. A row inserted as already folded (pending = 0: the
-- default, and every row before this migration) is rolled up at once, as before.
ALTER TABLE hand_players ADD COLUMN pending INTEGER NOT NULL DEFAULT 0
    CHECK (pending IN (0, 1));
CREATE INDEX hand_players_pending ON hand_players (hand_id) WHERE pending = 1;

DROP TRIGGER hand_players_roll_up;
CREATE TRIGGER hand_players_roll_up AFTER INSERT ON hand_players WHEN NEW.pending = 0
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

CREATE TRIGGER hand_players_fold AFTER UPDATE OF pending ON hand_players
    WHEN OLD.pending = 1 AND NEW.pending = 0
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

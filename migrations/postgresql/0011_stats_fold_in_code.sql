-- 0011 (PostgreSQL), as ../0011_stats_fold_in_code.sql: the stats rollups are kept by the
-- store's code (dealerbot/store/rollups.py, the same SQL on both backends), not by 0006's
-- trigger function and 0009's two triggers; both go.
DROP TRIGGER hand_players_roll_up ON hand_players;
DROP TRIGGER hand_players_fold ON hand_players;
DROP FUNCTION hand_players_roll_up();

-- 0009 (PostgreSQL), as ../0009_stats_pending.sql: settlement appends the stats rows as
-- pending; the rollups (0006's function, unchanged) take a row when it is folded (UPDATE
-- ... SET pending = 0: before every stats or board read, in its transaction, and by the
-- table service every few hands); a row inserted as already folded is rolled up at once.
ALTER TABLE hand_players ADD COLUMN pending INTEGER NOT NULL DEFAULT 0
    CHECK (pending IN (0, 1));
CREATE INDEX hand_players_pending ON hand_players (hand_id) WHERE pending = 1;

DROP TRIGGER hand_players_roll_up ON hand_players;
CREATE TRIGGER hand_players_roll_up AFTER INSERT ON hand_players
    FOR EACH ROW WHEN (NEW.pending = 0) EXECUTE FUNCTION hand_players_roll_up();
CREATE TRIGGER hand_players_fold AFTER UPDATE OF pending ON hand_players
    FOR EACH ROW WHEN (OLD.pending = 1 AND NEW.pending = 0) EXECUTE FUNCTION hand_players_roll_up();

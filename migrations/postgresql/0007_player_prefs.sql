-- 0007 (PostgreSQL), as ../0007_player_prefs.sql: a player's own settings of the front
-- end, one row per user (all servers). turn_alerts: a DM when his turn has waited a few
-- seconds (/stud alerts on|off); no row means on, so existing players need no backfill.
CREATE TABLE player_prefs (
    user_id     BIGINT           NOT NULL PRIMARY KEY CHECK (user_id > 0),
    turn_alerts INTEGER          NOT NULL DEFAULT 1 CHECK (turn_alerts IN (0, 1)),
    updated_at  DOUBLE PRECISION NOT NULL
);

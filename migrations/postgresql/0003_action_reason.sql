-- 0003 (PostgreSQL), as ../0003_action_reason.sql: why the service took an action for a
-- player (timeout, leaving, away) is its own column, NULL when the player acted himself;
-- the action column holds the action alone. Older 'fold:timeout' rows are split once, here.
ALTER TABLE hand_actions ADD COLUMN reason TEXT CHECK (reason IN ('timeout', 'leaving', 'away'));

UPDATE hand_actions
SET reason = split_part(action, ':', 2),
    action = split_part(action, ':', 1)
WHERE strpos(action, ':') > 0;

-- 0003: why the service took an action for a player (timeout, leaving, away) is its own
-- column, NULL when the player acted himself; the action column holds the action alone.
-- Actions logged before this migration as 'fold:timeout' are split once, here.
ALTER TABLE hand_actions ADD COLUMN reason TEXT CHECK (reason IN ('timeout', 'leaving', 'away'));

UPDATE hand_actions
SET reason = substr(action, instr(action, ':') + 1),
    action = substr(action, 1, instr(action, ':') - 1)
WHERE instr(action, ':') > 0;

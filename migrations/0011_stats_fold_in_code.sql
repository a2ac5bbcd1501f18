-- 0011: the stats rollups are kept by the store's code, not by triggers. 0006 and 0009 rolled
-- each hand_players row up row by row in a trigger (on insert of a folded row, on the fold's
-- UPDATE ... SET pending = 0), written out three times over the two dialects. The fold is
-- now dealerbot/store/rollups.py: one INSERT ... SELECT ... GROUP BY ... ON CONFLICT DO
-- UPDATE per rollup, written once for both backends, run in the fold's transaction before it
-- marks the rows folded. Rows still pending are folded by it as before; rows already folded
-- are in the rollups already. A row inserted as folded (pending = 0) is no longer rolled up:
-- the store writes every row pending (record_hand: settlement and the backfill).
DROP TRIGGER hand_players_roll_up;
DROP TRIGGER hand_players_fold;

-- 0005 (PostgreSQL), as ../0005_hand_pruned.sql: when retention deleted a hand's action
-- log and overwrote its deck and salts (the row, seats, result and ledger rows stay).
ALTER TABLE hands ADD COLUMN pruned_at DOUBLE PRECISION;

-- 0004 (PostgreSQL), as ../0004_merkle_commitment.sql: every hand says which scheme its
-- commitment follows; older hands keep 'sha256-deck'. A 'dealerbot-merkle-v1' hand keeps
-- its 52 per-position salts in deck_salts (32 hex characters each, in deck order) and an
-- empty salt_hex.
ALTER TABLE hands ADD COLUMN commitment_scheme TEXT NOT NULL DEFAULT 'sha256-deck'
    CHECK (commitment_scheme IN ('sha256-deck', 'dealerbot-merkle-v1'));
ALTER TABLE hands ADD COLUMN deck_salts TEXT
    CHECK (deck_salts IS NULL OR length(deck_salts) = 1664);

-- 0004: proofs of a fair deal (FAIRNESS.md, scheme dealerbot-merkle-v1). Every hand says
-- which scheme its commitment follows. Hands logged before this migration keep
-- 'sha256-deck' (one salt, SHA-256 over the whole deck: it cannot be checked without
-- revealing every card, folded ones included). A 'dealerbot-merkle-v1' hand keeps its 52
-- per-position salts in deck_salts (32 hex characters each, in deck order) and an empty
-- salt_hex; like the deck, they never leave the store except as proofs of single cards.
ALTER TABLE hands ADD COLUMN commitment_scheme TEXT NOT NULL DEFAULT 'sha256-deck'
    CHECK (commitment_scheme IN ('sha256-deck', 'dealerbot-merkle-v1'));
ALTER TABLE hands ADD COLUMN deck_salts TEXT
    CHECK (deck_salts IS NULL OR length(deck_salts) = 1664);

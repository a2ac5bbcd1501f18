-- 0016 (PostgreSQL), as ../0016_deck.sql: how cards are drawn (issue 19). table_configs.deck:
-- the table message's deck; player_prefs.deck: what a player sees in private (NULL: he
-- chose nothing, the default deck). No backfill: the defaults mean what they meant before.
ALTER TABLE table_configs ADD COLUMN deck TEXT NOT NULL DEFAULT 'classic'
    CHECK (deck IN ('classic', 'four-colour', 'text'));
ALTER TABLE player_prefs ADD COLUMN deck TEXT
    CHECK (deck IS NULL OR deck IN ('classic', 'four-colour', 'text'));

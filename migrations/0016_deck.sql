-- 0016: how cards are drawn (issue 19, picture cards). table_configs.deck: the table
-- message's deck ('classic', 'four-colour' or 'text'), set by /stud-admin config deck:;
-- player_prefs.deck: what a player sees in private (DMs, his answers), set by /stud deck;
-- NULL: he chose nothing (the default deck). Existing rows need no backfill: a column
-- default and NULL mean what they meant before (the classic picture deck, which falls back
-- to text cards while the card emoji are not uploaded).
ALTER TABLE table_configs ADD COLUMN deck TEXT NOT NULL DEFAULT 'classic'
    CHECK (deck IN ('classic', 'four-colour', 'text'));
ALTER TABLE player_prefs ADD COLUMN deck TEXT
    CHECK (deck IS NULL OR deck IN ('classic', 'four-colour', 'text'));

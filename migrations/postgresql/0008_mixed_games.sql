-- 0008 (PostgreSQL), as ../0008_mixed_games.sql: mixed stud games (issue 10, R15.1).
-- 'razz' becomes a game; `game` is the table's setting (one game, 'mix' or 'choice'),
-- `games` the rotation list, `hands_per_game` N, `choice_seconds` the button player's time
-- to pick. Existing rows keep their game (game = variant).
ALTER TABLE table_configs DROP CONSTRAINT table_configs_variant_check;
ALTER TABLE table_configs ADD CONSTRAINT table_configs_variant_check
    CHECK (variant IN ('stud', 'stud8', 'razz'));
ALTER TABLE table_configs ADD COLUMN game TEXT NOT NULL DEFAULT 'stud'
    CHECK (game IN ('stud', 'stud8', 'razz', 'mix', 'choice'));
ALTER TABLE table_configs ADD COLUMN games TEXT NOT NULL DEFAULT 'stud,razz,stud8'
    CHECK (games <> '');
ALTER TABLE table_configs ADD COLUMN hands_per_game INTEGER NOT NULL DEFAULT 8
    CHECK (hands_per_game BETWEEN 1 AND 50);
ALTER TABLE table_configs ADD COLUMN choice_seconds INTEGER NOT NULL DEFAULT 20
    CHECK (choice_seconds BETWEEN 5 AND 120);
UPDATE table_configs SET game = variant;

-- Where each table is in its rotation (a restart resumes it).
CREATE TABLE table_rotations (
    table_id     BIGINT           NOT NULL PRIMARY KEY REFERENCES tables (id),
    game         TEXT             NOT NULL CHECK (game IN ('stud', 'stud8', 'razz')),
    hands_played INTEGER          NOT NULL CHECK (hands_played >= 0),
    chosen       INTEGER          NOT NULL DEFAULT 0 CHECK (chosen IN (0, 1)),
    updated_at   DOUBLE PRECISION NOT NULL
);

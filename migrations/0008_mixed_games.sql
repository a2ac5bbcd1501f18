-- 0008: mixed stud games (issue 10, R15.1).
-- table_configs: 'razz' becomes a game; `game` is the table's setting (one game, 'mix' or
-- 'choice'), `games` the rotation list (comma-separated, in order), `hands_per_game` N,
-- `choice_seconds` how long the button player has to pick. `variant` stays the game a
-- fixed table deals (for mix and choice: the list's first). SQLite cannot change a CHECK,
-- so the table is rebuilt; existing rows keep their game (game = variant).
CREATE TABLE table_configs_0008 (
    guild_id              INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id            INTEGER NOT NULL,
    variant               TEXT    NOT NULL CHECK (variant IN ('stud', 'stud8', 'razz')),
    ante                  INTEGER NOT NULL,
    bring_in              INTEGER NOT NULL,
    small_bet             INTEGER NOT NULL,
    min_buyin             INTEGER NOT NULL,
    max_buyin             INTEGER NOT NULL,
    seats                 INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 8),
    turn_seconds          INTEGER NOT NULL,
    between_hands_seconds INTEGER NOT NULL,
    time_bank_seconds     INTEGER NOT NULL,
    updated_at            REAL    NOT NULL,
    game                  TEXT    NOT NULL DEFAULT 'stud'
                                  CHECK (game IN ('stud', 'stud8', 'razz', 'mix', 'choice')),
    games                 TEXT    NOT NULL DEFAULT 'stud,razz,stud8' CHECK (games <> ''),
    hands_per_game        INTEGER NOT NULL DEFAULT 8 CHECK (hands_per_game BETWEEN 1 AND 50),
    choice_seconds        INTEGER NOT NULL DEFAULT 20 CHECK (choice_seconds BETWEEN 5 AND 120),
    PRIMARY KEY (guild_id, channel_id)
);
INSERT INTO table_configs_0008 (guild_id, channel_id, variant, ante, bring_in, small_bet,
    min_buyin, max_buyin, seats, turn_seconds, between_hands_seconds, time_bank_seconds,
    updated_at, game)
SELECT guild_id, channel_id, variant, ante, bring_in, small_bet, min_buyin, max_buyin, seats,
    turn_seconds, between_hands_seconds, time_bank_seconds, updated_at, variant
FROM table_configs;
DROP TABLE table_configs;
ALTER TABLE table_configs_0008 RENAME TO table_configs;

-- Where each table is in its rotation, so that a restart resumes it: the game being played,
-- hands dealt in it, and (dealer's choice) whether the current stint was picked.
CREATE TABLE table_rotations (
    table_id     INTEGER NOT NULL PRIMARY KEY REFERENCES tables (id),
    game         TEXT    NOT NULL CHECK (game IN ('stud', 'stud8', 'razz')),
    hands_played INTEGER NOT NULL CHECK (hands_played >= 0),
    chosen       INTEGER NOT NULL DEFAULT 0 CHECK (chosen IN (0, 1)),
    updated_at   REAL    NOT NULL
);

-- 0013: Sit & Go tournaments (issue 18).
-- A tournament is played at its channel's table row (its hands are that table's hands, with
-- the tournament's id and level); one live tournament per channel. Its prize pool is a
-- ledger account: a buy-in is a wallet row -X and a 'pool' row +X in one transaction, a
-- refund or a prize the other way; tournaments.pool is kept with those rows, as a wallet's
-- chips are. Tournament chips are no ledger chips: an entry's stack, changed when a
-- tournament hand settles (tournament_entries), never counted in a wallet or net worth.
CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY,
    guild_id       INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id     INTEGER NOT NULL,
    table_id       INTEGER NOT NULL REFERENCES tables (id),
    settings_json  TEXT    NOT NULL,  -- TournamentSettings.to_dict()
    seats          INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 8),
    buy_in         INTEGER NOT NULL CHECK (buy_in >= 1),
    starting_chips INTEGER NOT NULL CHECK (starting_chips >= 1),
    status         TEXT    NOT NULL DEFAULT 'registering'
                           CHECK (status IN ('registering', 'running', 'paused', 'finished',
                                             'cancelled')),
    pool           INTEGER NOT NULL DEFAULT 0 CHECK (pool >= 0),  -- the pool's ledger rows
    entrants       INTEGER NOT NULL DEFAULT 0 CHECK (entrants >= 0),  -- fixed at the start
    clock_json     TEXT,  -- LevelClock.to_dict(), from the start on
    button_seat    INTEGER CHECK (button_seat BETWEEN 0 AND 7),
    created_by     INTEGER NOT NULL,
    created_at     REAL    NOT NULL,
    started_at     REAL,
    ended_at       REAL,
    note           TEXT    NOT NULL DEFAULT '',  -- why it was cancelled
    message_id     INTEGER  -- the front end's lobby message
);
CREATE UNIQUE INDEX tournaments_live_in_channel ON tournaments (guild_id, channel_id)
    WHERE status IN ('registering', 'running', 'paused');

-- One row per player: his seat and stack from the start, his flags (as a seat's), and once
-- out his place (``shares``: the places his tie group shares, "3,4") and what the pool paid
-- him (prize, or refund: a buy-in back, or his share of a cancelled tournament's pool).
CREATE TABLE tournament_entries (
    tournament_id        INTEGER NOT NULL REFERENCES tournaments (id),
    user_id              INTEGER NOT NULL,
    guild_id             INTEGER NOT NULL,
    display_name         TEXT    NOT NULL,
    status               TEXT    NOT NULL DEFAULT 'registered'
                                 CHECK (status IN ('registered', 'playing', 'busted',
                                                   'forfeited')),
    seat_no              INTEGER CHECK (seat_no BETWEEN 0 AND 7),
    stack                INTEGER NOT NULL DEFAULT 0 CHECK (stack >= 0),
    sitting_out          INTEGER NOT NULL DEFAULT 0 CHECK (sitting_out IN (0, 1)),
    consecutive_timeouts INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_timeouts >= 0),
    time_bank_seconds    REAL    NOT NULL DEFAULT 0 CHECK (time_bank_seconds >= 0),
    forfeit              INTEGER NOT NULL DEFAULT 0 CHECK (forfeit IN (0, 1)),
    place                INTEGER CHECK (place >= 1),
    shares               TEXT,
    prize                INTEGER NOT NULL DEFAULT 0 CHECK (prize >= 0),
    refund               INTEGER NOT NULL DEFAULT 0 CHECK (refund >= 0),
    registered_at        REAL    NOT NULL,
    finished_at          REAL,
    PRIMARY KEY (tournament_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES wallets (guild_id, user_id)
);
CREATE UNIQUE INDEX tournament_entries_seat ON tournament_entries (tournament_id, seat_no)
    WHERE seat_no IS NOT NULL;
-- A place is decided once: its prize is paid in the transaction that writes it.
CREATE UNIQUE INDEX tournament_entries_place ON tournament_entries (tournament_id, place)
    WHERE place IS NOT NULL;
CREATE INDEX tournament_entries_by_user ON tournament_entries (guild_id, user_id);

-- The ledger gains the 'pool' account (with tournament_id) and the 'prize' reason; a wallet
-- row of a tournament's buy-in, refund or prize carries the tournament too. SQLite cannot
-- change a CHECK, so the table is rebuilt (rows, ids and append-only triggers kept).
CREATE TABLE ledger_0013 (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id       INTEGER NOT NULL,
    account       TEXT    NOT NULL CHECK (account IN ('wallet', 'table', 'pool')),
    table_id      INTEGER REFERENCES tables (id),
    delta         INTEGER NOT NULL CHECK (delta != 0 OR reason = 'refund'),
    reason        TEXT    NOT NULL CHECK (reason IN
                      ('grant', 'daily', 'buy_in', 'cash_out', 'hand_result', 'admin', 'refund',
                       'prize')),
    hand_id       INTEGER REFERENCES hands (id),
    created_at    REAL    NOT NULL,
    note          TEXT    NOT NULL DEFAULT '',
    tournament_id INTEGER REFERENCES tournaments (id),
    CHECK ((account = 'table') = (table_id IS NOT NULL)),
    CHECK (account <> 'pool' OR tournament_id IS NOT NULL)
);
INSERT INTO ledger_0013 (id, guild_id, user_id, account, table_id, delta, reason, hand_id,
    created_at, note)
SELECT id, guild_id, user_id, account, table_id, delta, reason, hand_id, created_at, note
FROM ledger;
DROP TABLE ledger;
ALTER TABLE ledger_0013 RENAME TO ledger;
CREATE INDEX ledger_by_user ON ledger (guild_id, user_id, id);
CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL;
CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;
CREATE INDEX ledger_by_tournament ON ledger (tournament_id, user_id)
    WHERE tournament_id IS NOT NULL;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- A tournament hand: its tournament and the level it was dealt at (the PokerStars header's
-- "Level IV"); its stakes are in config_json as a cash hand's.
ALTER TABLE hands ADD COLUMN tournament_id INTEGER REFERENCES tournaments (id);
ALTER TABLE hands ADD COLUMN tournament_level INTEGER CHECK (tournament_level >= 1);

-- Stats keep tournament hands apart from cash hands: a flag on each player's row and in the
-- day rollup's key (its rows are copied into a new table: neither backend can change a
-- primary key's columns in place, and the new column goes beside the key, before the sums:
-- SQLite 3.40's integrity_check misreads a WITHOUT ROWID table whose key column comes after
-- the others); the winnings board counts cash hands only (tournament chips are not wallet
-- chips).
ALTER TABLE hand_players ADD COLUMN tournament INTEGER NOT NULL DEFAULT 0
    CHECK (tournament IN (0, 1));
CREATE TABLE player_days_0013 (
    guild_id      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    variant       TEXT    NOT NULL,
    day           INTEGER NOT NULL,
    tournament    INTEGER NOT NULL DEFAULT 0 CHECK (tournament IN (0, 1)),
    hands         INTEGER NOT NULL,
    net           INTEGER NOT NULL,
    won_hands     INTEGER NOT NULL,
    entered_third INTEGER NOT NULL,
    raised_third  INTEGER NOT NULL,
    saw_seventh   INTEGER NOT NULL,
    showdowns     INTEGER NOT NULL,
    won_showdowns INTEGER NOT NULL,
    biggest_win   INTEGER NOT NULL,
    best_rank     INTEGER,
    best_cards    TEXT,
    PRIMARY KEY (guild_id, user_id, variant, day, tournament)
) WITHOUT ROWID;
INSERT INTO player_days_0013 (guild_id, user_id, variant, day, hands, net, won_hands,
    entered_third, raised_third, saw_seventh, showdowns, won_showdowns, biggest_win,
    best_rank, best_cards)
SELECT guild_id, user_id, variant, day, hands, net, won_hands, entered_third, raised_third,
    saw_seventh, showdowns, won_showdowns, biggest_win, best_rank, best_cards
FROM player_days;
DROP TABLE player_days;
ALTER TABLE player_days_0013 RENAME TO player_days;

-- 0001: the whole card room: guilds, wallets, append-only ledger, table configuration,
-- tables and seats, the hand log. Run by dealerbot.store.migrate inside
-- BEGIN; <this file>; PRAGMA user_version = 1; COMMIT;  (no BEGIN/COMMIT here).

-- Each Discord server is its own economy.
CREATE TABLE guilds (
    guild_id               INTEGER PRIMARY KEY,
    starting_chips         INTEGER NOT NULL CHECK (starting_chips >= 0),
    daily_chips            INTEGER NOT NULL CHECK (daily_chips >= 0),
    daily_cooldown_seconds INTEGER NOT NULL CHECK (daily_cooldown_seconds > 0),
    wallet_count           INTEGER NOT NULL DEFAULT 0 CHECK (wallet_count >= 0),  -- by trigger
    created_at             REAL    NOT NULL
);

-- chips: in the wallet. table_chips: sum of this user's seat stacks in this guild,
-- maintained by the seat triggers below so it changes in the same transaction as a stack.
-- net_worth = chips + table_chips, materialised (every UPDATE sets it; the CHECK refuses one
-- that forgets) because a plain column lets the leaderboard index cover rank counts, which a
-- generated column does not.
CREATE TABLE wallets (
    guild_id      INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id       INTEGER NOT NULL,
    chips         INTEGER NOT NULL CHECK (chips >= 0),
    table_chips   INTEGER NOT NULL DEFAULT 0 CHECK (table_chips >= 0),
    net_worth     INTEGER NOT NULL,
    last_daily_at REAL,
    created_at    REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id),
    CHECK (net_worth = chips + table_chips)
);
-- The leaderboard walks this index: top N, paging, and rank counting are index ranges.
CREATE INDEX wallets_leaderboard ON wallets (guild_id, net_worth DESC, user_id);

-- The leaderboard's page count, without counting 100,000 index entries each time.
CREATE TRIGGER wallets_count_insert AFTER INSERT ON wallets
BEGIN
    UPDATE guilds SET wallet_count = wallet_count + 1 WHERE guild_id = NEW.guild_id;
END;

CREATE TRIGGER wallets_count_delete AFTER DELETE ON wallets
BEGIN
    UPDATE guilds SET wallet_count = wallet_count - 1 WHERE guild_id = OLD.guild_id;
END;

-- Configuration rows are whole configs. channel_id = 0 holds the guild's table defaults.
CREATE TABLE table_configs (
    guild_id              INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id            INTEGER NOT NULL,
    variant               TEXT    NOT NULL CHECK (variant IN ('stud', 'stud8')),
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
    PRIMARY KEY (guild_id, channel_id)
);

-- One row per channel; a closed table is reopened rather than recreated.
CREATE TABLE tables (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closing', 'closed')),
    button_seat INTEGER CHECK (button_seat BETWEEN 0 AND 7),
    hand_count  INTEGER NOT NULL DEFAULT 0 CHECK (hand_count >= 0),
    message_id  INTEGER,
    created_at  REAL    NOT NULL,
    UNIQUE (guild_id, channel_id)
);

CREATE TABLE seats (
    table_id             INTEGER NOT NULL REFERENCES tables (id),
    seat_no              INTEGER NOT NULL CHECK (seat_no BETWEEN 0 AND 7),
    guild_id             INTEGER NOT NULL,
    user_id              INTEGER NOT NULL,
    display_name         TEXT    NOT NULL,
    stack                INTEGER NOT NULL CHECK (stack >= 0),
    sitting_out          INTEGER NOT NULL DEFAULT 0 CHECK (sitting_out IN (0, 1)),
    consecutive_timeouts INTEGER NOT NULL DEFAULT 0 CHECK (consecutive_timeouts >= 0),
    time_bank_seconds    REAL    NOT NULL DEFAULT 30 CHECK (time_bank_seconds >= 0),
    leave_after_hand     INTEGER NOT NULL DEFAULT 0 CHECK (leave_after_hand IN (0, 1)),
    joined_at            REAL    NOT NULL,
    PRIMARY KEY (table_id, seat_no),
    UNIQUE (table_id, user_id),
    FOREIGN KEY (guild_id, user_id) REFERENCES wallets (guild_id, user_id)
);
CREATE INDEX seats_by_user ON seats (guild_id, user_id);

CREATE TRIGGER seats_insert_table_chips AFTER INSERT ON seats
BEGIN
    UPDATE wallets SET table_chips = table_chips + NEW.stack, net_worth = net_worth + NEW.stack
    WHERE guild_id = NEW.guild_id AND user_id = NEW.user_id;
END;

CREATE TRIGGER seats_update_table_chips AFTER UPDATE OF stack, guild_id, user_id ON seats
BEGIN
    UPDATE wallets SET table_chips = table_chips - OLD.stack, net_worth = net_worth - OLD.stack
    WHERE guild_id = OLD.guild_id AND user_id = OLD.user_id;
    UPDATE wallets SET table_chips = table_chips + NEW.stack, net_worth = net_worth + NEW.stack
    WHERE guild_id = NEW.guild_id AND user_id = NEW.user_id;
END;

CREATE TRIGGER seats_delete_table_chips AFTER DELETE ON seats
BEGIN
    UPDATE wallets SET table_chips = table_chips - OLD.stack, net_worth = net_worth - OLD.stack
    WHERE guild_id = OLD.guild_id AND user_id = OLD.user_id;
END;

-- The hand log. deck (104 characters, Card.deck_text) and salt stay secret while the hand
-- is in progress; only dealerbot.store.hands.load_hand_for_recovery reads them then.
CREATE TABLE hands (
    id              INTEGER PRIMARY KEY,
    table_id        INTEGER NOT NULL REFERENCES tables (id),
    number          INTEGER NOT NULL CHECK (number >= 1),
    config_json     TEXT    NOT NULL,
    seats_json      TEXT    NOT NULL,
    button_seat     INTEGER NOT NULL CHECK (button_seat BETWEEN 0 AND 7),
    deck            TEXT    NOT NULL CHECK (length(deck) = 104),
    commitment      TEXT    NOT NULL,
    salt_hex        TEXT    NOT NULL,
    status          TEXT    NOT NULL DEFAULT 'in_progress'
                            CHECK (status IN ('in_progress', 'finished', 'cancelled')),
    result_json     TEXT,
    action_deadline REAL,
    started_at      REAL    NOT NULL,
    ended_at        REAL,
    UNIQUE (table_id, number)
);
-- At most one live hand per table; also the index crash recovery uses to find them.
CREATE UNIQUE INDEX hands_one_live_per_table ON hands (table_id) WHERE status = 'in_progress';

CREATE TABLE hand_actions (
    hand_id    INTEGER NOT NULL REFERENCES hands (id),
    seq        INTEGER NOT NULL CHECK (seq >= 0),
    seat       INTEGER CHECK (seat BETWEEN 0 AND 7),
    action     TEXT    NOT NULL,
    created_at REAL    NOT NULL,
    PRIMARY KEY (hand_id, seq)
);

-- Every chip movement. account 'wallet' rows sum to the wallet; 'table' rows (with
-- table_id) sum to the seat stack. Zero-delta rows only for 'refund' notes.
CREATE TABLE ledger (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES guilds (guild_id),
    user_id    INTEGER NOT NULL,
    account    TEXT    NOT NULL CHECK (account IN ('wallet', 'table')),
    table_id   INTEGER REFERENCES tables (id),
    delta      INTEGER NOT NULL CHECK (delta != 0 OR reason = 'refund'),
    reason     TEXT    NOT NULL CHECK (reason IN
                   ('grant', 'daily', 'buy_in', 'cash_out', 'hand_result', 'admin', 'refund')),
    hand_id    INTEGER REFERENCES hands (id),
    created_at REAL    NOT NULL,
    note       TEXT    NOT NULL DEFAULT '',
    CHECK ((account = 'table') = (table_id IS NOT NULL))
);
CREATE INDEX ledger_by_user ON ledger (guild_id, user_id, id);
CREATE INDEX ledger_by_table ON ledger (table_id, user_id) WHERE table_id IS NOT NULL;
CREATE INDEX ledger_by_hand ON ledger (hand_id) WHERE hand_id IS NOT NULL;

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

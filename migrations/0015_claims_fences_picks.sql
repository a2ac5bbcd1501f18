-- 0015 (issue 23): three small tables for running one shard on several processes safely.
--
-- claimed_interactions: each Discord interaction (a command or a button press) is answered
-- by the one process that inserts its id first (INSERT ... ON CONFLICT DO NOTHING: the row
-- count says who won). Claims older than an hour are pruned: Discord accepts an answer for
-- 15 minutes at most. On SQLite one process owns the file (its lock file), so the table
-- service claims nothing there; the table exists so both backends share one schema.
CREATE TABLE claimed_interactions (
    id         INTEGER NOT NULL PRIMARY KEY CHECK (id > 0),
    claimed_at REAL    NOT NULL
);
CREATE INDEX claimed_interactions_by_age ON claimed_interactions (claimed_at);

-- table_leases: the fencing token of each table's lease, by channel id (the lease's key).
-- A process that takes a table's lease adds one to its epoch; every table write it makes
-- then commits only while the epoch is still its own, so a write in flight when its lease
-- was lost cannot land after another process took the table. PostgreSQL only (SQLite has
-- one process per file: every lease is granted, nothing is fenced).
CREATE TABLE table_leases (
    channel_id INTEGER NOT NULL PRIMARY KEY CHECK (channel_id > 0),
    epoch      INTEGER NOT NULL CHECK (epoch > 0)
);

-- table_picks: dealer's choice, stored with the rotation so a restart neither offers a
-- made pick again nor forgets one being waited for. pick_id numbers the table's offers
-- (a button carries the pick it belongs to; an older one is refused); the offer's chooser,
-- seat, name and deadline are set while it waits and NULL once answered or lapsed.
CREATE TABLE table_picks (
    table_id INTEGER NOT NULL PRIMARY KEY REFERENCES tables (id),
    pick_id  INTEGER NOT NULL CHECK (pick_id > 0),
    user_id  INTEGER CHECK (user_id > 0),
    seat_no  INTEGER CHECK (seat_no BETWEEN 0 AND 7),
    name     TEXT,
    deadline REAL,
    CHECK ((user_id IS NULL) = (deadline IS NULL)),
    CHECK ((seat_no IS NULL) = (deadline IS NULL)),
    CHECK ((name IS NULL) = (deadline IS NULL))
);

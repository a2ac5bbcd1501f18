-- 0015 (PostgreSQL), as ../0015_claims_fences_picks.sql: interaction claims (one process
-- answers each interaction), the table leases' fencing epochs (a write commits only while
-- its process's epoch is the table's), and dealer's-choice picks kept with the rotation.
CREATE TABLE claimed_interactions (
    id         BIGINT           NOT NULL PRIMARY KEY CHECK (id > 0),
    claimed_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX claimed_interactions_by_age ON claimed_interactions (claimed_at);

CREATE TABLE table_leases (
    channel_id BIGINT NOT NULL PRIMARY KEY CHECK (channel_id > 0),
    epoch      BIGINT NOT NULL CHECK (epoch > 0)
);

CREATE TABLE table_picks (
    table_id BIGINT           NOT NULL PRIMARY KEY REFERENCES tables (id),
    pick_id  BIGINT           NOT NULL CHECK (pick_id > 0),
    user_id  BIGINT           CHECK (user_id > 0),
    seat_no  INTEGER          CHECK (seat_no BETWEEN 0 AND 7),
    name     TEXT,
    deadline DOUBLE PRECISION,
    CHECK ((user_id IS NULL) = (deadline IS NULL)),
    CHECK ((seat_no IS NULL) = (deadline IS NULL)),
    CHECK ((name IS NULL) = (deadline IS NULL))
);

-- 0010 (PostgreSQL), as ../0010_queued_topups.sql: chips a seated player asked to add
-- during a hand, queued until the hand settles and moved from the wallet (with its ledger
-- row) just before the next deal; kept so a restart does not forget them. No backfill.
CREATE TABLE queued_topups (
    table_id  BIGINT           NOT NULL REFERENCES tables (id),
    user_id   BIGINT           NOT NULL CHECK (user_id > 0),
    amount    BIGINT           NOT NULL CHECK (amount > 0),
    queued_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

-- 0010: chips a seated player asked to add during a hand (/stud addchips, Rebuy), queued
-- until the hand settles and moved from the wallet (with its ledger row) just before the
-- next deal. Kept here so a restart does not forget them; the chips stay in the wallet
-- until then, so a row is a promise, not money. A new table: no backfill.
CREATE TABLE queued_topups (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    user_id   INTEGER NOT NULL CHECK (user_id > 0),
    amount    INTEGER NOT NULL CHECK (amount > 0),
    queued_at REAL    NOT NULL,
    PRIMARY KEY (table_id, user_id)
);

-- 0005: retention (`dealerbot db prune`). A pruned hand keeps its row, seats, result and
-- commitment (ledger rows reference it; its id is never reused) but its action log is
-- deleted and its deck and salts are overwritten; pruned_at says when, so histories and
-- proofs can tell a pruned hand from a broken one.
ALTER TABLE hands ADD COLUMN pruned_at REAL;

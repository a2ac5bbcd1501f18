-- 0012: a queued top-up is for its seat. The cash-out that frees a seat now deletes the
-- seat's queued_topups row in its own transaction; before, the table service deleted it in
-- a second step, and a process that died between the two left a row for a player with no
-- seat there, which a restart in the middle of a hand could add to the next seat he took
-- (issue 23). Such rows are removed here. Only rows go: their chips never left the wallet.
DELETE FROM queued_topups
WHERE NOT EXISTS (
    SELECT 1 FROM seats
    WHERE seats.table_id = queued_topups.table_id AND seats.user_id = queued_topups.user_id
);

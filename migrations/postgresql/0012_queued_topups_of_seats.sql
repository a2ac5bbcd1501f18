-- 0012 (PostgreSQL), as ../0012_queued_topups_of_seats.sql: a queued top-up is for its
-- seat; the rows a crash between the cash-out and the service's separate delete left for a
-- player with no seat there are removed (the cash-out now deletes the row itself). Only
-- rows go: their chips never left the wallet.
DELETE FROM queued_topups
WHERE NOT EXISTS (
    SELECT 1 FROM seats
    WHERE seats.table_id = queued_topups.table_id AND seats.user_id = queued_topups.user_id
);

-- 0014: house players (issue 20). A table's settings say how many house players may sit
-- (house_players, 0: none) and while fewer than how many seats are taken they do
-- (house_fill_to); the ranges are the table service's (dealerbot/tables/limits.py), the
-- CHECKs only what SQL can state. House wallets (the bankroll, the house players: negative
-- user ids, dealerbot/store/house.py) are not players: the leaderboard's page count
-- (guilds.wallet_count) counts members' wallets only. No house wallet exists before this
-- migration, so the stored counts are already right.
ALTER TABLE table_configs ADD COLUMN house_players INTEGER NOT NULL DEFAULT 0
    CHECK (house_players >= 0);
ALTER TABLE table_configs ADD COLUMN house_fill_to INTEGER NOT NULL DEFAULT 4
    CHECK (house_fill_to >= 2);

DROP TRIGGER wallets_count_insert;
DROP TRIGGER wallets_count_delete;

CREATE TRIGGER wallets_count_insert AFTER INSERT ON wallets WHEN NEW.user_id > 0
BEGIN
    UPDATE guilds SET wallet_count = wallet_count + 1 WHERE guild_id = NEW.guild_id;
END;

CREATE TRIGGER wallets_count_delete AFTER DELETE ON wallets WHEN OLD.user_id > 0
BEGIN
    UPDATE guilds SET wallet_count = wallet_count - 1 WHERE guild_id = OLD.guild_id;
END;

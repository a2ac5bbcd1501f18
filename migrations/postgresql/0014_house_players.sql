-- 0014 (PostgreSQL), as ../0014_house_players.sql: a table's house-player settings
-- (house_players, house_fill_to; their ranges are the table service's), and the
-- leaderboard's page count counts members' wallets only (house wallets have negative ids).
ALTER TABLE table_configs ADD COLUMN house_players INTEGER NOT NULL DEFAULT 0
    CHECK (house_players >= 0);
ALTER TABLE table_configs ADD COLUMN house_fill_to INTEGER NOT NULL DEFAULT 4
    CHECK (house_fill_to >= 2);

CREATE OR REPLACE FUNCTION wallets_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        IF NEW.user_id > 0 THEN
            UPDATE guilds SET wallet_count = wallet_count + 1 WHERE guild_id = NEW.guild_id;
        END IF;
    ELSIF OLD.user_id > 0 THEN
        UPDATE guilds SET wallet_count = wallet_count - 1 WHERE guild_id = OLD.guild_id;
    END IF;
    RETURN NULL;
END;
$$;

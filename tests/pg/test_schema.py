"""The PostgreSQL schema: it applies atomically, matches SQLite's, and enforces the same rules."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg
import pytest

from .databases import apply_migration, migrations

SQLITE_MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
GUILD = 111_111_111_111_111_111
CHANNEL = 222_222_222_222_222_222
ALICE = 300_000_000_000_000_001
BOB = 300_000_000_000_000_002
NOW = 1_700_000_000.25
DECK = "2c" * 52
IDENTITY_TABLES = ("tables", "hands", "ledger", "tournaments")  # row ids PostgreSQL generates


def sqlite_schema() -> sqlite3.Connection:
    """SQLite's own migrations applied to a memory database: what PostgreSQL must match."""
    conn = sqlite3.connect(":memory:")
    for path in sorted(SQLITE_MIGRATIONS.glob("*.sql")):
        conn.executescript(path.read_text(encoding="utf-8"))
    return conn


def sqlite_tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )
    return sorted(name for (name,) in rows)


# --- shape --------------------------------------------------------------------------------


def test_versions_match_sqlite() -> None:
    sqlite_names = sorted(p.name for p in SQLITE_MIGRATIONS.glob("*.sql"))
    assert [m.path.name for m in migrations()] == sqlite_names


async def test_a_failing_migration_leaves_nothing(pg_conn: asyncpg.Connection) -> None:
    first = migrations()[0]
    body = first.body() + "\nSELECT 1 / 0;\n"
    with pytest.raises(asyncpg.DivisionByZeroError):
        async with pg_conn.transaction():
            await pg_conn.execute(body)
    assert await pg_conn.fetchval("SELECT to_regclass('ledger')") is None
    await apply_migration(pg_conn, first)  # the file itself still applies afterwards
    assert await pg_conn.fetchval("SELECT to_regclass('ledger')::text") == "ledger"


async def test_tables_columns_and_types_match_sqlite(pg_schema: asyncpg.Connection) -> None:
    lite = sqlite_schema()
    pg_types = {"bigint": "INTEGER", "integer": "INTEGER"}
    pg_types |= {"double precision": "REAL", "text": "TEXT"}
    pg_tables = await pg_schema.fetch(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = 'public' ORDER BY table_name"
    )
    assert [r["table_name"] for r in pg_tables] == sqlite_tables(lite)
    for table in sqlite_tables(lite):
        expected = [
            (name, decl, bool(notnull) or bool(pk), default is not None)
            for _, name, decl, notnull, default, pk in lite.execute(f"PRAGMA table_info({table})")
        ]
        rows = await pg_schema.fetch(
            "SELECT column_name, data_type, is_nullable, column_default, is_identity"
            " FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1"
            " ORDER BY ordinal_position",
            table,
        )
        actual = [
            (
                r["column_name"],
                pg_types[r["data_type"]],
                r["is_nullable"] == "NO",
                r["column_default"] is not None,
            )
            for r in rows
        ]
        assert actual == expected, table
        identity = [r["column_name"] for r in rows if r["is_identity"] == "YES"]
        rowid_alias = [
            name
            for _, name, decl, _, _, pk in lite.execute(f"PRAGMA table_info({table})")
            if pk == 1 and decl == "INTEGER" and table in IDENTITY_TABLES
        ]
        assert identity == rowid_alias, table


async def test_check_constraints_match_sqlite(pg_schema: asyncpg.Connection) -> None:
    """As many CHECKs per table as SQLite's CREATE TABLE states (behaviour: tests below)."""
    lite = sqlite_schema()
    for table, sql in lite.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ):
        count = await pg_schema.fetchval(
            "SELECT count(*) FROM pg_constraint WHERE contype = 'c' AND conrelid = $1::regclass",
            table,
        )
        assert count == sql.count("CHECK ("), table


async def test_snowflake_columns_are_64_bit(pg_schema: asyncpg.Connection) -> None:
    narrow = await pg_schema.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = 'public' AND data_type <> 'bigint'"
        " AND (column_name LIKE '%\\_id' OR column_name = 'id')"
    )
    assert [tuple(r) for r in narrow] == []


async def test_indexes_triggers_and_foreign_keys_match_sqlite(
    pg_schema: asyncpg.Connection,
) -> None:
    lite = sqlite_schema()
    lite_indexes = {
        name
        for (name,) in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        )
    }
    pg_indexes = {
        r["indexname"]
        for r in await pg_schema.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = 'public'"
            " AND indexname NOT LIKE '%\\_pkey' AND indexname NOT LIKE '%\\_key'"
        )
    }
    assert pg_indexes == lite_indexes

    lite_triggers = {
        n for (n,) in lite.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
    }
    pg_triggers = {
        r["tgname"]
        for r in await pg_schema.fetch("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
    }
    assert pg_triggers == lite_triggers | {"ledger_no_truncate"}

    lite_fks = set()
    for table in sqlite_tables(lite):
        groups: dict[int, list[tuple[str, str, str]]] = {}
        for fk_id, _, parent, column, parent_column, *_ in lite.execute(
            f"PRAGMA foreign_key_list({table})"
        ):
            groups.setdefault(fk_id, []).append((parent, column, parent_column))
        for parts in groups.values():
            lite_fks.add(
                (table, tuple(c for _, c, _ in parts), parts[0][0], tuple(p for *_, p in parts))
            )
    pg_fks = {
        (r["child"], tuple(r["columns"]), r["parent"], tuple(r["parent_columns"]))
        for r in await pg_schema.fetch(
            """
            SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent,
                   ARRAY(SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY k(n, i)
                         JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.n
                         ORDER BY k.i)::text[] AS columns,
                   ARRAY(SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY k(n, i)
                         JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.n
                         ORDER BY k.i)::text[] AS parent_columns
            FROM pg_constraint c WHERE c.contype = 'f'
            """
        )
    }
    assert pg_fks == lite_fks


# --- rules --------------------------------------------------------------------------------


async def add_guild(conn: asyncpg.Connection, guild: int = GUILD) -> None:
    await conn.execute(
        "INSERT INTO guilds (guild_id, starting_chips, daily_chips, daily_cooldown_seconds,"
        " created_at) VALUES ($1, 1000, 100, 86400, $2)",
        guild,
        NOW,
    )


async def add_wallet(conn: asyncpg.Connection, user: int, chips: int) -> None:
    await conn.execute(
        "INSERT INTO wallets (guild_id, user_id, chips, net_worth, created_at)"
        " VALUES ($1, $2, $3, $3, $4)",
        GUILD,
        user,
        chips,
        NOW,
    )


async def add_table(conn: asyncpg.Connection) -> int:
    table_id: int = await conn.fetchval(
        "INSERT INTO tables (guild_id, channel_id, created_at) VALUES ($1, $2, $3) RETURNING id",
        GUILD,
        CHANNEL,
        NOW,
    )
    return table_id


async def add_hand(conn: asyncpg.Connection, table_id: int, number: int) -> int:
    hand_id: int = await conn.fetchval(
        "INSERT INTO hands (table_id, number, config_json, seats_json, button_seat, deck,"
        " commitment, salt_hex, started_at) VALUES ($1, $2, '{}', '[]', 0, $3, 'c', 's', $4)"
        " RETURNING id",
        table_id,
        number,
        DECK,
        NOW,
    )
    return hand_id


async def add_ledger_row(conn: asyncpg.Connection, delta: int) -> int:
    row_id: int = await conn.fetchval(
        "INSERT INTO ledger (guild_id, user_id, account, delta, reason, created_at)"
        " VALUES ($1, $2, 'wallet', $3, 'grant', $4) RETURNING id",
        GUILD,
        ALICE,
        delta,
        NOW,
    )
    return row_id


async def test_the_ledger_refuses_update_delete_and_truncate(
    pg_schema: asyncpg.Connection,
) -> None:
    await add_guild(pg_schema)
    row_id = await add_ledger_row(pg_schema, 1000)
    await add_ledger_row(pg_schema, 5)  # inserts stay allowed
    for statement in (
        "UPDATE ledger SET delta = 1 WHERE id = $1",
        "DELETE FROM ledger WHERE id = $1",
    ):
        with pytest.raises(asyncpg.RaiseError, match="append-only"):
            await pg_schema.execute(statement, row_id)
    with pytest.raises(asyncpg.RaiseError, match="append-only"):
        await pg_schema.execute("TRUNCATE ledger")
    rows = await pg_schema.fetch("SELECT delta FROM ledger ORDER BY id")
    assert [r["delta"] for r in rows] == [1000, 5]


async def test_one_live_hand_per_table(pg_schema: asyncpg.Connection) -> None:
    await add_guild(pg_schema)
    table_id = await add_table(pg_schema)
    first = await add_hand(pg_schema, table_id, 1)
    with pytest.raises(asyncpg.UniqueViolationError, match="hands_one_live_per_table"):
        await add_hand(pg_schema, table_id, 2)
    await pg_schema.execute("UPDATE hands SET status = 'finished' WHERE id = $1", first)
    second = await add_hand(pg_schema, table_id, 2)
    await pg_schema.execute("UPDATE hands SET status = 'cancelled' WHERE id = $1", second)
    third = await add_hand(pg_schema, table_id, 3)
    await pg_schema.execute("UPDATE hands SET status = 'finished' WHERE id = $1", third)
    fourth = await add_hand(pg_schema, table_id, 4)  # two finished hands may coexist
    live = await pg_schema.fetch(
        "SELECT id FROM hands WHERE table_id = $1 AND status = 'in_progress'", table_id
    )
    assert [r["id"] for r in live] == [fourth]


@pytest.mark.parametrize(
    ("statement", "constraint"),
    [
        ("UPDATE wallets SET chips = -1, net_worth = -1 WHERE user_id = $1", "chips_check"),
        (
            "UPDATE wallets SET chips = chips - 1001, net_worth = net_worth - 1001"
            " WHERE user_id = $1",
            "chips_check",
        ),
        ("UPDATE wallets SET net_worth = net_worth + 1 WHERE user_id = $1", "wallets_check"),
        ("UPDATE guilds SET starting_chips = -5 WHERE $1::bigint > 0", "starting_chips_check"),
    ],
)
async def test_checks_refuse_negative_or_inconsistent_chips(
    pg_schema: asyncpg.Connection, statement: str, constraint: str
) -> None:
    await add_guild(pg_schema)
    await add_wallet(pg_schema, ALICE, 1000)
    with pytest.raises(asyncpg.CheckViolationError, match=constraint):
        await pg_schema.execute(statement, ALICE)
    row = await pg_schema.fetchrow("SELECT chips, net_worth FROM wallets")
    assert row is not None and tuple(row) == (1000, 1000)


async def test_a_seat_stack_cannot_go_negative(pg_schema: asyncpg.Connection) -> None:
    await add_guild(pg_schema)
    await add_wallet(pg_schema, ALICE, 1000)
    table_id = await add_table(pg_schema)
    await pg_schema.execute(
        "INSERT INTO seats (table_id, seat_no, guild_id, user_id, display_name, stack,"
        " joined_at) VALUES ($1, 0, $2, $3, 'alice', 200, $4)",
        table_id,
        GUILD,
        ALICE,
        NOW,
    )
    with pytest.raises(asyncpg.CheckViolationError, match="stack_check"):
        await pg_schema.execute(
            "UPDATE seats SET stack = stack - 201 WHERE table_id = $1", table_id
        )


async def test_conditional_chip_move_reports_no_row(pg_schema: asyncpg.Connection) -> None:
    """The store's "take chips only if there are enough" shape, with PostgreSQL's status."""
    await add_guild(pg_schema)
    await add_wallet(pg_schema, ALICE, 100)
    take = (
        "UPDATE wallets SET chips = chips - $3, net_worth = net_worth - $3"
        " WHERE guild_id = $1 AND user_id = $2 AND chips >= $3"
    )
    assert await pg_schema.execute(take, GUILD, ALICE, 101) == "UPDATE 0"
    assert await pg_schema.execute(take, GUILD, ALICE, 60) == "UPDATE 1"
    assert await pg_schema.fetchval("SELECT chips FROM wallets") == 40


async def test_seat_triggers_keep_table_chips_and_net_worth(
    pg_schema: asyncpg.Connection,
) -> None:
    await add_guild(pg_schema)
    await add_wallet(pg_schema, ALICE, 1000)
    await add_wallet(pg_schema, BOB, 500)
    assert await pg_schema.fetchval("SELECT wallet_count FROM guilds") == 2
    table_id = await add_table(pg_schema)

    async def wallet(user: int) -> tuple[int, int, int]:
        row = await pg_schema.fetchrow(
            "SELECT chips, table_chips, net_worth FROM wallets WHERE user_id = $1", user
        )
        assert row is not None
        return (row["chips"], row["table_chips"], row["net_worth"])

    async with pg_schema.transaction():
        await pg_schema.execute(
            "UPDATE wallets SET chips = chips - 300, net_worth = net_worth - 300"
            " WHERE user_id = $1",
            ALICE,
        )
        await pg_schema.execute(
            "INSERT INTO seats (table_id, seat_no, guild_id, user_id, display_name, stack,"
            " joined_at) VALUES ($1, 3, $2, $3, 'alice', 300, $4)",
            table_id,
            GUILD,
            ALICE,
            NOW,
        )
    assert await wallet(ALICE) == (700, 300, 1000)
    await pg_schema.execute("UPDATE seats SET stack = stack + 50 WHERE user_id = $1", ALICE)
    assert await wallet(ALICE) == (700, 350, 1050)
    await pg_schema.execute("UPDATE seats SET sitting_out = 1 WHERE user_id = $1", ALICE)
    assert await wallet(ALICE) == (700, 350, 1050)
    await pg_schema.execute("UPDATE seats SET user_id = $1 WHERE user_id = $2", BOB, ALICE)
    assert await wallet(ALICE) == (700, 0, 700)
    assert await wallet(BOB) == (500, 350, 850)
    await pg_schema.execute("DELETE FROM seats WHERE user_id = $1", BOB)
    assert await wallet(BOB) == (500, 0, 500)
    await pg_schema.execute("DELETE FROM wallets WHERE user_id = $1", BOB)
    assert await pg_schema.fetchval("SELECT wallet_count FROM guilds") == 1


async def test_logged_action_sets_the_hand_deadline(pg_schema: asyncpg.Connection) -> None:
    await add_guild(pg_schema)
    table_id = await add_table(pg_schema)
    hand_id = await add_hand(pg_schema, table_id, 1)
    other = await add_hand(pg_schema, await _second_table(pg_schema), 1)
    for seq, deadline in enumerate((NOW + 30.5, None, NOW + 61.25)):
        await pg_schema.execute(
            "INSERT INTO hand_actions (hand_id, seq, seat, action, created_at, deadline)"
            " VALUES ($1, $2, 0, 'call', $3, $4)",
            hand_id,
            seq,
            NOW,
            deadline,
        )
        row = await pg_schema.fetchrow("SELECT action_deadline FROM hands WHERE id = $1", hand_id)
        assert row is not None and row["action_deadline"] == deadline
    assert (
        await pg_schema.fetchval("SELECT action_deadline FROM hands WHERE id = $1", other) is None
    )


async def _second_table(conn: asyncpg.Connection) -> int:
    table_id: int = await conn.fetchval(
        "INSERT INTO tables (guild_id, channel_id, created_at) VALUES ($1, $2, $3) RETURNING id",
        GUILD,
        CHANNEL + 1,
        NOW,
    )
    return table_id


async def test_largest_snowflakes_and_exact_timestamps_round_trip(
    pg_schema: asyncpg.Connection,
) -> None:
    big = 2**63 - 1
    stamp = 1_764_599_999.123456
    await add_guild(pg_schema, big)
    await pg_schema.execute(
        "INSERT INTO wallets (guild_id, user_id, chips, net_worth, created_at)"
        " VALUES ($1, $1, $1, $1, $2)",
        big,
        stamp,
    )
    row = await pg_schema.fetchrow("SELECT guild_id, user_id, chips, created_at FROM wallets")
    assert row is not None and tuple(row) == (big, big, big, stamp)


async def test_0003_splits_old_actions_as_sqlite_does(pg_conn: asyncpg.Connection) -> None:
    """Rows logged before 0003 end up the same on both backends after it."""
    actions = ["bring-in", "fold:timeout", "call", "check:away", "fold:leaving"]
    before = [m for m in migrations() if m.version < 3]
    after = [m for m in migrations() if m.version >= 3]
    assert after and after[0].version == 3

    lite = sqlite3.connect(":memory:")
    for path in sorted(SQLITE_MIGRATIONS.glob("*.sql"))[: len(before)]:
        lite.executescript(path.read_text(encoding="utf-8"))
    lite.execute("INSERT INTO guilds VALUES (?, 1000, 100, 86400, 0, ?)", (GUILD, NOW))
    lite.execute(
        "INSERT INTO tables (guild_id, channel_id, created_at) VALUES (?, ?, ?)",
        (GUILD, CHANNEL, NOW),
    )
    lite.execute(
        "INSERT INTO hands (table_id, number, config_json, seats_json, button_seat, deck,"
        " commitment, salt_hex, started_at) VALUES (1, 1, '{}', '[]', 0, ?, 'c', 's', ?)",
        (DECK, NOW),
    )
    for seq, action in enumerate(actions):
        lite.execute(
            "INSERT INTO hand_actions (hand_id, seq, seat, action, created_at)"
            " VALUES (1, ?, 0, ?, ?)",
            (seq, action, NOW),
        )
    for path in sorted(SQLITE_MIGRATIONS.glob("*.sql"))[len(before) :]:
        lite.executescript(path.read_text(encoding="utf-8"))
    expected = lite.execute("SELECT seq, action, reason FROM hand_actions ORDER BY seq").fetchall()

    for migration in before:
        await apply_migration(pg_conn, migration)
    await add_guild(pg_conn)
    hand_id = await add_hand(pg_conn, await add_table(pg_conn), 1)
    for seq, action in enumerate(actions):
        await pg_conn.execute(
            "INSERT INTO hand_actions (hand_id, seq, seat, action, created_at)"
            " VALUES ($1, $2, 0, $3, $4)",
            hand_id,
            seq,
            action,
            NOW,
        )
    for migration in after:
        await apply_migration(pg_conn, migration)
    rows = await pg_conn.fetch("SELECT seq, action, reason FROM hand_actions ORDER BY seq")
    assert [tuple(r) for r in rows] == expected
    assert expected[1] == (1, "fold", "timeout") and expected[2] == (2, "call", None)

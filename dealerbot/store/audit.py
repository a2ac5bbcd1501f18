"""The chip audit: does every chip in the database trace back to the ledger?

Per guild it checks that
  1. each wallet equals the sum of its 'wallet' ledger rows;
  2. each seat stack equals the sum of that player's 'table' rows at that table
     (and a player with no seat there has rows summing to zero);
  3. each wallet's ``table_chips`` equals the player's seat stacks in the guild, and the
     guild's ``wallet_count`` (the leaderboard's page count) equals its members' wallets
     (the house's wallets, negative ids, are not players: store/house.py);
  4. wallets + seat stacks + tournament pools == chips granted (grant, daily, admin; takes
     are negative rows);
  5. internal movements (buy-in, cash-out, hand result, refund, prize) net to zero;
  6. every finished hand's result rows sum to zero, and no unfinished hand has any;
  7. every row's reason fits its account (grants to wallets, hand results at tables ...);
  8. every queued top-up is for a seated player (a cash-out deletes its seat's row: one
     left without a seat would add chips to the next seat that player takes);
  9. every tournament's pool (migration 0013): it equals its ledger rows, buy-ins - refunds
     - prizes = the pool left (:func:`dealerbot.tournament.audit`), a finished or cancelled
     one's is empty, each player's wallet rows mirror his pool rows and his entry's prize
     and refund are what the pool paid him; and once it started its chips in play (every
     entry's stack, a forfeited player's dead chips included) are entrants x starting chips.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from dealerbot.tournament import audit as pool_audit

from .catalog import table_names
from .db import Database, fetch_all
from .ledger import EXTERNAL_REASONS
from .tournament_results import PoolFigures, pool_figures

MAX_DETAILS = 5


@dataclass(frozen=True, slots=True)
class AuditCheck:
    name: str
    guild_id: int | None
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class AuditReport:
    checks: tuple[AuditCheck, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failures(self) -> tuple[AuditCheck, ...]:
        return tuple(c for c in self.checks if not c.ok)

    def render(self) -> str:
        lines = []
        for c in self.checks:
            where = "" if c.guild_id is None else f"guild {c.guild_id}: "
            lines.append(f"[{'ok' if c.ok else 'FAIL'}] {where}{c.name}: {c.detail}")
        verdict = "audit passed" if self.ok else f"audit FAILED ({len(self.failures)} checks)"
        lines.append(f"{verdict}: {len(self.checks)} checks")
        return "\n".join(lines)


def _mismatches(expected: dict[int, int], actual: dict[int, int]) -> list[str]:
    return [
        f"user {user}: wallet holds {actual.get(user, 0):,}, ledger says {expected.get(user, 0):,}"
        for user in sorted(set(expected) | set(actual))
        if actual.get(user, 0) != expected.get(user, 0)
    ]


def _check(name: str, guild_id: int | None, problems: list[str], what: str) -> AuditCheck:
    if not problems:
        return AuditCheck(name, guild_id, True, what)
    shown = "; ".join(problems[:MAX_DETAILS])
    more = f" (+{len(problems) - MAX_DETAILS} more)" if len(problems) > MAX_DETAILS else ""
    return AuditCheck(name, guild_id, False, f"{len(problems)} mismatches: {shown}{more}")


async def audit(db: Database) -> AuditReport:
    """Run every check in one consistent read; never changes anything."""
    external = tuple(sorted(r.value for r in EXTERNAL_REASONS))
    marks = ", ".join("?" for _ in external)
    async with db.snapshot() as conn:
        has_pools = "tournaments" in await table_names(conn)  # a schema before 0013 has none
        guilds = [
            r[0]
            for r in await fetch_all(
                conn,
                "SELECT guild_id FROM guilds UNION SELECT guild_id FROM ledger"
                " UNION SELECT guild_id FROM wallets ORDER BY 1",
            )
        ]
        wallets = await fetch_all(conn, "SELECT guild_id, user_id, chips, table_chips FROM wallets")
        seats = await fetch_all(conn, "SELECT guild_id, table_id, user_id, stack FROM seats")
        counts = {
            r[0]: (r[1], r[2])
            for r in await fetch_all(
                conn,
                "SELECT g.guild_id, g.wallet_count,"
                " (SELECT COUNT(*) FROM wallets w WHERE w.guild_id = g.guild_id AND w.user_id > 0)"
                " FROM guilds g",
            )
        }
        table_guild = {r[0]: r[1] for r in await fetch_all(conn, "SELECT id, guild_id FROM tables")}
        wallet_rows = await fetch_all(
            conn,
            "SELECT guild_id, user_id, SUM(delta) FROM ledger WHERE account = 'wallet'"
            " GROUP BY guild_id, user_id",
        )
        table_rows = await fetch_all(
            conn,
            "SELECT guild_id, table_id, user_id, SUM(delta) FROM ledger WHERE account = 'table'"
            " GROUP BY guild_id, table_id, user_id",
        )
        by_kind = await fetch_all(
            conn,
            f"SELECT guild_id, reason IN ({marks}) AS ext, SUM(delta) FROM ledger"
            " GROUP BY guild_id, ext",
            external,
        )
        misplaced = await fetch_all(
            conn,
            f"SELECT guild_id, id, reason, account FROM ledger WHERE"
            f" (reason IN ({marks}) AND account != 'wallet')"
            " OR (reason = 'hand_result' AND (account != 'table' OR hand_id IS NULL))"
            + (
                " OR (reason = 'prize' AND (account = 'table' OR tournament_id IS NULL))"
                " OR (account = 'pool' AND reason NOT IN ('buy_in', 'refund', 'prize'))"
                if has_pools
                else ""
            ),
            external,
        )
        pools = await pool_figures(conn) if has_pools else []
        hands = await fetch_all(
            conn,
            "SELECT h.id, t.guild_id, h.table_id, h.status,"
            " (SELECT COUNT(*) FROM ledger l WHERE l.hand_id = h.id"
            "   AND l.reason = 'hand_result'),"
            " (SELECT COALESCE(SUM(l.delta), 0) FROM ledger l WHERE l.hand_id = h.id"
            "   AND l.reason = 'hand_result'),"
            " (SELECT COUNT(*) FROM ledger l WHERE l.hand_id = h.id"
            "   AND l.table_id IS DISTINCT FROM h.table_id)"
            " FROM hands h JOIN tables t ON t.id = h.table_id",
        )
        queued = await fetch_all(
            conn,
            "SELECT t.guild_id, q.table_id, q.user_id, q.amount, CASE WHEN EXISTS"
            " (SELECT 1 FROM seats s WHERE s.table_id = q.table_id AND s.user_id = q.user_id)"
            " THEN 1 ELSE 0 END FROM queued_topups q JOIN tables t ON t.id = q.table_id"
            " ORDER BY q.table_id, q.user_id",
        )

    checks: list[AuditCheck] = []
    for guild in guilds:
        g_wallets = {r[1]: r[2] for r in wallets if r[0] == guild}
        g_wallet_rows = {r[1]: r[2] for r in wallet_rows if r[0] == guild}
        checks.append(
            _check(
                "wallets match the ledger",
                guild,
                _mismatches(g_wallet_rows, g_wallets),
                f"{len(g_wallets)} wallets",
            )
        )

        g_seats = {(r[1], r[2]): r[3] for r in seats if r[0] == guild}
        g_table_rows = {(r[1], r[2]): r[3] for r in table_rows if r[0] == guild}
        problems = [
            f"table {k[0]} user {k[1]}: seat stack {g_seats.get(k, 0):,}, "
            f"ledger says {g_table_rows.get(k, 0):,}"
            for k in sorted(set(g_seats) | set(g_table_rows))
            if g_seats.get(k, 0) != g_table_rows.get(k, 0)
        ]
        problems += [
            f"seat of user {k[1]} at table {k[0]} belongs to guild {table_guild.get(k[0])}"
            for k in g_seats
            if table_guild.get(k[0]) != guild
        ]
        n_tables = len({k[0] for k in g_seats})
        checks.append(
            _check(
                "seat stacks match the ledger",
                guild,
                problems,
                f"{len(g_seats)} seats at {n_tables} tables",
            )
        )

        per_user: dict[int, int] = defaultdict(int)
        for (_, user), stack in g_seats.items():
            per_user[user] += stack
        problems = [
            f"user {r[1]}: table_chips {r[3]:,}, seats hold {per_user.get(r[1], 0):,}"
            for r in wallets
            if r[0] == guild and r[3] != per_user.get(r[1], 0)
        ]
        problems += [f"user {u} is seated without a wallet" for u in per_user if u not in g_wallets]
        stored, real = counts.get(guild, (0, 0))
        if stored != real:
            problems.append(f"wallet_count says {stored:,} players, there are {real:,}")
        checks.append(
            _check(
                "table chips and player count match",
                guild,
                problems,
                f"{len(per_user)} players at tables, {real:,} wallets",
            )
        )

        g_pools = [p for p in pools if p.guild_id == guild]
        in_pools = sum(p.pool for p in g_pools)
        held = sum(g_wallets.values()) + sum(g_seats.values()) + in_pools
        granted = sum(r[2] for r in by_kind if r[0] == guild and r[1])
        internal = sum(r[2] for r in by_kind if r[0] == guild and not r[1])
        checks.append(
            AuditCheck(
                "wallets + tables == granted",
                guild,
                held == granted,
                f"wallets {sum(g_wallets.values()):,} + tables {sum(g_seats.values()):,}"
                f" + tournament pools {in_pools:,} = {held:,}; granted minus taken {granted:,}",
            )
        )
        checks.append(
            AuditCheck(
                "internal movements net to zero",
                guild,
                internal == 0,
                f"buy-ins, cash-outs, hand results and refunds sum to {internal:,}",
            )
        )

        g_hands = [h for h in hands if h[1] == guild]
        problems = []
        finished = 0
        for hand_id, _, table_id, status, rows, total, foreign in g_hands:
            if status == "finished":
                finished += 1
                if total != 0:
                    problems.append(f"hand {hand_id} results sum to {total:,}")
            elif rows:
                problems.append(f"{status} hand {hand_id} has {rows} result rows")
            if foreign:
                problems.append(f"hand {hand_id} has {foreign} rows not at table {table_id}")
        checks.append(
            _check(
                "hand results sum to zero",
                guild,
                problems,
                f"{finished} finished hands of {len(g_hands)}",
            )
        )

        bad = [f"row {r[1]}: {r[2]} on {r[3]}" for r in misplaced if r[0] == guild]
        checks.append(_check("ledger rows fit their accounts", guild, bad, "all rows fit"))

        g_queued = [r for r in queued if r[0] == guild]
        unseated = [
            f"table {r[1]} user {r[2]}: {r[3]:,} chips queued without a seat"
            for r in g_queued
            if not r[4]
        ]
        checks.append(
            _check(
                "queued top-ups are for seated players",
                guild,
                unseated,
                f"{len(g_queued)} queued top-ups",
            )
        )
        problems = [problem for figures in g_pools for problem in _pool_problems(figures)]
        checks.append(
            _check("tournament pools add up", guild, problems, f"{len(g_pools)} tournaments")
        )
    if not guilds:
        checks.append(AuditCheck("database", None, True, "no guilds yet: nothing to check"))
    return AuditReport(tuple(checks))


def _pool_problems(f: PoolFigures) -> list[str]:
    """One tournament's problems, each naming it (check 9)."""
    found = pool_audit(
        buy_ins=f.buy_ins,
        refunds=f.refunds,
        prizes=f.prizes,
        pool_left=f.pool,
        entrants=f.entrants,
        starting_chips=f.starting_chips,
        chips_in_play=f.chips_in_play,
    )
    if f.pool != f.pool_rows:
        found.append(f"the pool holds {f.pool:,}, its ledger rows say {f.pool_rows:,}")
    if f.status in ("finished", "cancelled") and f.pool:
        found.append(f"{f.status} with {f.pool:,} chips left in its pool")
    found.extend(f.problems)
    return [f"tournament {f.tournament_id}: {problem}" for problem in found]

"""What tournaments add up to: a player's record (played, cashes, wins, net), the board of
net tournament winnings for a period, and the figures the chip audit checks every pool by.

A player's net in a tournament is what the pool paid him (prize and refund) less his
buy-in, counted once his result is final (his entry's ``finished_at``: his place, or the
cancellation); a tournament cancelled before its start was not played and counts nowhere.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from .db import Connection, Database, fetch_all
from .validate import check_id

_EARLIEST = float("-inf")

# Entries of tournaments that started, whose result is final; one row per entry.
_RESULTS = (
    "SELECT e.user_id, e.place, e.prize, e.refund, t.buy_in FROM tournament_entries e"
    " JOIN tournaments t ON t.id = e.tournament_id"
    " WHERE e.guild_id = ? AND t.started_at IS NOT NULL AND e.finished_at IS NOT NULL"
    " AND e.finished_at >= ?"
)


@dataclass(frozen=True, slots=True)
class TournamentTotals:
    """A player's tournaments in a period: played, in the money, won, and his net."""

    played: int
    cashes: int
    wins: int
    net: int  # prizes and refunds less buy-ins


@dataclass(frozen=True, slots=True)
class BoardRow:
    user_id: int
    net: int
    played: int
    cashes: int
    wins: int


async def player_record(
    db: Database, guild_id: int, user_id: int, *, since: float | None = None
) -> TournamentTotals:
    """The player's finished tournaments from ``since`` (unix seconds; None: all time)."""
    check_id(guild_id, "guild id")
    check_id(user_id, "user id")
    async with db.reading() as conn:
        rows = await fetch_all(
            conn,
            _RESULTS + " AND e.user_id = ?",
            (guild_id, _EARLIEST if since is None else float(since), user_id),
        )
    return _totals([tuple(r) for r in rows])


def _totals(rows: list[tuple[int, int | None, int, int, int]]) -> TournamentTotals:
    return TournamentTotals(
        played=len(rows),
        cashes=sum(1 for _, _, prize, _, _ in rows if prize > 0),
        wins=sum(1 for _, place, _, _, _ in rows if place == 1),
        net=sum(prize + refund - buy_in for _, _, prize, refund, buy_in in rows),
    )


async def board(db: Database, guild_id: int, *, since: float | None = None) -> list[BoardRow]:
    """Every player with a finished tournament from ``since``, best net first (ties: the
    lower user id first, as the other boards order them)."""
    check_id(guild_id, "guild id")
    async with db.reading() as conn:
        rows = await fetch_all(conn, _RESULTS, (guild_id, _EARLIEST if since is None else since))
    mine: dict[int, list[tuple[int, int | None, int, int, int]]] = defaultdict(list)
    for row in rows:
        mine[int(row[0])].append(tuple(row))
    found = []
    for user, played in mine.items():
        t = _totals(played)
        found.append(BoardRow(user, t.net, t.played, t.cashes, t.wins))
    found.sort(key=lambda r: (-r.net, r.user_id))
    return found


# --- the audit's figures -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PoolFigures:
    """One tournament's money as its rows hold it, for :func:`dealerbot.tournament.audit`."""

    tournament_id: int
    guild_id: int
    status: str
    pool: int  # tournaments.pool
    pool_rows: int  # the sum of its pool ledger rows
    buy_ins: int
    refunds: int
    prizes: int
    entrants: int
    starting_chips: int
    chips_in_play: int | None  # the entries' stacks, once started
    problems: tuple[str, ...]  # entries out of step with the ledger


async def pool_figures(conn: Connection) -> list[PoolFigures]:
    """Every tournament's figures, read in the caller's (consistent) snapshot."""
    tournaments = await fetch_all(
        conn,
        "SELECT id, guild_id, status, pool, entrants, starting_chips, started_at, buy_in"
        " FROM tournaments ORDER BY id",
    )
    rows = await fetch_all(
        conn,
        "SELECT tournament_id, user_id, account, reason, SUM(delta) FROM ledger"
        " WHERE tournament_id IS NOT NULL GROUP BY tournament_id, user_id, account, reason",
    )
    entries = await fetch_all(
        conn,
        "SELECT tournament_id, user_id, stack, prize, refund FROM tournament_entries",
    )
    sums: dict[tuple[int, int, str, str], int] = {
        (int(r[0]), int(r[1]), str(r[2]), str(r[3])): int(r[4]) for r in rows
    }
    by_tournament: dict[int, list[tuple[int, int, int, int]]] = defaultdict(list)
    for t_id, user, stack, prize, refund in entries:
        by_tournament[int(t_id)].append((int(user), int(stack), int(prize), int(refund)))
    out = []
    for t_id, guild, status, pool, entrants, starting, started, buy_in in tournaments:
        mine = {k: v for k, v in sums.items() if k[0] == t_id}

        def total(account: str, reason: str, of: dict[tuple[int, int, str, str], int]) -> int:
            return sum(v for (_, _, a, r), v in of.items() if a == account and r == reason)

        problems: list[str] = []
        users = {k[1] for k in mine} | {e[0] for e in by_tournament[t_id]}
        for user in sorted(users):
            wallet = sum(v for (_, u, a, _), v in mine.items() if u == user and a == "wallet")
            paid_in = sum(v for (_, u, a, _), v in mine.items() if u == user and a == "pool")
            if wallet != -paid_in:
                problems.append(f"user {user}: wallet rows {wallet:,}, pool rows {paid_in:,}")
        entered = {e[0]: e for e in by_tournament[t_id]}
        for user in sorted(users):
            # His pool rows: his buy-in less what came back, if he is in; nothing if he
            # unregistered (his entry is gone, his buy-in came back).
            held = sum(v for (_, u, a, _), v in mine.items() if u == user and a == "pool")
            paid = -mine.get((t_id, user, "pool", "prize"), 0)
            entry = entered.get(user)
            prize, refund = (entry[2], entry[3]) if entry else (0, 0)
            expected = int(buy_in) - prize - refund if entry else 0
            if held != expected or paid != prize:
                problems.append(
                    f"user {user}: his pool rows hold {held:,} with prizes {paid:,}; his entry "
                    f"says {expected:,} with prize {prize:,}"
                )
        stacks = sum(e[1] for e in by_tournament[t_id])
        out.append(
            PoolFigures(
                tournament_id=int(t_id),
                guild_id=int(guild),
                status=str(status),
                pool=int(pool),
                pool_rows=sum(v for k, v in mine.items() if k[2] == "pool"),
                buy_ins=total("pool", "buy_in", mine),
                refunds=-total("pool", "refund", mine),
                prizes=-total("pool", "prize", mine),
                entrants=int(entrants),
                starting_chips=int(starting),
                chips_in_play=None if started is None else stacks,
                problems=tuple(problems),
            )
        )
    return out

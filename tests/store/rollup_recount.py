"""The stats rollups recounted from ``hand_players`` in Python, to compare with the stored ones.

Independent of the store's roll-up SQL: each rollup row is worked out from the folded rows
alone (``player_days``: sums per player, game, day and kind of hand, cash or tournament;
``winnings``: each player's latest day, week and month and his net and hands in them, and
all time, of his cash hands).
"""

from __future__ import annotations

import random
from collections import defaultdict

from dealerbot.store.catalog import table_info
from dealerbot.store.db import Connection, Database, fetch_all
from dealerbot.store.stats import PlayerHandRow

Rows = list[tuple[object, ...]]
DAY_COLUMNS = (
    "guild_id, user_id, variant, day, {tournament}, hands, net, won_hands, entered_third,"
    " raised_third, saw_seventh, showdowns, won_showdowns, biggest_win, best_rank, best_cards"
)
WINNINGS_COLUMNS = (
    "guild_id, user_id, day, day_net, day_hands, week, week_net, week_hands, month,"
    " month_net, month_hands, all_net, all_hands"
)
FACTS = (
    "guild_id, user_id, variant, day, week, month, net, won, entered_third, raised_third,"
    " last_street, showdown, won_showdown, shown_rank, shown_cards, {tournament}"
)


def cards_of(rank: int) -> str:
    """The shown cards of a rank: one rank, one hand (so a tie on rank names the same cards)."""
    faces = ("As Ad Ah Ac Kd", "Ks Kd Kh Qc Qd", "9s 8s 7s 6s 5s", "2c 2d 2h 7s 9d")
    return faces[rank % len(faces)]


def random_hand(rng: random.Random, users: list[int]) -> list[PlayerHandRow]:
    """One hand's rows that add up (the pot is what was put in), with random facts."""
    put = [rng.randrange(0, 9) for _ in users]
    put[0] = max(put[0], 1)
    winners = rng.sample(range(len(users)), rng.choice((1, 1, 2)))
    won = [0] * len(users)
    for i, w in enumerate(winners):
        won[w] = sum(put) // len(winners) + (1 if i < sum(put) % len(winners) else 0)
    rows = []
    for seat, user in enumerate(users):
        shown = rng.random() < 0.4
        rank = rng.randrange(1, 4) if shown else None  # a few ranks: ties happen
        rows.append(
            PlayerHandRow(
                user, seat, put[seat], won[seat], won[seat] - put[seat],
                rng.randrange(3, 8), int(rng.random() < 0.5), int(rng.random() < 0.2),
                int(shown), int(shown and won[seat] > 0), rank,
                None if rank is None else cards_of(rank),
            )
        )  # fmt: skip
    return rows


async def kind_column(conn: Connection, table: str) -> str:
    """The cash-or-tournament flag of ``table``'s rows: its column (migration 0013), or 0 in a
    database from before it (every hand a cash hand)."""
    return "tournament" if "tournament" in (await table_info(conn, table)).columns else "0"


async def stored(db: Database) -> tuple[Rows, Rows]:
    """``player_days`` and ``winnings`` as stored, in key order."""
    async with db.reading() as conn:
        kind = await kind_column(conn, "player_days")
        days = await fetch_all(
            conn,
            f"SELECT {DAY_COLUMNS.format(tournament=kind)} FROM player_days"
            " ORDER BY guild_id, user_id, variant, day" + (", tournament" if kind != "0" else ""),
        )
        wins = await fetch_all(
            conn, f"SELECT {WINNINGS_COLUMNS} FROM winnings ORDER BY guild_id, user_id"
        )
    return [tuple(r) for r in days], [tuple(r) for r in wins]


async def recounted(db: Database) -> tuple[Rows, Rows]:
    """What ``player_days`` and ``winnings`` must hold: the folded rows (pending = 0) added up."""
    async with db.reading() as conn:
        kind = await kind_column(conn, "hand_players")
        facts = [tuple(r) for r in await fetch_all(
            conn, f"SELECT {FACTS.format(tournament=kind)} FROM hand_players WHERE pending = 0"
        )]  # fmt: skip
    days: dict[tuple[object, ...], list[object]] = {}
    mine: dict[tuple[object, ...], list[tuple[object, ...]]] = defaultdict(list)
    for fact in facts:
        g, u, v, day, _w, _m, net, won, entered, raised, street, sd, won_sd, rank, cards, tour = (
            fact
        )
        if not tour:  # the winnings board counts cash hands only
            mine[(g, u)].append((day, _w, _m, net))
        key = (g, u, v, day, tour)
        t = days.setdefault(key, [*key, 0, 0, 0, 0, 0, 0, 0, 0, 0, None, None])
        t[5] += 1
        t[6] += net
        t[7] += int(won > 0)
        t[8] += entered
        t[9] += raised
        t[10] += int(street == 7)
        t[11] += sd
        t[12] += won_sd
        t[13] = max(t[13], won)
        if rank is not None and (t[14] is None or rank > t[14]):
            t[14], t[15] = rank, cards
    wins = []
    for (g, u), played in sorted(mine.items()):
        row: list[object] = [g, u]
        for at in range(3):  # day, week, month: the latest, and his net and hands in it
            latest = max(p[at] for p in played)
            inside = [p[3] for p in played if p[at] == latest]
            row += [latest, sum(inside), len(inside)]
        wins.append((*row, sum(p[3] for p in played), len(played)))
    return [tuple(days[key]) for key in sorted(days)], wins

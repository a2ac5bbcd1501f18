"""Child side of the tournament crash test: play Sit & Gos on a database file until killed.

``python -m tests.tables.tournament_crash_child DB SEED`` opens the database, starts the
table service (which resumes the channel's tournament), reports what it resumed, then plays
as fast as it can: creates a tournament when the channel has none, registers players one by
one, answers every turn, and now and then pauses and resumes, moves the level up or makes a
player forfeit. Its clock is a fake one that the worker moves itself (starting after every
time the database holds), so a level lasts a few hands of play, not a minute of waiting.

It says what it is doing on stdout, one line per write, for the test to kill it at the
moment it wants: ``REGISTERING``, ``TURN``, ``LEVEL`` (a new level announced), ``PAYOUT``
(inside the transaction paying a prize: the worker then sleeps, holding it open).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time

from dealerbot.store import tournament_play
from dealerbot.store.db import fetch_one
from dealerbot.store.ledger import Reason
from dealerbot.store.opening import open_database
from dealerbot.tables import TournamentPhase, errors
from dealerbot.tables import events as ev
from dealerbot.tables.service import TableService
from dealerbot.tables.timers import FakeClock

GUILD = 77
CHANNEL = 1001
USERS = (1, 2, 3, 4)


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())


_pool_move = tournament_play._pool_move


async def _paying(conn, t, user_id, delta, reason, now, note):  # type: ignore[no-untyped-def]
    await _pool_move(conn, t, user_id, delta, reason, now, note)
    if reason is Reason.PRIZE and delta:
        say(f"PAYOUT {t.id} {user_id}")
        time.sleep(0.3)  # noqa: ASYNC251 - blocking on purpose: the transaction stays open


tournament_play._pool_move = _paying  # type: ignore[assignment]


class Bots:
    def __init__(self) -> None:
        self.turn: ev.Turn | None = None

    async def __call__(self, event: ev.TableEvent) -> None:
        if isinstance(event, ev.Turn):
            self.turn = event
            say(f"TURN {event.hand_id} {event.seq}")
        elif isinstance(event, ev.ActionTaken | ev.HandEnded):
            self.turn = None
        elif isinstance(event, ev.TournamentNotice) and event.kind is ev.TournamentNoticeKind.LEVEL:
            say(f"LEVEL {event.tournament_id}")


async def last_time(path: str) -> float:
    """The latest time the database holds: the fake clock starts after it."""
    db = await open_database(path)
    try:
        async with db.reading() as conn:
            row = await fetch_one(
                conn,
                "SELECT MAX(t) FROM (SELECT MAX(created_at) AS t FROM ledger"
                " UNION ALL SELECT MAX(COALESCE(ended_at, started_at)) FROM hands"
                " UNION ALL SELECT MAX(created_at) FROM tournaments) AS times",
            )
        return float(row[0]) if row is not None and row[0] is not None else 1_000_000.0
    finally:
        await db.close()


async def worker(path: str, seed: int) -> None:
    rng = random.Random(seed)
    clock = FakeClock(await last_time(path) + 1)
    db = await open_database(path, clock=clock.now)
    service = TableService(db, clock=clock, rng=random.Random(seed * 7919 + 1))
    bots = Bots()
    service.subscribe(bots)
    await service.startup()
    tours = service.tournaments
    try:
        view = await tours.info(GUILD, CHANNEL)
        report = {
            "id": view.tournament_id,
            "phase": view.phase.value,
            "level": view.level.number if view.level else None,
            "seconds_left": view.seconds_left,
            "paused": view.paused,
            "stacks": {str(e.user_id): e.stack for e in view.entries},
            "places": {str(e.user_id): e.place for e in view.entries},
        }
    except errors.NoTournamentError:
        report = {}
    live = next(iter(service._tables.values()), None)
    if live is not None and live.hand is not None:
        report["hand"] = live.hand.id
        report["seq"] = live.hand.seq
    say("RESUMED " + json.dumps(report))
    say(f"READY {os.getpid()}")
    while True:
        try:
            try:
                view = await tours.info(GUILD, CHANNEL)
            except errors.NoTournamentError:
                view = None
            if view is None or view.phase in (TournamentPhase.FINISHED, TournamentPhase.CANCELLED):
                await tours.create(
                    GUILD, CHANNEL, 99, seats=len(USERS), starting_chips=100, level_minutes=1,
                    buy_in=rng.choice((10, 33, 100)), turn_seconds=10,
                )  # fmt: skip
                say("REGISTERING")
                continue
            if view.phase is TournamentPhase.REGISTERING:
                user = next(u for u in USERS if view.entry_of(u) is None)
                balance = await service.balance(GUILD, user)
                if balance.chips < view.buy_in:
                    await service.admin_adjust(GUILD, user, 1000, "top-up")
                await tours.register(GUILD, CHANNEL, user, f"u{user}")
                say(f"REGISTERED {user}")
                await asyncio.sleep(0.01)
                continue
            if view.phase is TournamentPhase.PAUSED:
                await tours.resume(GUILD, CHANNEL)
                continue
            roll = rng.random()
            if roll < 0.01:
                await tours.pause(GUILD, CHANNEL)
            elif roll < 0.02:
                await tours.level_up(GUILD, CHANNEL)
            elif roll < 0.025:
                left = [e.user_id for e in view.entries if e.place is None]
                await tours.forfeit(GUILD, CHANNEL, rng.choice(left))
            elif bots.turn is not None:
                turn = bots.turn
                kinds = [o.kind for o in turn.options]
                kind = kinds[-1] if rng.random() < 0.4 else rng.choice(kinds)
                await service.act(GUILD, CHANNEL, turn.user_id, turn.hand_id, turn.seq, kind)
            else:
                await clock.advance(6)
                await service.wait_idle()
        except errors.TableError:
            await clock.advance(1)


def main() -> None:
    path, seed = sys.argv[1], int(sys.argv[2])
    asyncio.run(worker(path, seed))


if __name__ == "__main__":
    main()

"""Child side of the real crash test: run busy tables against a database file until killed.

``python -m tests.tables.crash_child DB`` starts a *zygote*: it imports everything once,
then for each ``RUN <seed>`` line on stdin forks a worker process and reports
``PID <pid>``; when the worker dies it reports ``EXIT <pid> <status>``. The test kills
workers with SIGKILL, so each worker is a real process dying at a random moment, without
paying Python's start-up time fifty times.

A worker opens the database, starts the table service (which recovers every hand in
progress), reports what recovery did (``RECOVERED <hand> resumed|cancelled|finished``),
prints ``READY``, then plays as fast as it can: bots act on every turn, sometimes twice
at once, players join, leave, sit out and in, add chips.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys

from dealerbot.store import hands as hands_db
from dealerbot.store.opening import open_database
from dealerbot.tables import errors
from dealerbot.tables import events as ev
from dealerbot.tables.service import TableService

GUILD = 77
CHANNELS = (1001, 1002, 1003)
USERS = tuple(range(1, 15))


def say(line: str) -> None:
    os.write(1, (line + "\n").encode())  # one write: lines from two processes never mix


class Bots:
    """Remembers the latest turn per channel from the service's events."""

    def __init__(self) -> None:
        self.turns: dict[int, ev.Turn | None] = {}

    async def __call__(self, event: ev.TableEvent) -> None:
        if isinstance(event, ev.Turn):
            self.turns[event.channel_id] = event
        elif isinstance(event, ev.ActionTaken | ev.HandEnded | ev.TableClosed):
            self.turns[event.channel_id] = None


async def worker(path: str, seed: int) -> None:
    rng = random.Random(seed)
    db = await open_database(path)
    service = TableService(db, rng=random.Random(seed * 7919 + 1))
    bots = Bots()
    service.subscribe(bots)
    interrupted = await hands_db.hands_in_progress(db)
    await service.startup()
    live = {
        table.hand.id: table.hand.seq
        for table in service._tables.values()  # the test may look inside
        if table.hand is not None
    }
    for hand in interrupted:
        if hand.id in live:
            say(f"RECOVERED {hand.id} resumed {live[hand.id]}")
        else:
            status = (await hands_db.get_hand(db, hand.id)).status.value
            say(f"RECOVERED {hand.id} {status}")
    say(f"READY {os.getpid()}")
    for channel in CHANNELS:
        await service.config_set(GUILD, channel, between_hands_seconds=0, turn_seconds=10)
    s = service
    while True:
        channel = rng.choice(CHANNELS)
        user = rng.choice(USERS)
        roll = rng.random()
        turn = bots.turns.get(channel)
        try:
            if roll < 0.03:
                await s.join(GUILD, channel, user, f"u{user}", rng.choice([None, 120, 250]))
            elif roll < 0.04:
                await s.leave(GUILD, channel, user)
            elif roll < 0.05:
                await s.sit_out(GUILD, channel, user)
            elif roll < 0.09:
                await s.sit_in(GUILD, channel, user)
            elif roll < 0.10:
                await s.add_chips(GUILD, channel, user, rng.choice([10, 100]))
            elif roll < 0.11:
                if (await s.balance(GUILD, user)).chips < 300:
                    await s.admin_adjust(GUILD, user, 500, "top-up")
            elif turn is not None:
                kinds = [o.kind for o in turn.options]
                kind = rng.choice(kinds)
                copies = rng.choice([1, 1, 3])
                results = await asyncio.gather(
                    *(
                        s.act(GUILD, channel, turn.user_id, turn.hand_id, turn.seq, kind)
                        for _ in range(copies)
                    ),
                    return_exceptions=True,
                )
                applied = sum(not isinstance(r, BaseException) for r in results)
                if applied != 1:
                    say(f"BUG {applied} of {copies} copies applied: {results!r}")
            else:
                await asyncio.sleep(0.001)
        except errors.TableError:
            pass


def zygote(path: str) -> None:
    say("ZYGOTE")
    for line in sys.stdin:
        words = line.split()
        if not words or words[0] == "QUIT":
            return
        seed = int(words[1])
        pid = os.fork()
        if pid == 0:  # the worker
            code = 0
            try:
                asyncio.run(worker(path, seed))
            except BaseException as error:  # pragma: no cover - reported to the test
                say(f"BUG worker crashed: {error!r}")
                code = 1
            finally:
                os._exit(code)
        say(f"PID {pid}")
        _, status = os.waitpid(pid, 0)
        say(f"EXIT {pid} {status}")


if __name__ == "__main__":
    zygote(sys.argv[1])

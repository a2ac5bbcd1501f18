"""A card room played by the table service of schema version 7, run as its own process.

``python tests/store/v7_room.py OLD_TREE DATABASE_URL`` imports ``dealerbot`` from
OLD_TREE (the tree of the last commit at version 7, extracted by
tests/store/test_migration_from_7.py with its migrations/ as ``dealerbot.migrations``) and
plays through that code on DATABASE_URL: two guilds, guild defaults of stud8, one channel
with its own stud settings and one inheriting the defaults, random legal actions over three
days, a top-up, a player who leaves and one who comes back, a daily claim and an admin
grant; the last hand is left in progress. Every row is written by the old code itself, so
the migrations after 7 meet what a real room held. Written against the old API: it never
imports this checkout's code. Prints one JSON line: the hands finished and the one left
in progress, per channel.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
from pathlib import Path
from typing import Any

OLD_COMMIT = "a9fe74f82fe6237f9915fb73283a92b83bbad093"  # the parent of 713ad43 (0008)
GUILD, OTHER_GUILD = 111, 333
STUD8_CHANNEL, STUD_CHANNEL, OTHER_CHANNEL = 222, 223, 444
START = 1_796_083_200.0  # Tuesday 2026-12-01 00:00 UTC: the stats' days, weeks and months
DAY = 86_400.0


def use_old_tree(tree: str) -> None:
    """Put the old tree first on the path and check that ``dealerbot`` comes from it."""
    sys.path.insert(0, tree)
    import dealerbot

    assert Path(dealerbot.__file__).resolve().is_relative_to(Path(tree).resolve()), (
        f"dealerbot imported from {dealerbot.__file__}, not from the old tree {tree}"
    )


async def main(url: str) -> dict[str, Any]:
    from dealerbot.store import migrate
    from dealerbot.store.db import Database
    from dealerbot.tables import events as ev
    from dealerbot.tables.service import TableService
    from dealerbot.tables.timers import FakeClock

    clock = FakeClock(START)
    db = await Database.open(url, clock=clock.now)  # the old runner: migrations 1..7
    assert await migrate.current_version(db) == 7
    service = TableService(db, clock=clock, rng=random.Random(7))
    seen: list[Any] = []

    async def record(event: Any) -> None:
        seen.append(event)

    service.subscribe(record)
    await service.startup()
    rng = random.Random(11)

    def last_turn(channel: int) -> Any:
        for event in reversed(seen):
            if event.channel_id != channel:
                continue
            if isinstance(event, ev.Turn):
                return event
            if isinstance(event, ev.HandEnded | ev.TableClosed):
                return None
        return None

    def ended(channel: int) -> list[Any]:
        return [e for e in seen if isinstance(e, ev.HandEnded) and e.channel_id == channel]

    async def act_once(guild: int, channel: int) -> None:
        turn = last_turn(channel)
        assert turn is not None, f"no hand waits for an action at {channel}"
        kinds = [o.kind for o in turn.options]
        if len(kinds) > 1 and "fold" in [str(k) for k in kinds] and rng.random() < 0.85:
            kinds = [k for k in kinds if str(k) != "fold"]
        await service.act(guild, channel, turn.user_id, turn.hand_id, turn.seq, rng.choice(kinds))

    async def play(guild: int, channel: int, hands: int) -> None:
        for _ in range(hands):
            before = len(ended(channel))
            if last_turn(channel) is None:
                await service.start(guild, channel, admin=True)
            for _ in range(400):
                if len(ended(channel)) > before:
                    break
                await act_once(guild, channel)
            else:
                raise AssertionError("a hand did not end")
            await service.wait_idle()

    await service.guild_defaults_set(GUILD, variant="stud8")
    await service.config_set(GUILD, STUD_CHANNEL, variant="stud", ante=2, bring_in=3, small_bet=10)
    await service.config_set(OTHER_GUILD, OTHER_CHANNEL, variant="stud8", seats=6)
    for user in (1001, 1002, 1003):
        await service.join(GUILD, STUD8_CHANNEL, user, f"player {user}", None)
    for user in (1004, 1005):
        await service.join(GUILD, STUD_CHANNEL, user, f"player {user}", 300)
    for user in (1001, 1006):
        await service.join(OTHER_GUILD, OTHER_CHANNEL, user, f"other {user}", None)
    await service.admin_adjust(GUILD, 1004, 500)
    for day in range(3):
        clock._now = START + day * DAY + 3600 * (day + 1)  # a day later (no timer fires)
        await play(GUILD, STUD8_CHANNEL, 3)
        await play(GUILD, STUD_CHANNEL, 2)
        await play(OTHER_GUILD, OTHER_CHANNEL, 1)
        if day == 0:
            await service.daily(GUILD, 1003)
            await service.leave(GUILD, STUD_CHANNEL, 1005)
            await service.join(GUILD, STUD_CHANNEL, 1005, "player 1005", 200)
        if day == 1:
            await service.add_chips(GUILD, STUD_CHANNEL, 1004, 50)
            await service.leave(GUILD, STUD8_CHANNEL, 1003)
            await service.join(GUILD, STUD8_CHANNEL, 1007, "player 1007", None)
    await service.start(GUILD, STUD8_CHANNEL, admin=True)  # left in progress
    for _ in range(3):
        await act_once(GUILD, STUD8_CHANNEL)
    await service.wait_idle()
    in_progress = last_turn(STUD8_CHANNEL)
    assert in_progress is not None
    summary = {
        "finished": {str(c): len(ended(c)) for c in (STUD8_CHANNEL, STUD_CHANNEL, OTHER_CHANNEL)},
        "in_progress": in_progress.hand_id,
    }
    await service.shutdown()
    await db.close()
    return summary


if __name__ == "__main__":
    use_old_tree(sys.argv[1])
    print(json.dumps(asyncio.run(main(sys.argv[2]))))

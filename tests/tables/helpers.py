"""Shared helpers for the table service tests: a service on a temp database, an event
recorder, and a driver that plays random legal actions."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dealerbot.engine.events import ActionKind
from dealerbot.house import HouseStyle
from dealerbot.store import audit as audit_db
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.opening import open_database
from dealerbot.tables import events as ev
from dealerbot.tables.service import TableService
from dealerbot.tables.timers import FakeClock

GUILD = 111
CHANNEL = 222


@dataclass
class Recorder:
    """Collects every event the service delivers, in order."""

    events: list[ev.TableEvent] = field(default_factory=list)

    async def __call__(self, event: ev.TableEvent) -> None:
        self.events.append(event)

    def of(self, kind: type, channel: int | None = None) -> list:
        return [
            e
            for e in self.events
            if isinstance(e, kind) and (channel is None or e.channel_id == channel)
        ]

    def last_turn(self, channel: int = CHANNEL) -> ev.Turn | None:
        for event in reversed(self.events):
            if event.channel_id != channel:
                continue
            if isinstance(event, ev.Turn):
                return event
            if isinstance(event, ev.HandEnded | ev.TableClosed):
                return None
        return None

    def clear(self) -> None:
        self.events.clear()


@dataclass
class Harness:
    path: Path | str  # the SQLite file, or a database URL (tests/conftest.py: db_url)
    db: Database
    clock: FakeClock
    service: TableService
    recorder: Recorder
    house_style: HouseStyle | None = None  # house players' style (None: the service's own)

    async def restart(self, seed: int = 99) -> None:
        """Drop the service and the connection and open both again on the same file."""
        await self.service.shutdown()
        await self.db.close()
        self.db = await open_database(self.path, clock=self.clock.now)
        self.service = TableService(
            self.db, clock=self.clock, rng=random.Random(seed), house_style=self.house_style
        )
        self.service.subscribe(self.recorder)
        await self.service.startup()

    async def close(self) -> None:
        await self.service.shutdown()
        await self.db.close()

    async def execute(self, sql: str, params: tuple | dict = ()) -> int:
        """Run one statement on the database in its own transaction (either backend)."""
        async with self.db.transaction() as conn:
            return await conn.execute(sql, params)

    async def fetch(self, sql: str, params: tuple | dict = ()) -> list[tuple]:
        async with self.db.reading() as conn:
            return [tuple(row) for row in await fetch_all(conn, sql, params)]

    async def audit_ok(self) -> None:
        report = await audit_db.audit(self.db)
        assert report.ok, report.render()

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.service.wait_idle()


async def make_harness(
    where: Path | str,
    seed: int = 1,
    name: str = "t.sqlite3",
    *,
    house_style: HouseStyle | None = None,
) -> Harness:
    """A started service on a database: ``where`` is a folder (SQLite file ``name`` in it)
    or a database URL (the db_url / new_db_url fixtures: each backend)."""
    path = where / name if isinstance(where, Path) else where
    clock = FakeClock()
    db = await open_database(path, clock=clock.now)
    service = TableService(db, clock=clock, rng=random.Random(seed), house_style=house_style)
    recorder = Recorder()
    service.subscribe(recorder)
    await service.startup()
    return Harness(path, db, clock, service, recorder, house_style)


async def seat_players(
    service: TableService,
    users: Iterable[int],
    buy_in: int | None = None,
    guild: int = GUILD,
    channel: int = CHANNEL,
) -> None:
    for user in users:
        await service.join(guild, channel, user, f"player{user}", buy_in)


def pick(turn: ev.Turn, rng: random.Random) -> ActionKind:
    """A random legal option, folding rarely so hands reach later streets."""
    kinds = [o.kind for o in turn.options]
    if ActionKind.FOLD in kinds and len(kinds) > 1 and rng.random() < 0.8:
        kinds.remove(ActionKind.FOLD)
    return rng.choice(kinds)


def passive(turn: ev.Turn) -> ActionKind:
    """Check when possible, else call, else the first option (a forced bring-in)."""
    kinds = [o.kind for o in turn.options]
    for kind in (ActionKind.CHECK, ActionKind.CALL, ActionKind.BRING_IN):
        if kind in kinds:
            return kind
    return kinds[0]


async def play_hand(
    h: Harness,
    policy=None,
    rng: random.Random | None = None,
    channel: int = CHANNEL,
    max_actions: int = 300,
) -> ev.HandEnded:
    """Act for whoever is to act until the current hand at ``channel`` ends."""
    ended = len(h.recorder.of(ev.HandEnded, channel))
    rng = rng or random.Random(0)
    for _ in range(max_actions):
        finished = h.recorder.of(ev.HandEnded, channel)
        if len(finished) > ended:
            return finished[-1]
        turn = h.recorder.last_turn(channel)
        assert turn is not None, "no hand is waiting for an action"
        kind = policy(turn) if policy is not None else pick(turn, rng)
        await h.service.act(GUILD, channel, turn.user_id, turn.hand_id, turn.seq, kind)
    raise AssertionError("the hand did not end")


async def action_count(h: Harness, hand_id: int) -> int:
    rows = await h.fetch("SELECT COUNT(*) FROM hand_actions WHERE hand_id = ?", (hand_id,))
    return int(rows[0][0])


async def snapshot(h: Harness) -> dict[str, list[tuple]]:
    """Every row that holds chips or game state, to assert that a refusal changed nothing."""
    out: dict[str, list[tuple]] = {}
    for name, sql in {
        "wallets": "SELECT guild_id, user_id, chips, table_chips FROM wallets ORDER BY 1, 2",
        "seats": "SELECT table_id, seat_no, user_id, stack, sitting_out, leave_after_hand"
        " FROM seats ORDER BY 1, 2",
        "ledger": "SELECT id, user_id, account, delta, reason FROM ledger ORDER BY id",
        "hands": "SELECT id, status, action_deadline FROM hands ORDER BY id",
        "actions": "SELECT hand_id, seq, action FROM hand_actions ORDER BY 1, 2",
        "tables": "SELECT id, status, button_seat, hand_count FROM tables ORDER BY id",
    }.items():
        out[name] = await h.fetch(sql)
    return out

"""Migrations 0008-0011 on a card room that the code of schema version 7 played, on both
backends (issue 23: 0008's backfill had only met empty databases on PostgreSQL).

The room is played by the table service of the last commit at version 7, taken from this
repository's history (tests/store/v7_room.py, in a process of its own): stored settings of
two guilds, finished hands of stud and stud8 over three days, with the stats rows and
rollups that version's trigger wrote, and one hand left in progress. It is then upgraded by
``dealerbot db upgrade`` and checked against what today's code writes for the same room:

* 0008's backfill: every settings row keeps its game (``game = variant``) and gets the
  default rotation, exactly the row today's ``put_table_config`` writes for those settings;
* the stats rows and rollups (0009-0011) equal what today's backfill writes when it replays
  the same hands from the hand log (a twin of the room whose stats rows were taken away at
  version 7), and the rollups equal a recount;
* every other row is as version 7 left it; ``dealerbot db check`` and ``audit`` pass;
* today's table service resumes the hand left in progress (its hand log has no 0008
  columns) as the stud8 it was, and deals each table its own game afterwards.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tarfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest

from dealerbot import cli
from dealerbot.store import config as config_db
from dealerbot.store import migrate
from dealerbot.store.audit import audit
from dealerbot.store.catalog import rows_of, schema_of
from dealerbot.store.config import ConfigRow
from dealerbot.store.db import Database, fetch_all
from dealerbot.store.opening import open_database
from dealerbot.tables import ActionKind, FakeClock, TableService, Variant
from dealerbot.tables import events as ev
from tests.pg.databases import create_database, drop_database
from tests.pg.server import PostgresServer

from . import v7_room
from .rollup_recount import recounted, stored

REPO = Path(__file__).resolve().parents[2]
V7_TABLES = (
    "guilds", "wallets", "table_configs", "tables", "seats", "hands", "hand_actions",
    "ledger", "hand_players", "player_days", "winnings", "player_prefs",
)  # fmt: skip
CHANGED = {"table_configs", "hand_players"}  # the only tables 0008-0011 alter
# 0013 (tournaments) adds a column to these tables, at this place (None: at the end), NULL
# or 0 in every older row.
ADDED: dict[str, tuple[int | None, tuple[object, ...]]] = {
    "hands": (None, (None, None)),
    "ledger": (None, (None,)),
    "player_days": (4, (0,)),  # beside the key's columns: the new key's last one
    "player_prefs": (None, (None,)),  # 0016: no deck chosen
}


def with_added(name: str, row: tuple[object, ...]) -> tuple[object, ...]:
    at, values = ADDED.get(name, (None, ()))
    at = len(row) if at is None else at
    return row[:at] + values + row[at:]


OLD_CONFIG = tuple(f.name for f in fields(ConfigRow))[:10]  # the columns version 7 had
STATS_COLUMNS = (
    "hand_id, user_id, guild_id, table_id, variant, seat_no, put_in, won, net, last_street,"
    " entered_third, raised_third, showdown, won_showdown, shown_rank, shown_cards, ended_at,"
    " day, week, month"
)
Rows = dict[str, list[tuple[object, ...]]]


@pytest.fixture(scope="module")
def old_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The code of the last commit at version 7 (its ``migrations/`` as the package
    ``dealerbot.migrations``, so that it finds its own seven files)."""
    where = tmp_path_factory.mktemp("v7")
    try:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", v7_room.OLD_COMMIT, "dealerbot", "migrations"],
            check=True,
            capture_output=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.fail(
            f"this test plays a room with the code of commit {v7_room.OLD_COMMIT[:12]} from "
            f"the repository's history, which git could not give ({error}): run it in a "
            "clone with its history"
        )
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    (where / "migrations").rename(where / "dealerbot" / "migrations")
    return where


@dataclass
class Room:
    url: str  # the room as version 7 left it, then upgraded
    twin: str  # the same room whose stats rows were taken away at version 7
    summary: dict[str, Any]


@pytest.fixture
async def room(
    backend: str, old_tree: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Room]:
    server: PostgresServer | None = None
    if backend == "sqlite":
        url, twin = (f"sqlite:///{tmp_path / name}" for name in ("room.sqlite3", "twin.sqlite3"))
    else:
        server = request.getfixturevalue("pg_server")
        url = await create_database(server)
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        proc = await asyncio.create_subprocess_exec(
            sys.executable, str(Path(v7_room.__file__)), str(old_tree), url,
            env=env, cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(proc.communicate(), 120)
        assert proc.returncode == 0, err.decode()
        summary = json.loads(out.decode().splitlines()[-1])
        if server is None:
            shutil.copyfile(tmp_path / "room.sqlite3", tmp_path / "twin.sqlite3")
        else:
            twin = await create_database(server, template=url.rsplit("/", 1)[1])
        yield Room(url, twin, summary)
    finally:
        if server is not None:
            await drop_database(server, url)
            if "twin" in locals():
                await drop_database(server, twin)


async def every_row(db: Database) -> Rows:
    async with db.reading() as conn:
        return {info.name: await rows_of(conn, info) for info in await schema_of(conn)}


async def rows(db: Database, sql: str) -> list[tuple[object, ...]]:
    async with db.reading() as conn:
        return [tuple(r) for r in await fetch_all(conn, sql)]


async def configs(db: Database, columns: tuple[str, ...]) -> list[tuple[object, ...]]:
    names = ", ".join(("guild_id", "channel_id", *columns))
    return await rows(db, f"SELECT {names} FROM table_configs ORDER BY guild_id, channel_id")


async def upgrade(url: str, capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    assert await cli.db_upgrade(url) == 0
    return capsys.readouterr().out


async def test_a_room_played_at_version_7_upgrades_to_what_todays_code_writes(
    room: Room, capsys: pytest.CaptureFixture[str]
) -> None:
    async with await open_database(room.url, migrate_now=False) as db:
        assert await migrate.current_version(db) == 7
        before = await every_row(db)
        old_configs = await configs(db, OLD_CONFIG)
        old_stats = await rows(db, f"SELECT {STATS_COLUMNS} FROM hand_players ORDER BY 1, 2")
        logged = [json.loads(str(r[0])) for r in await rows(db, "SELECT config_json FROM hands")]
    assert set(before) == set(V7_TABLES)
    finished = sum(room.summary["finished"].values())
    assert len(before["hands"]) == finished + 1 and len(old_configs) == 3
    assert {row[2] for row in old_configs} == {"stud", "stud8"}
    assert len({row[0] for row in old_stats}) == finished and before["player_days"]
    assert {row[4] for row in old_stats} == {"stud", "stud8"}  # the games each table dealt
    assert not any("game" in config for config in logged)  # hand logs without 0008's keys
    async with (
        await open_database(room.twin, migrate_now=False) as twin,
        twin.transaction() as conn,
    ):  # today's backfill replays them instead
        for name in ("hand_players", "player_days", "winnings"):
            await conn.execute(f"DELETE FROM {name}")

    out = await upgrade(room.url, capsys)
    latest = migrate.discover()[-1].version
    assert [line for line in out.splitlines() if line.startswith("applied ")] == [
        f"applied {m.name}" for m in migrate.discover() if m.version > 7
    ]
    assert "player stats" not in out  # every finished hand already had its rows
    out = await upgrade(room.twin, capsys)
    assert f"player stats: {finished} older hands recorded, 0 could not be replayed" in out

    async with await open_database(room.url) as db, await open_database(room.twin) as twin:
        assert await migrate.current_version(db) == latest
        after = await every_row(db)
        for name in set(V7_TABLES) - CHANGED:
            kept = [with_added(name, row) for row in before[name]]
            assert after[name] == kept, f"{name} changed by the upgrade"
        # 0008: each row keeps its game and gets the default rotation, as written today.
        for guild, channel, *values in old_configs:
            await config_db.put_table_config(twin, guild, channel, ConfigRow(*values))  # type: ignore[arg-type]
        columns = tuple(f.name for f in fields(ConfigRow))
        assert await configs(db, columns) == await configs(twin, columns)
        # 0014: no house players (0, filling to 4), as a config written today says.
        for row in await configs(db, columns):
            variant, (*_, game, games, n, seconds, house, fill, deck) = row[2], row
            assert (game, games, n, seconds) == (variant, "stud,razz,stud8", 8, 20)
            assert (house, fill) == (0, 4)
            assert deck == "classic"  # 0016: the classic picture deck, as written today
        # 0009-0011: the stats rows as version 7 wrote them, folded, and what today's
        # backfill writes for the same hands; the rollups are theirs and a recount's.
        stats_now = await rows(db, f"SELECT {STATS_COLUMNS} FROM hand_players ORDER BY 1, 2")
        assert stats_now == old_stats
        assert stats_now == await rows(
            twin, f"SELECT {STATS_COLUMNS} FROM hand_players ORDER BY 1, 2"
        )
        assert await rows(db, "SELECT COUNT(*) FROM hand_players WHERE pending = 1") == [(0,)]
        assert await stored(db) == await stored(twin) == await recounted(db)

    capsys.readouterr()
    assert await cli.db_check(room.url) == 0, capsys.readouterr().out
    assert "pending migrations: none" in capsys.readouterr().out
    assert await cli.run_audit(room.url) == 0
    assert "audit passed" in capsys.readouterr().out
    await play_on(room)


async def play_on(room: Room) -> None:
    """Today's service on the upgraded room: the v7 hand in progress resumes as stud8 and
    ends; each table then deals its own game."""
    clock = FakeClock(v7_room.START + 4 * v7_room.DAY)
    seen: list[ev.TableEvent] = []

    async def record(event: ev.TableEvent) -> None:
        seen.append(event)

    def turn(channel: int) -> ev.Turn | None:
        for event in reversed(seen):
            if event.channel_id == channel and isinstance(event, ev.Turn | ev.HandEnded):
                return event if isinstance(event, ev.Turn) else None
        return None

    async def finish(service: TableService, guild: int, channel: int) -> ev.HandEnded:
        rng = random.Random(channel)
        for _ in range(400):
            ended = [e for e in seen if isinstance(e, ev.HandEnded) and e.channel_id == channel]
            if ended:
                return ended[-1]
            now = turn(channel)
            assert now is not None, f"no hand waits for an action at {channel}"
            kinds = [o.kind for o in now.options if o.kind is not ActionKind.FOLD]
            kind = rng.choice(kinds or [o.kind for o in now.options])
            await service.act(guild, channel, now.user_id, now.hand_id, now.seq, kind)
        raise AssertionError("the hand did not end")

    async with await open_database(room.url, clock=clock.now) as db:
        service = TableService(db, clock=clock, rng=random.Random(5))
        service.subscribe(record)
        await service.startup()
        try:
            view = await service.table_view(v7_room.GUILD, v7_room.STUD8_CHANNEL)
            assert view.hand_id == room.summary["in_progress"]
            if turn(v7_room.STUD8_CHANNEL) is None:  # the resumed hand's turn, as a click sees it
                await service.my_cards(v7_room.GUILD, v7_room.STUD8_CHANNEL, 1001)
            resumed = await finish(service, v7_room.GUILD, v7_room.STUD8_CHANNEL)
            assert resumed.hand_id == room.summary["in_progress"]
            for guild, channel, game in (
                (v7_room.GUILD, v7_room.STUD8_CHANNEL, Variant.STUD8),
                (v7_room.GUILD, v7_room.STUD_CHANNEL, Variant.STUD),
                (v7_room.OTHER_GUILD, v7_room.OTHER_CHANNEL, Variant.STUD8),
            ):
                seen.clear()
                await service.start(guild, channel, admin=True)
                [started] = [e for e in seen if isinstance(e, ev.HandStarted)]
                assert started.variant is game
                await finish(service, guild, channel)
            await service.wait_idle()
        finally:
            await service.shutdown()
        report = await audit(db)
        assert report.ok, report.render()

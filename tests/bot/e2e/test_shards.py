"""Two bot processes on one PostgreSQL, each on its shards, against the emulator.

The emulator routes each guild's events to the connection whose IDENTIFY named the
guild's shard (``(guild_id >> 22) % SHARD_COUNT``). Players in guilds on both shards play
at once; the process of shard 1 is killed with SIGKILL mid-hand and started again; every
hand finishes, the audit passes and no chip appears or vanishes. Then two processes on
the same shard: each table is run (leased, dealt, answered) by exactly one of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from pathlib import Path

import asyncpg
import pytest

from dealerbot.store import audit as audit_db
from dealerbot.store import hands as hands_db
from dealerbot.store.opening import open_database
from tests.bot.emulator import DiscordEmulator

from .driver import Club, action_buttons, passive, to_act
from .test_process import dealerbot, environment, finish

pytestmark = pytest.mark.backends("postgresql")

PLAYERS = 3
STARTING_CHIPS = 1000  # the new-guild economy
# Two processes on one bot token share Discord's global 50 requests/s (the emulator keeps
# it across connections): each takes a share that cannot exceed it together.
REST_BUDGET_EACH = "22"


def clubs_on_shards(emu: DiscordEmulator, tmp_path: Path, count: int, per_shard: int) -> list[Club]:
    """Guilds until each shard has ``per_shard`` of them (ids carry the clock: 1 ms apart)."""
    by_shard: dict[int, list[Club]] = {shard: [] for shard in range(count)}
    for _ in range(500):
        club = Club(emu, tmp_path / "unused.sqlite3", players=PLAYERS)
        shard = (club.guild.id >> 22) % count
        if len(by_shard[shard]) < per_shard:
            by_shard[shard].append(club)
        if all(len(c) == per_shard for c in by_shard.values()):
            return [club for shard in sorted(by_shard) for club in by_shard[shard]]
        time.sleep(0.0015)
    raise AssertionError("could not place guilds on every shard")


def hand_of(message: dict) -> int | None:
    for custom_id in action_buttons(message).values():
        return int(custom_id.split(":")[2])
    return None


async def play_until_hand_ends(
    club: Club, hand_id: int, limit: float = 60, seen: set[str] | None = None
) -> None:
    """Click the passive button for whoever is to act until hand ``hand_id`` has no buttons
    (the ids of the messages that carried its buttons go into ``seen``)."""
    deadline = asyncio.get_running_loop().time() + limit
    while asyncio.get_running_loop().time() < deadline:
        message = club.action_message()
        if message is None or hand_of(message) != hand_id:
            return
        if seen is not None:
            seen.add(message["id"])
        user = to_act(message)
        if user is None:
            await asyncio.sleep(0.05)
            continue
        rec = await club.emu.click(message["id"], passive(action_buttons(message)), user)
        with contextlib.suppress(TimeoutError):
            await rec.response(timeout=10)
        await asyncio.sleep(0.05)
    raise AssertionError(f"hand {hand_id} in {club.guild.name} did not end")


async def start_hand(club: Club) -> int:
    for player in club.players:
        text = await club.text(player, "join")
        assert "You sit in seat" in text, text
    text = await club.text(club.players[0], "start")
    assert text.startswith("Dealing hand"), text
    message, _ = await club.wait_turn(within=20)
    hand = hand_of(message)
    assert hand is not None
    return hand


async def chips_in(url: str) -> tuple[int, list[int], bool]:
    """Chips in wallets and seats, the hands still in progress, and the audit's verdict."""
    async with await open_database(url, migrate_now=False) as db:
        async with db.reading() as conn:
            row = await conn.fetch_one(
                "SELECT (SELECT COALESCE(SUM(chips), 0) FROM wallets)"
                " + (SELECT COALESCE(SUM(stack), 0) FROM seats)"
            )
        live = [h.id for h in await hands_db.hands_in_progress(db)]
        report = await audit_db.audit(db)
    assert row is not None
    return int(row[0]), live, report.ok


def connected(emu: DiscordEmulator, shards: int) -> bool:
    sessions = [s for s in emu.gateway.sessions.values() if s.shard and s.connection]
    return len({tuple(s.shard) for s in sessions}) >= shards


async def test_two_shards_one_killed_mid_hand(
    emulator: DiscordEmulator, tmp_path: Path, db_url: str
) -> None:
    clubs = clubs_on_shards(emulator, tmp_path, count=2, per_shard=2)
    base = environment(
        emulator,
        tmp_path,
        DISCORD_TOKEN=emulator.token,
        DATABASE_URL=db_url,
        SHARD_COUNT="2",
        REST_BUDGET=REST_BUDGET_EACH,
    )
    code, _, err = await finish(await dealerbot(base, tmp_path, "sync"))
    assert code == 0, err
    procs = {
        shard: await dealerbot({**base, "SHARD_IDS": str(shard)}, tmp_path) for shard in (0, 1)
    }
    try:
        await emulator.wait_for(lambda: connected(emulator, 2), 30)
        hands = await asyncio.gather(*(start_hand(club) for club in clubs))
        # A few actions everywhere at once, then shard 1's process dies mid-hand.
        for club, hand in zip(clubs, hands, strict=True):
            message, user = await club.wait_turn(within=20)
            assert hand_of(message) == hand
            rec = await emulator.click(message["id"], passive(action_buttons(message)), user)
            await rec.response(timeout=10)
        _, live, _ = await chips_in(db_url)
        assert sorted(live) == sorted(hands)  # every hand is still being played
        procs[1].send_signal(signal.SIGKILL)
        await procs[1].wait()
        procs[1] = await dealerbot({**base, "SHARD_IDS": "1"}, tmp_path)  # its replacement
        await emulator.wait_for(lambda: connected(emulator, 2), 30)
        await asyncio.gather(
            *(play_until_hand_ends(club, hand) for club, hand in zip(clubs, hands, strict=True))
        )
    finally:
        for proc in procs.values():
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        outputs = [await finish(proc) for proc in procs.values()]
    for code, out, err in outputs[:1]:
        assert code == 0, err
        assert "Traceback" not in out + err
    total, live, audit_ok = await chips_in(db_url)
    assert audit_ok
    assert total == len(clubs) * PLAYERS * STARTING_CHIPS  # no chip appeared or vanished
    assert not set(live) & set(hands)  # every hand of the test finished
    async with await open_database(db_url, migrate_now=False) as db:
        for hand in hands:
            record = await hands_db.get_hand(db, hand)
            assert record.status is hands_db.HandStatus.FINISHED, record
    emulator.assert_nothing_refused()


async def test_two_processes_on_the_same_shard_never_share_a_table(
    emulator: DiscordEmulator, tmp_path: Path, db_url: str
) -> None:
    clubs = [Club(emulator, tmp_path / "unused.sqlite3", players=PLAYERS) for _ in range(3)]
    base = environment(
        emulator,
        tmp_path,
        DISCORD_TOKEN=emulator.token,
        DATABASE_URL=db_url,
        SHARD_COUNT="1",
        SHARD_IDS="0",
        REST_BUDGET=REST_BUDGET_EACH,
    )
    code, _, err = await finish(await dealerbot(base, tmp_path, "sync"))
    assert code == 0, err
    procs = [await dealerbot(base, tmp_path) for _ in range(2)]
    try:
        await emulator.wait_for(
            lambda: len([s for s in emulator.gateway.sessions.values() if s.connection]) >= 2,
            30,
        )
        hands = await asyncio.gather(*(start_hand(club) for club in clubs))
        seen: list[set[str]] = [set() for _ in clubs]
        await asyncio.gather(
            *(
                play_until_hand_ends(club, hand, seen=ids)
                for club, hand, ids in zip(clubs, hands, seen, strict=True)
            )
        )
        # Each table's lease is held by exactly one server session (one of the two bots).
        admin = await asyncpg.connect(db_url)
        try:
            holders = await admin.fetch(
                "SELECT (classid::bigint << 32) | objid::bigint AS key, pid FROM pg_locks"
                " WHERE locktype = 'advisory' AND granted"
            )
        finally:
            await admin.close()
        by_channel: dict[int, set[int]] = {}
        for row in holders:
            by_channel.setdefault(int(row["key"]), set()).add(int(row["pid"]))
        for club in clubs:
            assert len(by_channel.get(club.channel.id, set())) == 1
    finally:
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        outputs = [await finish(proc) for proc in procs]
    for code, out, err in outputs:
        assert code == 0, err
        assert "Traceback" not in out + err
    for ids in seen:
        assert len(ids) == 1, ids  # one table message per hand, not one per process
    total, _, audit_ok = await chips_in(db_url)
    assert audit_ok and total == len(clubs) * PLAYERS * STARTING_CHIPS
    emulator.assert_nothing_refused()

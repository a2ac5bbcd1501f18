"""Where a click's time goes under load, measured inside the bot process (benchmarks).

With ``DEALERBOT_PERF_REPORT=<file>`` set, the process records every garbage-collector
pause (through ``gc.callbacks``, per generation), the event loop's lag (a task that asks
to sleep 10 ms and notes how late it wakes: the loop was busy with something else), and
how long commands waited for a table's lock; at exit it writes them, stamped with
``time.monotonic()`` (one clock for every process on the machine), as JSON to that file.
``benchmarks/bench_bot.py`` reads it to tell where the slowest clicks' time went.
Unset (production), nothing is installed and nothing costs anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import os
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from dealerbot.tables import service as table_service

VARIABLE = "DEALERBOT_PERF_REPORT"
LAG_INTERVAL = 0.010  # seconds between the lag sampler's wake-ups
KEEP = 500_000  # samples of each kind kept (the newest)


class Probe:
    """GC pauses, loop lag and lock waits, each as (monotonic time at its end, seconds)."""

    def __init__(self) -> None:
        self.gc: dict[int, deque[tuple[float, float]]] = {g: deque(maxlen=KEEP) for g in range(3)}
        self.lag: deque[tuple[float, float]] = deque(maxlen=KEEP)
        self._gc_start = 0.0

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
        else:
            self.gc[int(info["generation"])].append((time.monotonic(), now - self._gc_start))

    async def sample_lag(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(LAG_INTERVAL)
            late = time.perf_counter() - before - LAG_INTERVAL
            self.lag.append((time.monotonic(), max(0.0, late)))

    def report(self) -> dict[str, Any]:
        return {
            "gc": {str(g): list(v) for g, v in self.gc.items()},
            "loop_lag": list(self.lag),
            "lock_waits": list(table_service.WAITS or ()),
            "gc_frozen": gc.get_freeze_count(),
        }


@contextlib.asynccontextmanager
async def from_env() -> AsyncIterator[None]:
    """Record while the body runs when ``DEALERBOT_PERF_REPORT`` names a file."""
    target = os.environ.get(VARIABLE, "").strip()
    if not target:
        yield
        return
    probe = Probe()
    gc.callbacks.append(probe.on_gc)
    table_service.WAITS = deque(maxlen=KEEP)
    sampler = asyncio.create_task(probe.sample_lag(), name="perf-probe-lag")
    try:
        yield
    finally:
        sampler.cancel()
        gc.callbacks.remove(probe.on_gc)
        write_report(Path(target), probe.report())


def write_report(path: Path, report: dict[str, Any]) -> None:
    """Once, at exit (blocking is fine: the bot has stopped)."""
    path.write_text(json.dumps(report))

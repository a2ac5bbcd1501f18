"""One asyncio lock per table, created on first use and kept for the life of the service.

Every command and every timer callback for a table runs under its lock, so a table's
state and its database rows change one step at a time, in one order.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Hashable
from typing import Literal

# (monotonic time, seconds waited) of each contended acquire, while a benchmark's probe
# (dealerbot.perf_probe) records them; None (production): nothing is measured.
WAITS: deque[tuple[float, float]] | None = None


class TimedLock(asyncio.Lock):
    """An asyncio lock that notes how long a contended acquire waited, when asked to."""

    async def acquire(self) -> Literal[True]:
        if WAITS is None or not self.locked():
            return await super().acquire()
        start = time.perf_counter()
        await super().acquire()
        WAITS.append((time.monotonic(), time.perf_counter() - start))
        return True


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def get(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = TimedLock()
        return lock

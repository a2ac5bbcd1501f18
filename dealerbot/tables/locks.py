"""One asyncio lock per table, created on first use and kept for the life of the service.

Every command and every timer callback for a table runs under its lock, so a table's
state and its database rows change one step at a time, in one order.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable


class KeyedLocks:
    def __init__(self) -> None:
        self._locks: dict[Hashable, asyncio.Lock] = {}

    def get(self, key: Hashable) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

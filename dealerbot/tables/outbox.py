"""A table's event outbox: events queue while its lock is held and go out after.

A step emits events and marks the table changed; ``seal`` (lock still held) adds one
``TableChanged`` with the view at the end of the step; ``flush`` (lock released) delivers
everything in order, one batch at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager

from .events import TableEvent

Publish = Callable[[Sequence[TableEvent]], Awaitable[None]]


class Outbox:
    def __init__(self, publish: Publish) -> None:
        self._publish = publish
        self._queue: list[TableEvent] = []
        self._lock = asyncio.Lock()
        self.dirty = False

    def emit(self, event: TableEvent) -> None:
        self._queue.append(event)

    def seal(self, changed: Callable[[], TableEvent]) -> None:
        """End of a step: queue ``changed()`` (the new public view) if anything changed."""
        if self.dirty:
            self.dirty = False
            self._queue.append(changed())

    async def flush(self) -> None:
        """Deliver queued events in order (call after releasing the lock)."""
        async with self._lock:
            while self._queue:
                batch, self._queue = self._queue, []
                await self._publish(batch)

    @asynccontextmanager
    async def step(
        self, lock: asyncio.Lock, changed: Callable[[], TableEvent]
    ) -> AsyncIterator[None]:
        """Hold ``lock`` for one step and seal it, then deliver what it produced."""
        try:
            async with lock:
                try:
                    yield
                finally:
                    self.seal(changed)
        finally:
            await self.flush()

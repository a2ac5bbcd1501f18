"""Snowflake ids and timestamps in Discord's formats.

Ids must grow with time like Discord's (discord.py derives `created_at` from them and
sorts history by them), so every id is built from the clock and forced to be larger
than the previous one.
"""

from __future__ import annotations

import datetime
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hands out strictly increasing snowflakes."""

    def __init__(self, worker: int = 1, process: int = 1) -> None:
        self._prefix = ((worker & 0x1F) << 17) | ((process & 0x1F) << 12)
        self._increment = 0
        self._last = 0

    def next(self) -> int:
        """A new snowflake, larger than every one handed out before."""
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        self._increment = (self._increment + 1) & 0xFFF
        candidate = (now_ms << 22) | self._prefix | self._increment
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


def iso_now() -> str:
    """The current UTC time as Discord writes it (ISO 8601 with offset)."""
    return datetime.datetime.now(datetime.UTC).isoformat()


def iso_from_epoch(seconds: float) -> str:
    """An epoch time as Discord writes it."""
    return datetime.datetime.fromtimestamp(seconds, datetime.UTC).isoformat()

"""SHARD_COUNT and SHARD_IDS: which of Discord's shards this process connects.

Unset: one process, discord.py picks the count, every shard here (as before). With
``SHARD_COUNT=N``: N shards in all; ``SHARD_IDS`` names this process's ones (``0-3``,
``4,5`` or ``0-1,6``), all N if unset. Every mistake is a :class:`ValueError` naming the
setting and what to write.
"""

from __future__ import annotations

MAX_SHARDS = 65_536


def _number(name: str, text: str) -> int:
    if not text.strip().isdigit():
        raise ValueError(f"{name} must be whole numbers, not {text!r}")
    return int(text)


def parse_shard_ids(text: str, count: int) -> tuple[int, ...]:
    ids: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        first = _number("SHARD_IDS", low)
        last = _number("SHARD_IDS", high) if dash else first
        if last < first:
            raise ValueError(f"SHARD_IDS range {part.strip()!r} runs backwards")
        ids.update(range(first, last + 1))
    outside = sorted(i for i in ids if i >= count)
    if outside:
        raise ValueError(
            f"SHARD_IDS names shard {outside[0]}, outside SHARD_COUNT={count} "
            f"(shards are numbered 0 to {count - 1})"
        )
    return tuple(sorted(ids))


def parse_shards(
    count_text: str | None, ids_text: str | None
) -> tuple[int | None, tuple[int, ...] | None]:
    """(SHARD_COUNT, SHARD_IDS) from the settings' text, or (None, None) when unset."""
    if count_text is None:
        if ids_text is not None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT (the total number of shards) too")
        return None, None
    count = _number("SHARD_COUNT", count_text)
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(f"SHARD_COUNT must be from 1 to {MAX_SHARDS}, not {count}")
    if ids_text is None:
        return count, tuple(range(count))
    return count, parse_shard_ids(ids_text, count)

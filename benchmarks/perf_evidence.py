"""Where bench_bot's slowest clicks spent their time, from the bot's own probe.

The bot process (run with ``DEALERBOT_PERF_REPORT``, see dealerbot/perf_probe.py) records
its garbage-collector pauses, its event loop's lag and its table-lock waits, each stamped
with ``time.monotonic()``, the clock this process stamps clicks with. These helpers keep
what fell in the loaded phase and match it against the slowest clicks.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

Span = tuple[float, float]  # (end, seconds)


@dataclass
class Perf:
    gc: dict[int, list[Span]] = field(default_factory=dict)
    lag: list[Span] = field(default_factory=list)
    lock_waits: list[Span] = field(default_factory=list)
    frozen: int = 0
    found: bool = False


def load_perf(path: Path, start: float, end: float) -> Perf:
    """The probe's records that ended between ``start`` and ``end`` (monotonic seconds)."""
    if not path.exists():
        return Perf()
    raw = json.loads(path.read_text())

    def keep(rows: list[list[float]]) -> list[Span]:
        return [(t, d) for t, d in rows if start <= t <= end]

    return Perf(
        gc={int(g): keep(rows) for g, rows in raw["gc"].items()},
        lag=keep(raw["loop_lag"]),
        lock_waits=keep(raw["lock_waits"]),
        frozen=int(raw.get("gc_frozen", 0)),
        found=True,
    )


def pct(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def describe(label: str, spans: list[Span]) -> str:
    ms = [1000 * d for _, d in spans]
    if not ms:
        return f"{label}: none"
    return (
        f"{label}: {len(ms)}, total {sum(ms):.0f} ms, median {pct(ms, 0.5):.2f} ms, "
        f"p99 {pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms"
    )


def overlaps(click: Span, spans: list[Span], at_least: float) -> float:
    """Seconds of ``spans`` (each at least ``at_least`` s long) inside the click's wait."""
    c_end, c_len = click
    c_start = c_end - c_len
    total = 0.0
    for end, length in spans:
        if length >= at_least:
            total += max(0.0, min(end, c_end) - max(end - length, c_start))
    return total


def attribute(perf: Perf, clicks: list[Span]) -> list[str]:
    """For the given clicks (answer time, latency): how much of their wait was a GC pause
    in the bot, a stall of its event loop, or a wait for a table's lock."""
    if not clicks or not perf.found:
        return []
    waited = sum(length for _, length in clicks)
    gc_all = [span for spans in perf.gc.values() for span in spans]
    gc_time = sum(overlaps(c, gc_all, 0.0) for c in clicks)
    gc2 = sum(overlaps(c, perf.gc.get(2, []), 0.0) for c in clicks)
    # A lag sample covers the 10 ms sleep and how late it woke: only the lateness is a stall.
    stalls = [(end, lag) for end, lag in perf.lag if lag >= 0.005]
    stall_time = sum(overlaps(c, stalls, 0.0) for c in clicks)
    lock_time = sum(overlaps(c, perf.lock_waits, 0.0) for c in clicks)
    hit_gc2 = sum(1 for c in clicks if overlaps(c, perf.gc.get(2, []), 0.0) > 0)
    return [
        f"  of their {1000 * waited:.0f} ms: bot GC pauses {100 * gc_time / waited:.0f}% "
        f"(full collections {100 * gc2 / waited:.0f}%, in {hit_gc2} of {len(clicks)} clicks); "
        f"bot event loop stalled (lag >= 5 ms) {100 * stall_time / waited:.0f}%; "
        f"table-lock waits {100 * lock_time / waited:.0f}% (overlapping, not additive)"
    ]


def max_in_window(times: list[float], window: float = 1.0) -> int:
    """The most requests in any ``window`` seconds."""
    ordered = sorted(times)
    best = start = 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - window:
            start += 1
        best = max(best, end - start + 1)
    return best


def per_second(times: list[float], seconds: int) -> list[int]:
    """Requests in each of the first ``seconds`` whole seconds from the first one."""
    if not times:
        return []
    first = min(times)
    counts = [0] * seconds
    for at in times:
        slot = int(at - first)
        if slot < seconds:
            counts[slot] += 1
    return counts

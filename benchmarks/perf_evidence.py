"""bench_bot's figures, computed from what it recorded (pure functions, tested apart).

Where the slowest clicks spent their time: the bot process (run with
``DEALERBOT_PERF_REPORT``, see dealerbot/perf_probe.py) records its garbage-collector
pauses, its event loop's lag and its table-lock waits, each stamped with
``time.monotonic()``, the clock this process stamps clicks with. These helpers keep what
fell in the loaded phase and match it against the slowest clicks.

What the bot sent: every request the emulator recorded, sorted into kinds (:class:`Kind`),
the ones that spend Discord's global budget apart from interaction answers and webhooks
(Discord does not count those against its 50/s), counted per hand over phase 2's window
only; the DM delay from a hand's deal to each player's DM; turn alerts matched against the
driver's own record of how long each turn waited.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

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


# --- what the bot sent ----------------------------------------------------------------

EPHEMERAL = 1 << 6  # a message flag: only the interaction's user sees it
HAND = re.compile(r"hand #(\d+)")  # table titles and DM titles name the table's hand number
DEALING = re.compile(r"Dealing hand #(\d+)")  # the answer to /stud start
ALERT_TITLE = "Your turn"  # dealerbot/bot/turn_alerts.py: alert_embed
QUIET_CORES = 0.2  # other processes' load above which a run's figures do not count


class Kind(Enum):
    """What one request was, sorted as Discord's global rate limit sorts them."""

    DM = "DMs sent"
    DM_EDIT = "DMs edited"
    TURN_ALERT = "turn alerts (DMs)"
    DM_OPEN = "DM channels opened (once per player)"
    TABLE_POST = "table messages posted by REST"
    TABLE_EDIT = "table edits by REST"
    OTHER_REST = "other REST requests"
    TABLE_EDIT_TOKEN = "table edits through interaction tokens"
    PRIVATE_EDIT_TOKEN = "private answers edited through interaction tokens"
    FOLLOWUP = "follow-ups (interaction webhook posts)"
    WEBHOOK_OTHER = "other interaction-webhook requests"
    CALLBACK = "interaction callbacks"

    @property
    def budgeted(self) -> bool:
        """Whether Discord counts it against the token's global limit (50/s): everything
        but interaction callbacks and interaction webhooks."""
        return self not in OUTSIDE_BUDGET


OUTSIDE_BUDGET = frozenset(
    {
        Kind.TABLE_EDIT_TOKEN,
        Kind.PRIVATE_EDIT_TOKEN,
        Kind.FOLLOWUP,
        Kind.WEBHOOK_OTHER,
        Kind.CALLBACK,
    }
)


@dataclass(frozen=True)
class Places:
    """What the ids in a request's path are: tables, players' DM channels, interactions."""

    tables: frozenset[str]  # table channel ids
    dm_users: Mapping[str, int]  # DM channel id -> the player it reaches
    token_channels: Mapping[str, int]  # interaction token -> the channel it came from


@dataclass(frozen=True)
class Sent:
    """One request the bot sent, as the figures need it."""

    at: float  # time.monotonic() when the emulator received it
    kind: Kind
    table: int | None = None  # the table channel it concerns (None: a DM, a DM open, other)
    user: int | None = None  # the player a DM or a DM-channel open is for
    hand: int | None = None  # the table's hand number its message shows
    deal: bool = False  # it shows hand ``hand`` at ``table`` (the first such one is the deal)


def message_of(body: Any) -> Mapping[str, Any]:
    """The message a request body carries (an interaction callback nests it in ``data``)."""
    if not isinstance(body, dict):
        return {}
    data = body.get("data")
    return data if isinstance(data, dict) else body


def hand_shown(message: Mapping[str, Any]) -> int | None:
    """The hand number an embed title names (``Stud · 5/10 · hand #2``, ``Your cards —
    hand #2``), or that ``Dealing hand #2.`` announces."""
    for embed in message.get("embeds") or []:
        if isinstance(embed, dict):
            found = HAND.search(str(embed.get("title") or ""))
            if found:
                return int(found.group(1))
    found = DEALING.match(str(message.get("content") or ""))
    return int(found.group(1)) if found else None


def is_alert(message: Mapping[str, Any]) -> bool:
    embeds = message.get("embeds") or []
    return any(isinstance(e, dict) and e.get("title") == ALERT_TITLE for e in embeds)


def _ephemeral(*messages: Any) -> bool:
    return any(isinstance(m, dict) and int(m.get("flags") or 0) & EPHEMERAL for m in messages)


def sort_request(
    at: float, method: str, path: str, body: Any, response: Any, places: Places
) -> Sent:
    """What a request the bot sent was, which table or player it concerns, which hand."""
    parts = path.split("/")
    message = message_of(body)
    head = parts[1] if len(parts) > 1 else ""
    if head in ("interactions", "webhooks"):  # both carry the token third
        channel = places.token_channels.get(parts[3]) if len(parts) > 3 else None
        private = _ephemeral(message, response)
        if head == "interactions":
            kind = Kind.CALLBACK
        elif method == "POST" and len(parts) == 4:
            kind = Kind.FOLLOWUP
        elif method == "PATCH" and len(parts) == 6 and parts[4] == "messages":
            kind = Kind.PRIVATE_EDIT_TOKEN if private else Kind.TABLE_EDIT_TOKEN
        else:
            kind = Kind.WEBHOOK_OTHER
        table = channel if channel is not None and str(channel) in places.tables else None
        hand = hand_shown(message)
        content = str(message.get("content") or "")
        deal = hand is not None and (not private or DEALING.match(content) is not None)
        return Sent(at, kind, table, hand=hand, deal=deal and table is not None)
    if method == "POST" and path == "/users/@me/channels":
        recipient = str(body.get("recipient_id")) if isinstance(body, dict) else ""
        user = int(recipient) if recipient.isdigit() else None
        return Sent(at, Kind.DM_OPEN, user=user)
    if len(parts) >= 4 and head == "channels" and parts[3] == "messages":
        channel_id = parts[2]
        if channel_id in places.dm_users:
            if method == "POST" and len(parts) == 4:
                kind = Kind.TURN_ALERT if is_alert(message) else Kind.DM
            else:
                kind = Kind.DM_EDIT if method == "PATCH" else Kind.OTHER_REST
            return Sent(at, kind, user=places.dm_users[channel_id], hand=hand_shown(message))
        if channel_id in places.tables:
            if method == "POST" and len(parts) == 4:
                kind = Kind.TABLE_POST
            else:
                kind = Kind.TABLE_EDIT if method == "PATCH" else Kind.OTHER_REST
            hand = hand_shown(message)
            return Sent(at, kind, int(channel_id), hand=hand, deal=hand is not None)
    return Sent(at, Kind.OTHER_REST)


def phase_window(
    sent: Iterable[Sent], start: float, end: float, done_at: Mapping[int, float]
) -> list[Sent]:
    """The requests of ``start``..``end``, less what a table sent once it was done with its
    hands (``done_at``: when the driver began winding it down)."""
    return [
        s
        for s in sent
        if start <= s.at <= end
        and not (s.table is not None and s.table in done_at and s.at >= done_at[s.table])
    ]


@dataclass(frozen=True)
class Budget:
    """Phase 2's requests by kind, per hand, against the bot's share of the global limit."""

    hands: int
    seconds: float
    counts: Mapping[Kind, int]
    busiest: int  # the most global-budget requests in any one second
    limit: int  # requests per second the bot allows itself (REST_BUDGET, 45)

    def per_hand(self, n: int) -> float:
        return n / max(self.hands, 1)

    @property
    def budgeted(self) -> int:
        """Global-budget requests, the one-time DM-channel opens included."""
        return sum(n for kind, n in self.counts.items() if kind.budgeted)

    @property
    def steady(self) -> int:
        """Global-budget requests without the DM-channel opens (once per player, not per
        hand): what every further hand costs."""
        return self.budgeted - self.counts.get(Kind.DM_OPEN, 0)

    @property
    def hands_per_second(self) -> float:
        """Hands one bot token can carry: the budget over what a hand costs in it."""
        per_hand = self.per_hand(self.steady)
        return self.limit / per_hand if per_hand > 0 else float("inf")

    @property
    def average_rate(self) -> float:
        return self.budgeted / self.seconds if self.seconds > 0 else 0.0


def budget(window: Sequence[Sent], hands: int, seconds: float, limit: int) -> Budget:
    counts: dict[Kind, int] = {}
    for s in window:
        counts[s.kind] = counts.get(s.kind, 0) + 1
    busiest = max_in_window([s.at for s in window if s.kind.budgeted])
    return Budget(hands, seconds, counts, busiest, limit)


def deals(sent: Iterable[Sent]) -> dict[tuple[int, int], float]:
    """When each (table, hand) was first shown: the first request showing that hand at its
    table (a table message, or the ``Dealing hand #N`` answer to ``/stud start``)."""
    found: dict[tuple[int, int], float] = {}
    for s in sent:
        if s.deal and s.table is not None and s.hand is not None:
            key = (s.table, s.hand)
            found[key] = min(s.at, found.get(key, s.at))
    return found


def dm_delays(sent: Sequence[Sent], table_of: Mapping[int, int], since: float) -> list[float]:
    """Seconds from each hand's deal (at or after ``since``) to each of its players' first
    DM of that hand; ``table_of`` maps a player to his table channel."""
    dealt = {key: at for key, at in deals(sent).items() if at >= since}
    dms: dict[tuple[int, int], float] = {}
    for s in sent:
        if s.kind is Kind.DM and s.user is not None and s.hand is not None:
            key = (s.user, s.hand)
            dms[key] = min(s.at, dms.get(key, s.at))
    return sorted(
        at - dealt[(table_of[user], hand)]
        for (user, hand), at in dms.items()
        if user in table_of and (table_of[user], hand) in dealt
    )


@dataclass(frozen=True)
class Turn:
    """One turn as the driver lived it (``time.monotonic()``, the emulator's clock too)."""

    user: int
    opened: float  # the driver sent what opened it (the click before, or /stud start)
    shown: float  # the table message offering him his turn reached the driver
    acted: float  # the driver clicked
    answered: float  # the click's answer came back (the bot had the click by then)

    @property
    def waited(self) -> float:
        """How long the turn waited by the driver's clock: shown to clicked."""
        return self.acted - self.shown

    @property
    def longest(self) -> float:
        """The most the bot's clock can have counted: it opens the turn after ``opened``
        and has the click before ``answered``."""
        return self.answered - self.opened


@dataclass(frozen=True)
class AlertCheck:
    """Turn alerts against the turns that waited, by the driver's clock."""

    alerts: int
    waited: int  # turns that waited over the alert delay (the driver's clock)
    near: int  # turns that did not, but may have by the bot's clock (Turn.longest)
    justified: int  # alerts for a turn that may have waited the delay by the bot's clock
    early: int  # alerts for a turn that cannot have waited that long
    unseen: int  # alerts to a player the driver had opened no turn for before it
    missed: int  # turns that waited over the delay plus ``slack``, with no alert


def check_alerts(
    alerts: Iterable[tuple[int, float]], turns: Iterable[Turn], delay: float, slack: float
) -> AlertCheck:
    """Match each alert (player, when it arrived) to that player's latest turn opened before
    it (the bot checks the turn is still open when its alert is due; the DM may go out
    later). A turn with no alert is missed only past ``slack`` over the delay (a DM still on
    its way); ``delay`` 0 means alerts are off."""
    by_user: dict[int, list[Turn]] = {}
    for turn in sorted(turns, key=lambda t: t.opened):
        by_user.setdefault(turn.user, []).append(turn)
    alerted: set[tuple[int, int]] = set()
    count = justified = early = unseen = 0
    for user, at in alerts:
        count += 1
        mine = by_user.get(user, [])
        index = max((i for i, t in enumerate(mine) if t.opened <= at), default=-1)
        if index < 0:
            unseen += 1
        elif delay > 0 and mine[index].longest >= delay:
            justified += 1
            alerted.add((user, index))
        else:
            early += 1
    every = [(user, i, t) for user, mine in by_user.items() for i, t in enumerate(mine)]
    missed = 0
    if delay > 0:
        missed = sum(
            1 for user, i, t in every if t.waited > delay + slack and (user, i) not in alerted
        )
    return AlertCheck(
        alerts=count,
        waited=sum(1 for _, _, t in every if t.waited > delay),
        near=sum(1 for _, _, t in every if t.waited <= delay <= t.longest),
        justified=justified,
        early=early,
        unseen=unseen,
        missed=missed,
    )


def does_not_count(other_cores: float, limit: float = QUIET_CORES) -> str | None:
    """The line that disowns a run whose machine was busy with other work, or None."""
    if other_cores <= limit:
        return None
    return (
        f"DOES NOT COUNT: other processes kept {other_cores:.2f} cores busy during phase 2 "
        f"(more than {limit:g}); run it again on an idle machine"
    )

"""The Discord bot under load: N tables of 6 scripted players, through the Discord emulator.

Run from the repo root: ``python benchmarks/bench_bot.py [--tables 200] [--hands 2]
[--think 1.0] [--global-limit 0] [--quick]``.

The bot runs as it does in production (``python -m dealerbot`` in its own process, real
clock, SQLite file); this process runs the emulator and the players. Each player clicks
a button of the table message some time after it shows his turn (``--think`` seconds on
average, uniformly 0.5x-1.5x; 0 clicks at once); each table starts its first hand at a
random moment within ten think times, as real tables do not start in lockstep (no turn is
open then: the driver sends ``/stud start`` after that wait). Phase 1 plays one hand at one
table alone (the latency reference); phase 2 plays ``--hands`` at every table at once, and
every per-hand figure counts phase 2 only: the requests the emulator received between its
start and its end, over the hands the driver played in it. A table done with its hands
counts nothing after its last result; if phase 2 still runs 45 s later, five of its players
sit out, so the bot's between-hands timer (60 s here) does not deal a hand nobody plays (the
old figure "200 turn alerts for 0 turns that waited" was those hands: one per table, their
first turn unanswered for 10 s, counted because every request until the emulator went quiet
was counted). Printed:

- click-to-response latency: from the interaction's creation in the emulator to the bot's
  callback, median and 99th percentile (target p99 < 100 ms), and the same clicks with one
  table alone (phase 1), so the ratio shows the cost of the load itself;
- requests per hand by kind (perf_evidence.Kind): DMs, DM-channel opens, table posts, table
  edits by REST and through interaction tokens, follow-ups, turn alerts, callbacks; the
  global-budget requests per hand (all but interaction callbacks and webhooks, which Discord
  does not count against a token's 50/s), without the one-time DM-channel opens (steady
  state) and with them; the hands per second one bot token can carry (REST_BUDGET, 45, over
  the steady-state figure), the average and the busiest second of global-budget requests;
- DMs per player per hand, and the DM delay: from a hand's deal (the first request showing
  that hand at its table, the ``Dealing hand #N`` answer included) to each player's first DM
  of that hand, median and p99;
- turn alerts against the turns that really waited by the driver's own clock (when it saw
  the turn, when it clicked): an alert the bot sent for a turn that did not wait
  ``--alert-seconds`` (TURN_ALERT_SECONDS, 10 in production) is counted as such;
- the bot's memory (RSS) per table and its CPU time per click; other processes' CPU on the
  machine: a run where they kept more than 0.2 cores busy says "DOES NOT COUNT".

This process's own garbage collector is paused while the tables play: the emulator keeps
every message and edit, and its full collections (hundreds of ms) would otherwise be
counted as the bot's latency. The bot runs with LOG_LEVEL=ERROR.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __name__ == "__main__" and not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.perf_evidence import (
    Budget,
    Kind,
    Perf,
    Places,
    Sent,
    Turn,
    attribute,
    budget,
    check_alerts,
    deals,
    describe,
    dm_delays,
    does_not_count,
    load_perf,
    pct,
    per_second,
    phase_window,
    sort_request,
)
from dealerbot.settings import DEFAULT_REST_BUDGET
from dealerbot.tables import TableService, open_database
from tests.bot.emulator import CallbackRecord, Channel, DiscordEmulator, Member

REPO = Path(__file__).resolve().parents[1]
PLAYERS = 6
TURN = re.compile(r"<@(\d+)>")
RESULT = re.compile(r"hand #\d+ — ")  # a result's title names the winner after the dash
DEFERRED_MESSAGE = 5
DEFERRED_UPDATE = 6
UPDATE = 7
JSON = dict[str, Any]
BETWEEN_HANDS = 60  # seconds the bot waits between hands here (the bound's highest)
SIT_OUT_AFTER = 45.0  # a table done this long before phase 2 ends sits out: no timer hand
DRAIN_QUIET, DRAIN_LIMIT = 1.0, 120.0  # after phase 2: wait for requests still queued
ALERT_SLACK = 0.5  # seconds an alert DM may still be on its way when the run counts
# Issue 21's targets (idle machine), and issue 22's one DM per player per hand.
TARGET_BUDGET_PER_HAND = 11.0  # global-budget requests per 6-handed hand, steady state
TARGET_HANDS_PER_TOKEN = 4.0
TARGET_CPU_PER_CLICK_MS = 1.5
TARGET_KIB_PER_TABLE = 60.0
TARGET_P99_MS = 100.0
TARGET_DMS_PER_PLAYER = 1.0
percentile = pct  # the name bench_bot_shards.py imports


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    stamps: list[float] = field(default_factory=list)
    hands: int = 0
    clicks: int = 0
    refused: int = 0
    deferred: int = 0
    stale: int = 0  # clicks not sent: the message no longer had that button
    turns: list[Turn] = field(default_factory=list)  # each turn: when shown, when clicked
    errors: list[str] = field(default_factory=list)
    done_at: dict[int, float] = field(default_factory=dict)  # table: its last result seen


class ChannelWatch:
    """Wakes a table's player loop whenever the bot posts or edits in its channel."""

    def __init__(self, emu: DiscordEmulator) -> None:
        self.events: dict[int, asyncio.Event] = {}
        self.latest: dict[int, int] = {}
        world = emu.world
        create, edit = world.create_message, world.edit_message

        def on_create(channel: Any, body: JSON, **kwargs: Any) -> Any:
            msg = create(channel, body, **kwargs)
            if not msg.ephemeral and channel.guild_id is not None:
                self.latest[channel.id] = msg.id
                self.event(channel.id).set()
            return msg

        def on_edit(msg: Any, body: JSON, **kwargs: Any) -> Any:
            result = edit(msg, body, **kwargs)
            self.event(msg.channel_id).set()
            return result

        world.create_message = on_create  # type: ignore[method-assign]
        world.edit_message = on_edit  # type: ignore[method-assign]

    def event(self, channel_id: int) -> asyncio.Event:
        found = self.events.get(channel_id)
        if found is None:
            found = self.events[channel_id] = asyncio.Event()
        return found


def action_buttons(message: JSON) -> dict[str, str]:
    out = {}
    for row in message.get("components") or []:
        for comp in row.get("components") or []:
            parts = str(comp.get("custom_id", "")).split(":")
            if len(parts) == 5 and parts[0] == "stud" and parts[1].isdigit():
                out[parts[4]] = comp["custom_id"]
    return out


def to_act(message: JSON) -> int | None:
    for embed in message.get("embeds") or []:
        for f in embed.get("fields") or []:
            if f.get("name") == "To act":
                found = TURN.search(f.get("value") or "")
                return int(found.group(1)) if found else None
    return None


def choose(buttons: dict[str, str], rng: random.Random) -> str:
    roll = rng.random()
    if "fold" in buttons and roll < 0.12:
        return buttons["fold"]
    for verb in ("raise", "bet", "complete"):
        if verb in buttons and roll > 0.85:
            return buttons[verb]
    for verb in ("check", "call", "bring_in", "complete", "bet"):
        if verb in buttons:
            return buttons[verb]
    return next(iter(buttons.values()))


async def command(
    emu: DiscordEmulator, guild: Any, channel: Channel, user: Member, sub: str, **options: Any
) -> CallbackRecord:
    rec = await emu.slash_command(guild, channel, user, "stud", subcommand=sub, options=options)
    answer = await rec.response(timeout=60)
    if answer.type == DEFERRED_MESSAGE:  # a slow answer under load: its follow-up
        [followup] = await rec.wait_followups(1, timeout=60)
        return CallbackRecord(4, followup, answer.elapsed)
    return answer


async def play_table(
    emu: DiscordEmulator,
    watch: ChannelWatch,
    guild: Any,
    channel: Channel,
    players: list[Member],
    hands: int,
    think: float,
    rng: random.Random,
    stats: Stats,
    burst: bool = False,
) -> None:
    """One table's hands; a click Discord would have refused (no answer within 60 s,
    a table that stopped) ends that table's play as an error, and the run goes on."""
    try:
        await play_hands(emu, watch, guild, channel, players, hands, think, rng, stats, burst)
    except TimeoutError as error:
        stats.errors.append(f"{channel.name}: {error}")
    else:
        stats.done_at[channel.id] = time.monotonic()


async def wind_down(
    emu: DiscordEmulator, guild: Any, channel: Channel, players: list[Member], stats: Stats
) -> None:
    """A table done with its hands, still idle ``SIT_OUT_AFTER`` s later (phase 2 goes on
    at other tables): five players sit out, so the between-hands timer deals no hand that
    nobody would play (its requests would be counted, its first turn alerted)."""
    done = stats.done_at.get(channel.id)
    if done is None:
        return
    await asyncio.sleep(max(0.0, done + SIT_OUT_AFTER - time.monotonic()))
    for player in players[1:]:
        await command(emu, guild, channel, player, "sitout")


async def play_hands(
    emu: DiscordEmulator,
    watch: ChannelWatch,
    guild: Any,
    channel: Channel,
    players: list[Member],
    hands: int,
    think: float,
    rng: random.Random,
    stats: Stats,
    burst: bool = False,
) -> None:
    by_id = {p.id: p for p in players}
    # Tables are not started in lockstep: each begins within its first ten turns' time
    # (with --burst they all start at once: a burst of posts and DMs over the REST budget).
    if not burst:
        await asyncio.sleep(rng.uniform(0, 10 * think))
    for _ in range(hands):
        opened = time.monotonic()  # the first turn opens once the bot has dealt
        started = await command(emu, guild, channel, players[0], "start")
        if not (started.content or "").startswith("Dealing hand"):
            stats.errors.append(
                f"{channel.name}: start refused: {started.content} (a hand already dealt is "
                f"the bot's {BETWEEN_HANDS} s between-hands timer: seating and phase 1 took "
                "longer; try a shorter --think)"
            )
            return
        message = await wait_turn(emu, watch, channel)
        while message is not None:
            buttons = action_buttons(message)
            user = to_act(message)
            if not buttons or user is None:
                break
            shown = time.monotonic()
            if think > 0:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            acted = time.monotonic()
            try:
                rec = await emu.click(message["id"], choose(buttons, rng), by_id[user])
            except ValueError:  # the button left the message meanwhile (a late answer)
                stats.stale += 1
                stats.turns.append(Turn(user, opened, shown, acted, time.monotonic()))
                opened = acted
                message = await wait_turn(emu, watch, channel, allow_end=True)
                continue
            answer = await rec.response(timeout=60)
            stats.turns.append(Turn(user, opened, shown, acted, time.monotonic()))
            opened = acted  # the next turn opens when the bot takes this click
            stats.clicks += 1
            stats.latencies.append(answer.elapsed)
            stats.stamps.append(time.monotonic())
            if answer.type == UPDATE:
                message = {"id": message["id"], **answer.data}
            else:
                stats.refused += answer.type != DEFERRED_UPDATE
                stats.deferred += answer.type == DEFERRED_UPDATE
                message = await wait_turn(emu, watch, channel, allow_end=True)
        stats.hands += 1


async def wait_turn(
    emu: DiscordEmulator, watch: ChannelWatch, channel: Channel, *, allow_end: bool = False
) -> JSON | None:
    """The channel's newest table message once it offers buttons (None: the hand is over)."""
    event = watch.event(channel.id)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        event.clear()
        latest = watch.latest.get(channel.id)
        if latest is not None:
            message = emu.message(latest)
            if action_buttons(message) and to_act(message) is not None:
                return message
            titles = [e.get("title") or "" for e in message.get("embeds") or []]
            if allow_end and any(RESULT.search(t) for t in titles):
                return None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), 5)
    raise TimeoutError(f"no turn in channel {channel.name}")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_busy_seconds() -> float:
    """CPU seconds all processes have used (every core), from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


async def seed_config(db_path: Path, guild_id: int) -> None:
    db = await open_database(db_path)
    try:
        # Hands start on /stud start (so all six are seated); no one times out under load.
        await TableService(db).guild_defaults_set(
            guild_id, between_hands_seconds=BETWEEN_HANDS, turn_seconds=300, max_buyin=1000
        )
    finally:
        await db.close()


async def drain(emu: DiscordEmulator) -> float:
    """After phase 2: wait until no request came for ``DRAIN_QUIET`` s (DMs and edits the
    bot still had queued go out), ``DRAIN_LIMIT`` s at most; the seconds it took."""
    start = time.monotonic()
    count = -1
    while count != len(emu.rest.requests) and time.monotonic() - start < DRAIN_LIMIT:
        count = len(emu.rest.requests)
        await asyncio.sleep(DRAIN_QUIET)
    return time.monotonic() - start


def sent_requests(emu: DiscordEmulator, channels: list[Channel]) -> tuple[list[Sent], list[float]]:
    """Every request the bot sent, sorted into kinds, and when the 429s came (a request
    answered 429 was not carried out: the bot sends it again)."""
    places = Places(
        tables=frozenset(str(c.id) for c in channels),
        dm_users={str(dm): user for user, dm in emu.world.dm_channels.items()},
        token_channels={rec.token: rec.channel_id for rec in emu.interactions},
    )
    sent: list[Sent] = []
    limited: list[float] = []
    for req in emu.rest.requests:
        if req.status == 429:
            limited.append(req.time)
        else:
            found = sort_request(req.time, req.method, req.path, req.json, req.response, places)
            sent.append(found)
    return sent, limited


@dataclass
class Run:
    """What the bot did in phase 2, gathered before it stops."""

    args: argparse.Namespace
    alone: Stats
    loaded: Stats
    sent: list[Sent]
    limited: list[float]
    table_of: dict[int, int]  # player -> his table's channel
    mono0: float
    mono1: float
    elapsed: float
    drained: float
    cpu: float
    driver_cpu: float
    others: float
    rss_ready: int
    rss_end: int
    code: int = 0


async def run(args: argparse.Namespace) -> int:
    emu = DiscordEmulator(global_rate_limit=args.global_limit or None, heartbeat_interval_ms=41250)
    await emu.start()
    watch = ChannelWatch(emu)
    guild = emu.add_guild("Bench")
    channels = [emu.add_text_channel(guild, f"table-{i}") for i in range(args.tables)]
    seats = [
        [emu.add_member(guild, f"p{i}-{j}") for j in range(PLAYERS)] for i in range(args.tables)
    ]
    tmp = Path(tempfile.mkdtemp(prefix="bench-bot-"))
    db_path = tmp / "bench.sqlite3"
    await seed_config(db_path, guild.id)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    env.update(
        DISCORD_TOKEN=emu.token,
        DISCORD_API_BASE=emu.api_base,
        DISCORD_GATEWAY_URL=emu.gateway_url,
        DEV_GUILD_ID=str(guild.id),
        DATABASE_PATH=str(db_path),
        LOG_LEVEL="ERROR",
        TURN_ALERT_SECONDS=str(args.alert_seconds),
        DEALERBOT_PERF_REPORT=str(tmp / "perf.json"),
        PYTHONPATH=str(REPO),
    )
    profile = ["-m", "cProfile", "-o", args.profile] if args.profile else []
    proc = await asyncio.create_subprocess_exec(
        sys.executable, *profile, "-m", "dealerbot", env=env, cwd=tmp
    )
    try:
        await emu.wait_for(
            lambda: (
                proc.returncode is not None
                or (emu.gateway.current is not None and emu.commands(guild))
            ),
            60,
        )
        if proc.returncode is not None:
            print(
                f"the bot exited with code {proc.returncode} before it was ready "
                "(its output is above); nothing was measured",
                file=sys.stderr,
            )
            return 2
        await asyncio.sleep(0.5)
        rss_ready = rss_kib(proc.pid)

        # Seat everyone (six per table), a few tables at a time.
        gate = asyncio.Semaphore(20)

        async def seat_table(i: int) -> None:
            async with gate:
                for player in seats[i]:
                    answer = await command(emu, guild, channels[i], player, "join", buy_in=1000)
                    if "You sit" not in (answer.content or ""):
                        raise RuntimeError(f"join refused: {answer.content}")

        t0 = time.perf_counter()
        await asyncio.gather(*(seat_table(i) for i in range(args.tables)))
        print(
            f"seated {args.tables * PLAYERS} players at {args.tables} tables "
            f"in {time.perf_counter() - t0:.1f} s"
        )

        # Phase 1, the reference: one table alone.
        alone = Stats()
        await play_table(
            emu, watch, guild, channels[0], seats[0], 1, args.think, random.Random(1), alone
        )

        # Phase 2: every table at once.
        cpu0 = cpu_seconds(proc.pid)
        driver0 = time.process_time()
        busy0 = machine_busy_seconds()
        # The emulator keeps every message and every edit: its full garbage collections
        # grow to hundreds of milliseconds and would be counted as the bot's latency.
        gc.collect()
        gc.freeze()
        gc.disable()
        loaded = Stats()
        winding: list[asyncio.Task[None]] = []

        async def table(i: int) -> None:
            await play_table(
                emu,
                watch,
                guild,
                channels[i],
                seats[i],
                args.hands,
                args.think,
                random.Random(100 + i),
                loaded,
                args.burst,
            )
            winding.append(
                asyncio.create_task(wind_down(emu, guild, channels[i], seats[i], loaded))
            )

        mono0 = time.monotonic()
        t0 = time.perf_counter()
        await asyncio.gather(*(table(i) for i in range(args.tables)))
        elapsed = time.perf_counter() - t0
        mono1 = time.monotonic()
        cpu = cpu_seconds(proc.pid) - cpu0
        driver_cpu = time.process_time() - driver0
        others = machine_busy_seconds() - busy0 - cpu - driver_cpu
        gc.enable()
        drained = await drain(emu)
        for task in winding:
            task.cancel()
        await asyncio.gather(*winding, return_exceptions=True)
        rss_end = rss_kib(proc.pid)
        sent, limited = sent_requests(emu, channels)
        table_of = {p.id: channels[i].id for i, players in enumerate(seats) for p in players}
    finally:
        if proc.returncode is None:
            proc.terminate()
        code = await proc.wait()
        await emu.stop()

    perf = load_perf(tmp / "perf.json", mono0, mono1)
    measured = Run(
        args,
        alone,
        loaded,
        sent,
        limited,
        table_of,
        mono0,
        mono1,
        elapsed,
        drained,
        cpu,
        driver_cpu,
        others,
        rss_ready,
        rss_end,
        code,
    )
    return report(measured, perf)


def report(r: Run, perf: Perf) -> int:
    """Print every figure of the run, then the targets with their verdicts."""
    args, loaded = r.args, r.loaded
    lat = [x * 1000 for x in loaded.latencies]
    ref = [x * 1000 for x in r.alone.latencies]
    busy = max(r.others, 0) / r.elapsed
    print(
        f"phase 2: {args.tables} tables x {PLAYERS} players, {loaded.hands} hands, "
        f"{loaded.clicks} clicks in {r.elapsed:.1f} s ({loaded.clicks / r.elapsed:.0f} clicks/s, "
        f"think {args.think} s{', all tables starting at once' if args.burst else ''})"
    )
    if loaded.errors:
        print(f"  errors: {len(loaded.errors)}, first: {loaded.errors[0]}")
    print(
        f"  refused clicks {loaded.refused}, deferred clicks {loaded.deferred}, "
        f"stale buttons not clicked {loaded.stale}"
    )
    p50 = statistics.median(lat) if lat else float("nan")
    p99 = pct(lat, 0.99) if lat else float("nan")
    r50 = statistics.median(ref) if ref else float("nan")
    r99 = pct(ref, 0.99) if ref else float("nan")
    print(
        f"click -> response latency: median {p50:.1f} ms, p99 {p99:.1f} ms, "
        f"max {max(lat, default=float('nan')):.1f} ms"
    )
    print(
        f"  reference, one table alone ({len(ref)} clicks): median {r50:.1f} ms, "
        f"p99 {r99:.1f} ms; ratio under load: median x{p50 / r50:.1f}, p99 x{p99 / r99:.1f}"
    )
    print("where the time went in the bot during phase 2 (its probe, dealerbot/perf_probe.py):")
    if perf.found and lat:
        for gen in range(3):
            print("  " + describe(f"GC pauses, generation {gen}", perf.gc.get(gen, [])))
        print(f"  objects frozen out of the collector after start-up: {perf.frozen}")
        print("  " + describe("event-loop lag samples (every 10 ms)", perf.lag))
        print("  " + describe("table-lock waits (contended)", perf.lock_waits))
        slow_n = max(1, len(lat) // 100)
        slowest = sorted(zip(loaded.latencies, loaded.stamps, strict=True), reverse=True)
        clicks = [(stamp, latency) for latency, stamp in slowest[:slow_n]]
        print(f"  the slowest 1% of clicks ({slow_n}, over {1000 * clicks[-1][1]:.0f} ms):")
        for line in attribute(perf, clicks):
            print(line)
    else:
        print("  no probe report (the bot did not write DEALERBOT_PERF_REPORT) or no click")

    hands = loaded.hands
    seconds = r.mono1 - r.mono0
    in_phase = [s for s in r.sent if r.mono0 <= s.at <= r.mono1]
    window = phase_window(r.sent, r.mono0, r.mono1, loaded.done_at)
    fig = budget(window, hands, seconds, DEFAULT_REST_BUDGET)
    # Every deal the emulator saw in phase 2, finished tables' too: more than the driver
    # played means the bot dealt hands of its own (its between-hands timer).
    dealt = [at for at in deals(in_phase).values() if r.mono0 <= at]
    print(
        f"requests in phase 2 ({seconds:.1f} s; {hands} hands played by the driver, "
        f"{len(dealt)} dealt as the emulator saw them), per hand:"
    )
    print_kinds(fig)
    print(
        f"  global-budget requests per hand: {fig.per_hand(fig.steady):.2f} in steady state "
        f"(+ {fig.per_hand(fig.counts.get(Kind.DM_OPEN, 0)):.2f} one-time DM-channel opens: "
        f"{fig.per_hand(fig.budgeted):.2f} with them)"
    )
    print(
        f"  hands per second one bot token can carry: {DEFAULT_REST_BUDGET} / "
        f"{fig.per_hand(fig.steady):.2f} = {fig.hands_per_second:.2f}"
    )
    print(
        f"  global-budget requests: {fig.budgeted} in {seconds:.1f} s = "
        f"{fig.average_rate:.1f}/s on average ({fig.per_hand(fig.budgeted):.2f} per hand x "
        f"{hands} hands / {seconds:.1f} s); the busiest second: {fig.busiest} "
        f"(the bot's budget: {DEFAULT_REST_BUDGET})"
    )
    limited = sum(1 for at in r.limited if at >= r.mono0)
    late = [s for s in r.sent if s.at > r.mono1]
    print(
        f"  not counted: {len(in_phase) - len(window)} requests of tables done with their "
        f"hands (after their last result); {len(late)} after phase 2 ended "
        f"({sum(s.kind.budgeted for s in late)} on the budget, in {r.drained:.1f} s until "
        f"quiet); {limited} answered 429 from phase 2 on (sent again)"
    )
    if args.burst:
        times = [s.at for s in window if s.kind.budgeted]
        print(f"  global-budget requests in each of the first 15 seconds: {per_second(times, 15)}")

    dms_per_player = fig.per_hand(fig.counts.get(Kind.DM, 0)) / PLAYERS
    delays = [1000 * d for d in dm_delays(r.sent, r.table_of, r.mono0)]
    d50 = statistics.median(delays) if delays else float("nan")
    d99 = pct(delays, 0.99) if delays else float("nan")
    print(
        f"DMs per player per hand: {dms_per_player:.2f} (issue 22: {TARGET_DMS_PER_PLAYER:g}); "
        f"DM delay from the deal to the player's first DM of the hand: median {d50:.0f} ms, "
        f"p99 {d99:.0f} ms, max {max(delays, default=float('nan')):.0f} ms "
        f"({len(delays)} DMs, hands dealt in phase 2)"
    )
    alerts = [(s.user, s.at) for s in window if s.kind is Kind.TURN_ALERT and s.user is not None]
    check = check_alerts(alerts, loaded.turns, args.alert_seconds, ALERT_SLACK)
    print(
        f"turn alerts {check.alerts} for {check.waited} turns that waited over "
        f"{args.alert_seconds:g} s (the driver's clock, shown to clicked) of "
        f"{len(loaded.turns)} turns; {check.near} more may have by the bot's clock, which "
        "starts when it opens the turn, before the driver sees it"
    )
    print(
        f"  alerts for a turn that may have waited: {check.justified}; for one that cannot "
        f"have: {check.early}; for a player with no turn opened: {check.unseen}; turns that "
        f"waited over {args.alert_seconds + ALERT_SLACK:g} s with no alert: {check.missed}"
    )

    per_table = (r.rss_end - r.rss_ready) / args.tables
    print(
        f"bot memory: {r.rss_ready / 1024:.0f} MiB ready, {r.rss_end / 1024:.0f} MiB with "
        f"{args.tables} tables; {per_table:.0f} KiB per table"
    )
    print(
        f"emulator and players (this process): {r.driver_cpu:.1f} s CPU in {r.elapsed:.1f} s "
        f"({100 * r.driver_cpu / r.elapsed:.0f}% of a core); OTHER PROCESSES' CPU on the "
        f"machine: {busy:.2f} cores busy on average, of {os.cpu_count()}"
    )
    disowned = does_not_count(busy)
    if disowned:
        print(disowned)
    if args.slowest and loaded.stamps:
        pairs = sorted(zip(loaded.latencies, loaded.stamps, strict=True), reverse=True)
        t_start = min(loaded.stamps)
        slow = sorted(pairs[: args.slowest], key=lambda pair: pair[1])
        print(
            "slowest clicks (ms @ s into phase 2):",
            ", ".join(f"{1000 * x:.0f}@{t - t_start:.1f}" for x, t in slow),
        )

    cpu_click = 1000 * r.cpu / max(loaded.clicks, 1)
    table_requests = sum(
        n for kind, n in fig.counts.items() if kind in (Kind.TABLE_POST, Kind.TABLE_EDIT)
    )
    opened = Counter(s.user for s in r.sent if s.kind is Kind.DM_OPEN)
    repeated = sum(opened.values()) - len(opened)
    steady = fig.per_hand(fig.steady)
    played = hands > 0  # a per-hand figure of no hand is met by nothing
    verdicts = [
        (
            f"global-budget requests per hand, steady state: {steady:.2f}",
            f"<= {TARGET_BUDGET_PER_HAND:g}",
            played and steady <= TARGET_BUDGET_PER_HAND,
        ),
        (
            f"hands per second one bot token carries: {fig.hands_per_second:.2f}",
            f">= {TARGET_HANDS_PER_TOKEN:g}",
            played and fig.hands_per_second >= TARGET_HANDS_PER_TOKEN,
        ),
        (
            f"bot CPU per click, DMs and posts included: {cpu_click:.2f} ms",
            f"<= {TARGET_CPU_PER_CLICK_MS:g} ms",
            cpu_click <= TARGET_CPU_PER_CLICK_MS,
        ),
        (
            f"bot memory per table: {per_table:.0f} KiB",
            f"<= {TARGET_KIB_PER_TABLE:g} KiB",
            per_table <= TARGET_KIB_PER_TABLE,
        ),
        (
            f"click-to-answer p99: {p99:.1f} ms",
            f"< {TARGET_P99_MS:g} ms",
            p99 < TARGET_P99_MS,
        ),
        (f"tables stopped (a click unanswered 60 s): {len(loaded.errors)}", "0", not loaded.errors),
        (
            f"DMs per player per hand: {dms_per_player:.2f}",
            f"<= {TARGET_DMS_PER_PLAYER:g}",
            played and dms_per_player <= TARGET_DMS_PER_PLAYER,
        ),
        (
            f"table posts and REST edits per hand: {fig.per_hand(table_requests):.2f}",
            "<= 1",
            played and fig.per_hand(table_requests) <= 1,
        ),
        (f"repeated DM-channel opens: {repeated} ({len(opened)} opened)", "0", repeated == 0),
        (
            f"busiest second of global-budget requests: {fig.busiest}",
            f"<= {DEFAULT_REST_BUDGET}",
            fig.busiest <= DEFAULT_REST_BUDGET,
        ),
        (
            f"turn alerts for a turn that did not wait: {check.early + check.unseen}",
            "0",
            check.early + check.unseen == 0,
        ),
    ]
    print(
        f"TARGETS ({args.tables} tables, think {args.think} s, turn alerts after "
        f"{args.alert_seconds:g} s; other processes {busy:.2f} cores busy"
        f"{': DOES NOT COUNT' if disowned else ''}):"
    )
    for figure, target, ok in verdicts:
        print(f"  {figure:<62} target {target:<10} {'met' if ok else 'NOT met'}")
    print(f"  {f'DM delay p99 (deal to DM): {d99:.0f} ms':<62} target reported")
    print(f"bot exit code after SIGTERM: {r.code}")
    return 0 if not loaded.errors else 1


def print_kinds(fig: Budget) -> None:
    """Each kind of request per hand, the global-budget ones marked."""
    for kind in Kind:
        n = fig.counts.get(kind, 0)
        if n:
            where = "global budget" if kind.budgeted else "not on the global budget"
            print(f"  {kind.value:<52} {fig.per_hand(n):6.2f}  ({n}, {where})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=2, help="hands per table in phase 2")
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds before a click")
    parser.add_argument(
        "--global-limit",
        type=int,
        default=0,
        help="emulator's global requests/s (Discord: 50; 0 = none)",
    )
    parser.add_argument(
        "--alert-seconds", type=float, default=10.0, help="TURN_ALERT_SECONDS for the bot"
    )
    parser.add_argument("--quick", action="store_true", help="20 tables, 1 hand")
    parser.add_argument("--profile", help="write a cProfile of the bot process to this file")
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest clicks")
    parser.add_argument(
        "--burst",
        action="store_true",
        help="start every table at once: a burst of requests over the bot's REST budget",
    )
    args = parser.parse_args()
    if args.quick:
        args.tables, args.hands = min(args.tables, 20), 1
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())

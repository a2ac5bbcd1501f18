"""A random card room for tests: several tables, players coming and going, duplicate
clicks, timeouts. Every step is something a real front end could send."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from dealerbot.engine.events import ActionKind
from dealerbot.tables import errors
from dealerbot.tables import events as ev

from .helpers import GUILD, Harness, pick


@dataclass
class Stats:
    hands: int = 0
    actions: int = 0
    duplicates_refused: int = 0
    timeouts: int = 0
    joins: int = 0
    leaves: int = 0
    sit_outs: int = 0
    refusals: int = 0
    audits: int = 0
    kinds: dict[str, int] = field(default_factory=dict)


async def chaos(
    h: Harness,
    channels: list[int],
    users: list[int],
    hands: int,
    rng: random.Random,
    after_hand: Callable[[], Awaitable[None]] | None = None,
    max_steps: int = 200_000,
) -> Stats:
    """Run until ``hands`` hands have ended; call ``after_hand`` after each one."""
    s = h.service
    stats = Stats()
    ended_seen = 0

    async def attempt(call: Awaitable[object]) -> bool:
        try:
            await call
        except errors.TableError:
            stats.refusals += 1
            return False
        return True

    for _ in range(max_steps):
        ended = len(h.recorder.of(ev.HandEnded))
        while ended_seen < ended:
            ended_seen += 1
            stats.hands += 1
            if after_hand is not None:
                await after_hand()
        if stats.hands >= hands:
            return stats
        channel = rng.choice(channels)
        user = rng.choice(users)
        roll = rng.random()
        turn = h.recorder.last_turn(channel)
        if roll < 0.03:
            if await attempt(
                s.join(GUILD, channel, user, f"u{user}", rng.choice([None, 150, 300]))
            ):
                stats.joins += 1
        elif roll < 0.045:
            if await attempt(s.leave(GUILD, channel, user)):
                stats.leaves += 1
        elif roll < 0.06:
            if await attempt(s.sit_out(GUILD, channel, user)):
                stats.sit_outs += 1
        elif roll < 0.09:
            await attempt(s.sit_in(GUILD, channel, user))
        elif roll < 0.10:
            await attempt(s.add_chips(GUILD, channel, user, rng.choice([10, 100, 5000])))
        elif roll < 0.11:
            wallet = await s.balance(GUILD, user)
            if wallet.chips < 300:
                await s.admin_adjust(GUILD, user, 500, "top-up")
        elif roll < 0.13 and turn is not None:
            before = len(h.recorder.of(ev.PlayerTimedOut))
            await h.advance(max(0.0, turn.deadline - h.clock.now()))
            stats.timeouts += len(h.recorder.of(ev.PlayerTimedOut)) - before
        elif turn is not None:
            kind = pick(turn, rng)
            stats.kinds[kind.value] = stats.kinds.get(kind.value, 0) + 1
            copies = rng.choice([1, 1, 1, 2, 5])
            results = await asyncio.gather(
                *(
                    s.act(GUILD, channel, turn.user_id, turn.hand_id, turn.seq, kind)
                    for _ in range(copies)
                ),
                return_exceptions=True,
            )
            ok = [r for r in results if not isinstance(r, BaseException)]
            bad = [r for r in results if isinstance(r, BaseException)]
            assert len(ok) == 1, results
            assert all(isinstance(r, errors.TableError) for r in bad), bad
            stats.actions += 1
            stats.duplicates_refused += len(bad)
            if rng.random() < 0.05:  # a stale click arriving late
                stale = await attempt(
                    s.act(GUILD, channel, turn.user_id, turn.hand_id, turn.seq, kind)
                )
                assert not stale
        else:
            await h.advance(rng.choice([1.0, 5.0, 30.0]))
    raise AssertionError(f"only {stats.hands} hands in {max_steps} steps: {stats}")


def action_kinds_seen(stats: Stats) -> set[ActionKind]:
    return {ActionKind(k) for k in stats.kinds}

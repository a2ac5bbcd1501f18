"""Chip conservation through the service: hundreds of random hands on several tables with
joins, leaves, sit-outs, timeouts and duplicate submissions; the audit holds after each."""

from __future__ import annotations

import os
import random

import pytest

from .chaos import chaos
from .helpers import GUILD, make_harness

SCALE = float(os.environ.get("SOAK_SCALE", "1"))


async def _independent_total(h) -> tuple[int, int]:
    """Chips in wallets and at tables, and chips ever granted, straight from the tables."""
    ((held,),) = await h.fetch(
        "SELECT COALESCE(SUM(chips), 0) + (SELECT COALESCE(SUM(stack), 0) FROM seats)"
        " FROM wallets WHERE guild_id = ?",
        (GUILD,),
    )
    ((granted,),) = await h.fetch(
        "SELECT COALESCE(SUM(delta), 0) FROM ledger"
        " WHERE guild_id = ? AND reason IN ('grant', 'daily', 'admin')",
        (GUILD,),
    )
    return held, granted


async def test_random_card_room_conserves_chips(db_url):
    """On each backend (SQLite and PostgreSQL)."""
    await card_room(db_url, seed=1)


@pytest.mark.backends("sqlite")  # a second seed on the quick backend only
async def test_random_card_room_conserves_chips_again(db_url):
    await card_room(db_url, seed=2)


async def card_room(db_url, seed):
    h = await make_harness(db_url, seed=seed)
    try:
        for channel in (301, 302, 303):
            await h.service.config_set(GUILD, channel, between_hands_seconds=1, turn_seconds=20)
        await h.service.config_set(GUILD, 303, variant="stud8", time_bank_seconds=0)
        rng = random.Random(seed)
        users = list(range(1, 13))
        for i, user in enumerate(users[:9]):
            await h.service.join(GUILD, (301, 302, 303)[i % 3], user, f"u{user}", 150)

        async def check() -> None:
            await h.audit_ok()
            held, granted = await _independent_total(h)
            assert held == granted

        stats = await chaos(h, [301, 302, 303], users, int(110 * SCALE), rng, after_hand=check)
        assert stats.hands >= int(110 * SCALE)
        assert stats.timeouts and stats.joins and stats.leaves and stats.sit_outs
        assert stats.duplicates_refused
        await check()
    finally:
        await h.close()

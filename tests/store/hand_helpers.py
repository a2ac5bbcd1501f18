"""Starting a hand in the store the way the table service would (deck, salt, commitment)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from dealerbot.engine.cards import deck_commitment, shuffled_deck
from dealerbot.store import config, hands, seats, tables
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord, HandSeat

from .conftest import CONFIG


async def begin_hand(
    db: Database,
    table_id: int,
    *,
    users: Sequence[int] | None = None,
    seed: int = 7,
    deadline: float | None = None,
) -> HandRecord:
    table = await tables.get_table(db, table_id)
    dealt = [
        HandSeat(s.seat_no, s.user_id, s.display_name, s.stack)
        for s in await seats.get_seats(db, table_id)
        if users is None or s.user_id in users
    ]
    deck = shuffled_deck(random.Random(seed))
    salt = random.Random(seed).randbytes(16)
    cfg = await config.get_table_config(db, table.guild_id, table.channel_id) or CONFIG
    return await hands.start_hand(
        db,
        table_id,
        config=cfg,
        seats=dealt,
        deck=deck,
        salt=salt,
        commitment=deck_commitment(deck, salt),
        button_seat=dealt[0].seat_no,
        action_deadline=deadline,
    )

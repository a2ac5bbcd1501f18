"""SECRET PATH for proofs of a fair deal: a finished hand's deck and salts.

Only :mod:`dealerbot.tables.proofs` calls this, to open the single cards a player may see
(docs/fairness.md); the deck and the salts themselves never leave the table service. A hand
in progress gives nothing here: its deck is read only by crash recovery.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealerbot.engine import Card, CardError, parse_deck_text
from dealerbot.fairness import FairnessError, parse_salts_text

from .db import Database, fetch_one
from .hand_actions import HandAction, get_actions
from .hands import HandRecord, HandStatus, hand_in
from .validate import check_id


@dataclass(frozen=True, slots=True)
class SealedHand:
    """SECRET: a hand of one guild; its deck, salts and log only once it is over.

    ``deck`` and ``salts`` are None while the hand is in progress, and once retention
    deleted them (or, for ``salts``, for a hand of the old scheme).
    """

    record: HandRecord
    guild_id: int
    channel_id: int
    deck: tuple[Card, ...] | None
    salts: tuple[bytes, ...] | None
    actions: tuple[HandAction, ...]

    def __repr__(self) -> str:  # a stray log line must not carry the deck
        return f"SealedHand(hand={self.record.id}, scheme={self.record.commitment_scheme!r})"


async def sealed_hand(db: Database, guild_id: int, hand_id: int) -> SealedHand | None:
    """The hand ``hand_id`` if it was played at a table of ``guild_id``, else None."""
    check_id(guild_id, "guild id")
    check_id(hand_id, "hand id")
    async with db.reading() as conn:
        row = await fetch_one(
            conn,
            "SELECT t.guild_id, t.channel_id, h.status, h.deck, h.deck_salts"
            " FROM hands h JOIN tables t ON t.id = h.table_id WHERE h.id = ? AND t.guild_id = ?",
            (hand_id, guild_id),
        )
        if row is None:
            return None
        record = await hand_in(conn, hand_id)
    if record.status is HandStatus.IN_PROGRESS or row["status"] == "in_progress":
        return SealedHand(record, row["guild_id"], row["channel_id"], None, None, ())
    return SealedHand(
        record,
        row["guild_id"],
        row["channel_id"],
        _deck(row["deck"]),
        _salts(row["deck_salts"]),
        tuple(await get_actions(db, hand_id)),
    )


def _deck(text: str | None) -> tuple[Card, ...] | None:
    """The logged deck, or None when it is no longer a deck (retention overwrote it)."""
    if text is None:
        return None
    try:
        return parse_deck_text(text)
    except (CardError, ValueError):
        return None


def _salts(text: str | None) -> tuple[bytes, ...] | None:
    if text is None:
        return None
    try:
        return parse_salts_text(text)
    except FairnessError:
        return None

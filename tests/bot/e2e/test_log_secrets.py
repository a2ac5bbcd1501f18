"""No down card in any log line at any level unless LOG_SECRETS=1 (issue 12, point 8).

A whole hand is played with every logger at DEBUG, the deal DMs and "My cards" answers
included; then each dealt down card is looked for in every log record, in the forms a
log line could hold it: its code (``As``), its face (``A♠``) and the JSON escape of the
face (``A\\u2660``, how discord.py's request bodies carry it). The same search with
the switch on must find cards, or the search proves nothing.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import pytest

from dealerbot import logs
from dealerbot.tables import Card
from dealerbot.tables import events as ev

from .driver import Club, buttons, passive


def forms(card: Card) -> list[re.Pattern[str]]:
    texts = {str(card), card.pretty, json.dumps(card.pretty)[1:-1]}
    return [re.compile(rf"(?<![A-Za-z0-9]){re.escape(t)}(?![A-Za-z0-9])") for t in texts]


def down_cards(club: Club) -> set[Card]:
    found: set[Card] = set()
    for event in club.recorder.of(ev.PrivateCards):
        found.update(c for c, up in zip(event.cards, event.face_up, strict=True) if not up)
    return found


@pytest.fixture
def restore_levels() -> Iterator[None]:
    yield
    logs.hold_secrets(False)


async def play_with_debug_logs(club: Club, caplog: pytest.LogCaptureFixture) -> set[Card]:
    """Cards of the hand's down cards that some log record shows."""
    with caplog.at_level(logging.DEBUG):
        await club.seat(club.players[:3])
        await club.start_hand()
        message, _ = await club.wait_turn()
        cards_id = next(b["custom_id"] for b in buttons(message) if "cards" in b["custom_id"])
        await club.click(message, cards_id, club.players[1])  # an ephemeral "My cards"
        await club.play_hand(passive)
        await club.settle()
    text = "\n".join(record.getMessage() for record in caplog.records)
    return {card for card in down_cards(club) if any(p.search(text) for p in forms(card))}


async def test_debug_logs_hold_no_down_card(
    club: Club, caplog: pytest.LogCaptureFixture, restore_levels: None
) -> None:
    logs.configure("DEBUG", secrets=False)
    leaked = await play_with_debug_logs(club, caplog)
    assert len(down_cards(club)) >= 9  # three players, three down cards each
    assert leaked == set()


async def test_the_development_switch_lets_them_through(
    club: Club, caplog: pytest.LogCaptureFixture, restore_levels: None
) -> None:
    logs.configure("DEBUG", secrets=True)  # LOG_SECRETS=1
    assert await play_with_debug_logs(club, caplog)  # the search above does find cards

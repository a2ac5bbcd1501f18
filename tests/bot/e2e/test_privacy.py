"""Down cards never reach a public message, another player's answer, or a log line."""

from __future__ import annotations

import logging
import random
import re

import pytest

from dealerbot.engine.cards import Card
from dealerbot.tables import events as ev

from .driver import Club, buttons, is_result, message_text, random_chooser

PRETTY_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
HAND_NUMBER = re.compile(r"[Hh]and #(\d+)")
HANDS = 12


def snapshots(club: Club) -> list[dict]:
    """Every version of every public message in the table channel (deleted ones too)."""
    out = []
    for stored in club.emu.world.messages.values():
        if stored.channel_id != club.channel.id or stored.ephemeral:
            continue
        out.extend(stored.history)
        out.append(club.emu.message(stored.id))
    return out


@pytest.mark.parametrize("variant", ["stud", "stud8"])
async def test_no_down_card_in_any_public_message_across_many_hands(
    club: Club, variant: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    await club.command(club.admin, "config", group="stud-admin", game=variant)
    players = club.players[:5]
    await club.seat(players, buy_in=1000)
    rng = random.Random(7 if variant == "stud" else 8)
    for _ in range(HANDS):
        await club.start_hand()
        message, _ = await club.wait_turn()
        cards_id = next(b["custom_id"] for b in buttons(message) if "cards" in b["custom_id"])
        peeker = rng.choice(players)
        await club.click(message, cards_id, peeker)
        await club.play_hand(random_chooser(rng))
        await club.settle()

    numbers = {e.hand_id: e.number for e in club.recorder.of(ev.HandStarted)}
    assert len(numbers) == HANDS
    down: dict[int, dict[int, set[Card]]] = {}  # hand number -> user -> down cards
    for event in club.recorder.of(ev.PrivateCards):
        down.setdefault(numbers[event.hand_id], {}).setdefault(event.user_id, set()).update(
            event.down_cards
        )
    shown = {
        numbers[e.hand_id]: {h.user_id for h in e.shown} for e in club.recorder.of(ev.Showdown)
    }
    assert any(shown.values()) and any(not s for s in shown.values())  # showdowns and folds

    checked = 0
    for snap in snapshots(club):
        text = message_text(snap)
        found = HAND_NUMBER.search(text)
        if found is None:
            assert not PRETTY_CARD.search(text), text  # a waiting table shows no card at all
            continue
        number = int(found.group(1))
        for user, cards in down[number].items():
            if is_result(snap) and user in shown.get(number, set()):
                continue  # shown at showdown: public now
            for card in cards:
                assert card.pretty not in text, (number, user, card, text)
        checked += 1
    assert checked > HANDS * 5  # many table edits were really looked at

    for player in players:
        own = {c for hand in down.values() for c in hand.get(player.id, set())}
        for answer in club.emu.ephemeral_messages(player):
            text = message_text(answer)
            number_match = HAND_NUMBER.search(text)
            if number_match is None:
                continue
            hand = down[int(number_match.group(1))]
            for user, cards in hand.items():
                if user != player.id:
                    for card in cards - own:
                        assert card.pretty not in text

    for record in caplog.records:
        if record.levelno >= logging.INFO:
            line = record.getMessage()
            assert not PRETTY_CARD.search(line), line
            assert "Card(" not in line, line

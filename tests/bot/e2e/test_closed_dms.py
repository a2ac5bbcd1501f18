"""A player whose DMs are closed (issue 22 item 4, issue 23's DM risk): one refused DM in
the session, his seat marked, told privately at his next click, pinged in the channel only
when the hand ends before he clicked; a DM tried again once he uses the bot later on."""

from __future__ import annotations

import re
import time

from dealerbot.bot.dm import RETRY_AFTER

from .driver import Club, action_buttons, message_text, passive
from .test_faults import PRETTY_CARD, time_passes


def mentions(club: Club, user_id: int) -> list[dict[str, object]]:
    return [m for m in club.public_messages() if f"<@{user_id}>" in str(m.get("content") or "")]


async def play_without(club: Club, idle: int) -> None:
    """Play the hand out; ``idle`` never clicks (his turns time out)."""
    for _ in range(200):
        if club.action_message() is None:
            return
        message, user = await club.wait_turn()
        if user == idle:
            await time_passes(club, 120)  # his clock and his time bank run out
            continue
        await club.click(message, passive(action_buttons(message)), user)
        await club.settle()
    raise AssertionError("the hand did not end")


async def test_a_player_who_never_clicks_is_pinged_once_when_the_hand_ends(club: Club) -> None:
    shy = club.players[1]
    club.emu.set_dm_blocked(shy)
    await club.seat(club.players[:3])
    await club.start_hand()
    assert mentions(club, shy.id) == []  # not at the deal: he may click and be told privately
    await play_without(club, shy.id)
    await club.settle()
    [ping] = mentions(club, shy.id)
    text = str(ping["content"])
    assert "My cards" in text and "allow direct messages" in text
    assert not PRETTY_CARD.search(text)
    await club.start_hand()
    await play_without(club, shy.id)
    await club.settle()
    assert len(mentions(club, shy.id)) == 1  # once a session
    dm_path = f"/channels/{club.emu.dm_channel(shy).id}/messages"
    assert len(club.emu.requests("POST", dm_path, status=403)) == 1


async def test_a_dm_is_tried_again_once_he_uses_the_bot_later_on(club: Club) -> None:
    shy = club.players[1]
    club.emu.set_dm_blocked(shy)
    await club.seat(club.players[:3])
    await club.start_hand()
    await club.play_hand(passive)
    await club.settle()
    dm_path = f"/channels/{club.emu.dm_channel(shy).id}/messages"
    assert len(club.emu.requests("POST", dm_path, status=403)) == 1
    club.emu.set_dm_blocked(shy, False)  # he opened his DMs

    await club.text(shy, "balance")  # using the bot soon after: still no DM tried
    await club.start_hand()
    await club.play_hand(passive)
    await club.settle()
    assert club.emu.dm_messages(shy) == []

    relay = club.bot.relay
    assert relay is not None
    relay.courier.clock = lambda: time.monotonic() + RETRY_AFTER  # ten minutes on
    await club.text(shy, "balance")
    await club.start_hand()
    message, _ = await club.wait_turn()
    await club.settle()
    assert len(club.emu.dm_messages(shy)) == 1  # tried again, delivered
    table = message_text(club.action_message() or message)
    assert not re.search(rf"\*\*{shy.name}\*\* · \d+ · cards: My cards", table), table
    assert len(club.emu.requests("POST", dm_path, status=403)) == 1

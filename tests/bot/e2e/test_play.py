"""Whole hands through buttons: joining, both variants to showdown, folds, DMs, My cards."""

from __future__ import annotations

import re

import pytest

from dealerbot.engine.cards import Card, format_cards
from dealerbot.tables import events as ev

from .driver import Club, action_buttons, buttons, folder, is_result, message_text, passive


def result_messages(club: Club) -> list[str]:
    return [message_text(m) for m in club.public_messages() if is_result(m)]


async def test_two_to_eight_players_join_and_play_a_hand(club: Club) -> None:
    players = club.players  # eight
    await club.seat(players[:2])
    await club.settle()
    [lobby] = club.public_messages()
    assert "player0" in message_text(lobby) and "player1" in message_text(lobby)
    await club.seat(players[2:])
    await club.settle()
    text = message_text(club.public_messages()[-1])
    for i in range(8):
        assert f"**player{i}** · 100" in text
    extra = club.emu.add_member(club.guild, "latecomer")
    assert "seats at this table are taken" in await club.text(extra, "join")

    await club.start_hand()
    message, _ = await club.wait_turn()
    table = message_text(message)
    assert "hand #1" in table and "Pot: 8" in table  # eight antes of 1
    assert table.count("🂠 🂠") == 8  # two hidden down cards per player, nothing more
    await club.play_hand(passive)
    await club.settle()
    [result] = result_messages(club)
    [showdown] = club.recorder.of(ev.Showdown)
    assert len(showdown.shown) == 8
    for hand in showdown.shown:  # the five that play, with the hand's name
        assert f"`{format_cards(hand.high_cards)}` {hand.high}" in result
    # With eight players the deck runs short: 7th street is one community card (R12.1),
    # so nobody gets a down river card and the only DM is the one of 3rd street.
    expected_dms = 1 if showdown.community is not None else 2
    for player in players:
        assert len(club.emu.dm_messages(player)) == expected_dms
    assert club.action_message() is None  # the finished hand has no buttons left


@pytest.mark.parametrize("variant", ["stud", "stud8"])
async def test_a_full_hand_of_each_variant_to_showdown(club: Club, variant: str) -> None:
    answer = await club.text(club.admin, "config", group="stud-admin", game=variant)
    assert "Settings changed" in answer
    await club.seat(club.players[:3])
    await club.start_hand()
    message, _ = await club.wait_turn()
    title = "Stud Hi/Lo · 5/10 · hand #1" if variant == "stud8" else "Stud · 5/10 · hand #1"
    assert message["embeds"][0]["title"] == title
    clicks = await club.play_hand(passive)
    await club.settle()
    assert clicks and all(c.type == 7 for c in clicks)  # every click answered in place
    [result] = result_messages(club)
    [showdown] = club.recorder.of(ev.Showdown)
    [ended] = club.recorder.of(ev.HandEnded)
    assert len(showdown.shown) == 3
    for hand in showdown.shown:  # the five cards that play, from the player's seven
        assert len(hand.high_cards) == 5 and set(hand.high_cards) <= set(hand.cards)
        line = f"**{hand.name}** `{format_cards(hand.high_cards)}` {hand.high}"
        if variant == "stud8" and hand.low_cards:
            assert len(hand.low_cards) == 5 and set(hand.low_cards) <= set(hand.cards)
            line += f" · low `{format_cards(hand.low_cards)}` {hand.low}"
        elif variant == "stud8":
            line += " · no low"
        assert line in result
    if variant == "stud":
        assert "low" not in result
    first = result.splitlines()[1]  # under the title: the winner, first
    [pot] = showdown.pots
    winner = dict(showdown.names)[pot.high_winners[0]]
    assert first.startswith(f"**{winner}** "), first
    assert str(pot.amount) in first or all(str(c) in first for _, c in pot.shares)
    names = {p.id: p.name for p in club.players}
    for user, delta in ended.results:
        assert f"{names[user]} {delta:+d}" in result
    assert sum(delta for _, delta in ended.results) == 0


async def test_a_hand_ended_by_folds_shows_no_cards(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    await club.play_hand(folder)
    await club.settle()
    [result] = result_messages(club)
    [showdown] = club.recorder.of(ev.Showdown)
    assert showdown.shown == ()
    assert " uncontested" in result
    winner = next(
        p
        for p in club.players[:3]
        if p.id in {u for u, d in club.recorder.of(ev.HandEnded)[0].results if d > 0}
    )
    assert f"**{winner.name}**" in result
    assert not re.search("[♣♦♥♠]", result)  # an unshown winning hand stays hidden


def dm_cards(message: dict) -> tuple[list[str], list[str]]:
    """(down cards, up cards) as written in a DM."""
    [embed] = message["embeds"]
    text = embed["description"]
    down = re.search(r"Down: `([^`]*)`", text)
    up = re.search(r"(?:Door card|Up): `([^`]*)`", text)
    assert down and up, text
    return down.group(1).split(), up.group(1).split()


async def test_dms_carry_each_players_own_cards(club: Club) -> None:
    players = club.players[:4]
    await club.seat(players)
    await club.start_hand()
    service = club.bot.service
    assert service is not None
    table, _ = await club.wait_turn()
    link = f"https://discord.com/channels/{club.guild.id}/{club.channel.id}/{table['id']}"
    dealt: dict[int, tuple[Card, ...]] = {}
    dm_ids: dict[int, str] = {}
    for player in players:
        [first] = club.emu.dm_messages(player)
        dm_ids[player.id] = first["id"]
        mine = await service.my_cards(club.guild.id, club.channel.id, player.id)
        assert len(mine.cards) == 3
        down, up = dm_cards(first)
        assert down == [c.pretty for c in mine.down_cards]
        assert up == [mine.cards[2].pretty]
        assert f"hand #{mine.table.hand_number}" in first["embeds"][0]["title"]
        text = message_text(first)
        assert f"<#{club.channel.id}> in Stud Club" in text and "(#" not in text  # said once
        assert link in text  # the hand's table message, not the channel
        dealt[player.id] = mine.cards
    await club.play_hand(passive)
    await club.settle()
    [showdown] = club.recorder.of(ev.Showdown)
    shown = {hand.user_id: hand.cards for hand in showdown.shown}
    for player in players:
        [last] = club.emu.dm_messages(player)  # one DM a hand: the deal DM, edited at 7th
        assert last["id"] == dm_ids[player.id]
        down, up = dm_cards(last)
        seven = shown[player.id]
        assert seven[:3] == dealt[player.id]
        assert f"`{format_cards(seven)}`" in last["embeds"][0]["description"]
        assert down == [c.pretty for i, c in enumerate(seven) if i in (0, 1, 6)]
        assert up == [c.pretty for c in seven[2:6]]


async def test_my_cards_button_shows_only_your_own_cards(club: Club) -> None:
    players = club.players[:3]
    await club.seat(players)
    await club.start_hand()
    message, _ = await club.wait_turn()
    [cards_button] = [b for b in buttons(message) if b["custom_id"].startswith("stud:cards:")]
    service = club.bot.service
    assert service is not None
    for player in players:
        answer = await club.click(message, cards_button["custom_id"], player)
        assert answer.type == 4 and answer.ephemeral
        mine = await service.my_cards(club.guild.id, club.channel.id, player.id)
        assert f"down: `{format_cards(mine.down_cards)}`" in answer.content
        for other in players:
            if other is player:
                continue
            theirs = await service.my_cards(club.guild.id, club.channel.id, other.id)
            for card in theirs.down_cards:
                assert card.pretty not in answer.content
    outsider = club.players[5]
    answer = await club.click(message, cards_button["custom_id"], outsider)
    assert answer.ephemeral and "not seated" in answer.content
    assert action_buttons(club.action_message() or {}) == action_buttons(message)

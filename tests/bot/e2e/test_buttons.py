"""Clicks that must change nothing: stale buttons, the wrong player, an outsider, doubles."""

from __future__ import annotations

import asyncio
import copy

from dealerbot.tables import events as ev

from .driver import Club, action_buttons, passive


async def _table_state(club: Club) -> tuple[int | None, int | None, int]:
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)
    return view.hand_id, view.seq, view.pot


def show_old_buttons(club: Club, message_id: str, components: list) -> None:
    """A Discord client that still shows an earlier version of the message."""
    club.emu.stored_message(message_id).components = copy.deepcopy(components)


async def test_a_stale_button_gets_a_short_private_answer(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, user = await club.wait_turn()
    old_components = message["components"]
    old_id = passive(action_buttons(message))
    first = await club.click(message, old_id, club.member(user))
    assert first.type == 7
    before = await _table_state(club)
    actions = len(club.recorder.of(ev.ActionTaken))

    current = club.emu.message(message["id"])["components"]
    show_old_buttons(club, message["id"], old_components)
    answer = await club.click(message, old_id, club.member(user))
    assert answer.type == 4 and answer.ephemeral
    assert "out of date" in answer.content
    assert await _table_state(club) == before
    assert len(club.recorder.of(ev.ActionTaken)) == actions
    show_old_buttons(club, message["id"], current)

    # A button of a finished hand, clicked on that hand's old message.
    await club.play_hand(passive)
    await club.settle()
    await club.start_hand()
    show_old_buttons(club, message["id"], old_components)
    before = await _table_state(club)
    answer = await club.click(message, old_id, club.member(user))
    assert answer.ephemeral and "hand is over" in answer.content
    assert await _table_state(club) == before


async def test_a_click_by_anyone_but_the_player_to_act_changes_nothing(club: Club) -> None:
    seated = club.players[:3]
    await club.seat(seated)
    await club.start_hand()
    message, user = await club.wait_turn()
    custom_id = passive(action_buttons(message))
    before = await _table_state(club)
    for other in seated:
        if other.id == user:
            continue
        answer = await club.click(message, custom_id, other)
        assert answer.type == 4 and answer.ephemeral
        assert "not your turn" in answer.content
    outsider = club.players[6]
    answer = await club.click(message, custom_id, outsider)
    assert answer.ephemeral and "not seated at this table" in answer.content
    assert "Join…" in answer.content and "</stud join:" in answer.content
    assert await _table_state(club) == before
    assert club.emu.message(message["id"])["components"] == message["components"]
    # ... and the player to act still can.
    assert (await club.click(message, custom_id, club.member(user))).type == 7


async def test_a_double_click_is_applied_once(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, user = await club.wait_turn()
    custom_id = passive(action_buttons(message))
    actions = len(club.recorder.of(ev.ActionTaken))
    first, second = await asyncio.gather(
        club.emu.click(message["id"], custom_id, user),
        club.emu.click(message["id"], custom_id, user),
    )
    answers = [await first.response(timeout=10), await second.response(timeout=10)]
    assert sorted(a.type for a in answers) == [4, 7]
    refused = next(a for a in answers if a.type == 4)
    assert refused.ephemeral
    assert len(club.recorder.of(ev.ActionTaken)) == actions + 1

"""A restart in the middle of a hand: the hand resumes and the old buttons keep working."""

from __future__ import annotations

from dealerbot.tables import events as ev

from .driver import Club, action_buttons, is_result, message_text, passive


async def test_a_restart_mid_hand_resumes_with_working_buttons(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    for _ in range(4):
        message, user = await club.wait_turn()
        await club.click(message, passive(action_buttons(message)), club.member(user))
        await club.settle()
    message, user = await club.wait_turn()
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)

    await club.stop_bot()
    await club.start_bot()  # same database file, same emulator
    await club.settle()

    service = club.bot.service
    assert service is not None
    resumed = await service.table_view(club.guild.id, club.channel.id)
    assert (resumed.hand_id, resumed.seq, resumed.pot) == (view.hand_id, view.seq, view.pot)
    same = club.emu.message(message["id"])  # the table message is still the one in use
    assert action_buttons(same) == action_buttons(message)
    # The same seats, cards and turn (the action list of a resumed hand is the service's).
    assert same["embeds"][0]["description"] == message["embeds"][0]["description"]
    assert same["embeds"][0]["title"] == message["embeds"][0]["title"]
    answer = await club.click(same, passive(action_buttons(same)), club.member(user))
    assert answer.type == 7  # a button posted before the restart, answered in place
    await club.play_hand(passive)
    await club.settle()
    [ended] = club.recorder.of(ev.HandEnded)
    assert ended.hand_id == view.hand_id and not ended.cancelled
    results = [m for m in club.public_messages() if is_result(m)]
    assert [m["id"] for m in results] == [message["id"]]
    assert " wins " in message_text(results[0])


async def test_a_table_message_deleted_while_the_bot_was_down_is_posted_again(club: Club) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()
    message, user = await club.wait_turn()
    await club.stop_bot()
    club.emu.delete_message(message["id"])
    await club.start_bot()
    await club.settle()
    fresh, still = await club.wait_turn()
    assert fresh["id"] != message["id"] and still == user
    await club.play_hand(passive)
    await club.settle()
    assert len(club.recorder.of(ev.HandEnded)) == 1

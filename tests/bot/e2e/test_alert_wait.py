"""A turn alert counts the wait from the moment the table showed the turn (issue 21: an
alert only where the player really waited): a turn whose table edit came late gets its
alert ten seconds after it was shown, not after the service opened it."""

from __future__ import annotations

from .driver import Club, age_tokens
from .test_faults import time_passes
from .test_table_talk import alerts


async def test_the_alert_waits_for_the_turn_to_be_shown(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    _, first = await club.wait_turn()
    age_tokens(club)  # the timer's edit goes by REST, where it fails once (503)
    club.emu.fail_next("PATCH", f"/channels/{club.channel.id}/messages/*", 503, times=2)
    await time_passes(club, 46)  # his clock runs out: the time bank (its edit fails)
    await time_passes(club, 31)  # and the bank runs out: the dealer acts for him
    relay = club.bot.relay
    assert relay is not None
    table = relay.messenger(club.guild.id, club.channel.id)
    view = table.view
    assert view is not None and view.to_act_user not in (None, first)
    second = club.member(view.to_act_user or 0)
    assert table._retry is not None  # the edit showing his turn waits for its retry

    await time_passes(club, 15)  # the service opened his turn 15 s ago; nobody saw it
    assert alerts(club, second) == []
    table._retry.cancel()  # the retry's time has come: the table shows his turn now
    table._retry = None
    table.kick()
    await club.settle()
    _, user = await club.wait_turn()
    assert user == second.id
    await time_passes(club, 9)
    assert alerts(club, second) == []
    await time_passes(club, 1)  # ten seconds after it was shown
    assert len(alerts(club, second)) == 1

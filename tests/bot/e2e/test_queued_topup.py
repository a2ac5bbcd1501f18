"""A top-up asked for during a hand is on the table for everyone to see (``+50 next hand``
on the player's seat line) and survives a restart of the bot: it still joins the stack
before the next deal, the wallet paying exactly once (issue 8, follow-up P7b)."""

from __future__ import annotations

from dealerbot.tables import events as ev

from .driver import Club, message_text, passive


def seat_line(club: Club, name: str) -> str:
    """The player's line on the newest table message that shows his seat."""
    for message in reversed(club.public_messages()):
        for line in message_text(message).splitlines():
            if f"**{name}** · " in line:
                return line
    raise AssertionError(f"no seat line for {name}")


async def test_a_queued_top_up_is_shown_and_survives_a_restart(club: Club) -> None:
    alice, bob = club.players[:2]
    await club.seat([alice, bob])
    await club.start_hand()
    answer = await club.text(alice, "addchips", amount=50)
    assert answer.startswith("Queued: 50 chips join your stack before the next deal")
    await club.settle()
    assert "+50 next hand" in seat_line(club, alice.name)
    assert "next hand" not in seat_line(club, bob.name)
    service = club.bot.service
    assert service is not None
    wallet = (await service.balance(club.guild.id, alice.id)).chips

    await club.stop_bot()
    await club.start_bot()  # same database file, same emulator
    await club.settle()
    assert "+50 next hand" in seat_line(club, alice.name)  # the resumed table still shows it
    await club.play_hand(passive)
    await club.settle()
    [ended] = club.recorder.of(ev.HandEnded)
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)
    seat = view.seat_of(alice.id)
    assert seat is not None and seat.stack == dict(ended.final_stacks)[seat.seat] + 50
    assert (await service.balance(club.guild.id, alice.id)).chips == wallet - 50
    await club.start_hand()
    line = seat_line(club, alice.name)  # dealt in with it: nothing queued is left
    assert "+50" not in line and "next hand" not in line
    club.emu.assert_nothing_refused()

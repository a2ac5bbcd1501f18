"""Hostile and long display names (issue 12, points 2 and 11): one seat line per player,
no fake turn marker, an action line never loses its action, no cut inside an escape."""

from __future__ import annotations

from dealerbot.bot.markup import name_text

from .driver import Club, action_buttons, message_text, passive

FORGED = "Eve\n▶ **Mallory** (3)\u200b\u202e"
LONG = "_*~`|>" * 5 + "__"  # 32 characters, every one of them escaped on the table


def seat_lines(message: dict) -> list[str]:
    return (message["embeds"][0].get("description") or "").splitlines()


async def test_a_newline_in_a_nickname_adds_no_fake_seat_line(club: Club) -> None:
    forger = club.emu.add_member(club.guild, FORGED)
    await club.seat([club.players[0], forger])
    await club.start_hand()
    message, _ = await club.wait_turn()
    lines = seat_lines(message)
    assert len(lines) == 2  # one line per seat
    assert sum(line.startswith("▶") for line in lines) == 1
    assert not any(line.lstrip("•▶ ").startswith("**Mallory") for line in lines)
    text = message_text(message)
    assert "\u200b" not in text and "\u202e" not in text
    club.emu.assert_nothing_refused()


async def test_a_long_name_keeps_its_action_after_a_restart(club: Club) -> None:
    longname = club.emu.add_member(club.guild, LONG)
    await club.seat([longname, club.players[0]])
    await club.start_hand()
    for _ in range(2):
        message, user = await club.wait_turn()
        await club.click(message, passive(action_buttons(message)), user)
        await club.settle()
    await club.stop_bot()
    await club.start_bot()  # a fresh bot shows the service's action lines
    await club.settle()
    message, _ = await club.wait_turn()
    relay = club.bot.relay
    assert relay is not None
    relay.messenger(club.guild.id, club.channel.id).version += 1  # force a fresh render
    relay.messenger(club.guild.id, club.channel.id).kick()
    await club.settle()
    message = club.emu.message(message["id"])
    actions = next(f["value"] for f in message["embeds"][0]["fields"] if f["name"] == "Actions")
    mine = [line for line in actions.splitlines() if line.startswith(name_text(LONG))]
    assert mine and all(line != name_text(LONG) for line in mine)
    assert all(":" in line.removeprefix(name_text(LONG)) for line in mine), mine
    club.emu.assert_nothing_refused()


def test_a_name_is_cut_before_it_is_escaped() -> None:
    for length in range(1, 80):
        for tail in ("_", "*", "`", "\\", "|"):
            name = "a" * length + tail * 3
            shown = name_text(name)
            trailing = len(shown) - len(shown.rstrip("\\"))
            assert trailing % 2 == 0, (name, shown)  # no escape cut in half
            assert shown.replace("\\", "") == name[:32].replace("\\", "")

"""Admins (issue 22, item 6), as an admin sees it: ``/stud-admin config`` with several
options is all or nothing and says why; each option's help carries its rule; the
confirmation names settings in words; ``/stud-admin tables`` shows every table at once."""

from __future__ import annotations

from tests.bot.emulator import Channel

from .driver import Club, message_text

OPTION_KEYS = ("small_bet", "min_buyin", "turn_seconds", "starting_chips")


async def test_config_is_all_or_nothing_and_says_it_in_words(club: Club) -> None:
    admin = club.admin
    before = await club.text(admin, "config", group="stud-admin")
    refused = await club.text(
        admin, "config", group="stud-admin", min_buyin=40, turn_seconds=60, starting_chips=777
    )
    assert refused.startswith("Nothing was changed: the minimum buy-in must be at least 10"), (
        refused
    )
    assert await club.text(admin, "config", group="stud-admin") == before  # stakes, clock, wallet
    assert "60 s to act" not in before and "starting chips 777" not in before

    changed = await club.text(
        admin, "config", group="stud-admin", small_bet=10, min_buyin=100, turn_seconds=60
    )
    assert "Settings changed" in changed and "60 s to act" in changed
    assert "Changed: the small bet, the minimum buy-in and the turn time (seconds)." in changed
    assert not any(key in changed for key in OPTION_KEYS)  # words, not option keys

    [config] = [
        option
        for command in club.emu.commands(club.guild)
        if command["name"] == "stud-admin"
        for option in command.get("options") or []
        if option["name"] == "config"
    ]
    helps = {option["name"]: option["description"] for option in config["options"]}
    assert "at least 10 small bets" in helps["min_buyin"]
    assert "up to 1,000 small bets" in helps["max_buyin"]
    assert "at least the ante, less than the small bet" in helps["bring_in"]
    club.emu.assert_nothing_refused()


async def test_one_overview_of_the_servers_tables(club: Club) -> None:
    alice, bob, carol, dave = club.players[:4]
    other: Channel = club.emu.add_text_channel(club.guild, "razz-room")
    await club.seat([alice, bob, dave])
    assert "sit out" in (await club.text(bob, "sitout")).lower()
    assert "You sit in seat" in await club.text(carol, "join", channel=other)
    await club.text(club.admin, "config", group="stud-admin", channel=other, game="razz")
    await club.start_hand()
    overview = await club.command(club.admin, "tables", group="stud-admin")
    assert overview["flags"] & 64
    text = message_text(overview)
    lines = {line.split(" · ")[0]: line for line in text.splitlines() if line.startswith("<#")}
    here, there = lines[f"<#{club.channel.id}>"], lines[f"<#{other.id}>"]
    assert "Stud 5/10" in here and f"3/8 seated, away: {bob.name}" in here
    assert "hand #1 in play" in here
    assert "Razz 5/10" in there and "1/8 seated" in there and "waiting" in there
    refused = await club.command(club.players[4], "tables", group="stud-admin", force=True)
    assert "Manage Server" in message_text(refused)
    club.emu.assert_nothing_refused()

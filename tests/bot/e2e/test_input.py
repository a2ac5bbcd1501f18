"""Bad or hostile input gets a clear private answer and changes nothing."""

from __future__ import annotations

import asyncio

import pytest

from .driver import Club, message_text

EPHEMERAL = 64


async def wallet_chips(club: Club, member) -> tuple[int, int]:
    service = club.bot.service
    assert service is not None
    wallet = await service.balance(club.guild.id, member.id)
    return wallet.chips, wallet.table_chips


async def test_amounts_are_bounded_by_discord_and_checked_by_the_bot(club: Club) -> None:
    [stud] = [c for c in club.emu.commands(club.guild) if c["name"] == "stud"]
    options = {o["name"]: o for o in stud["options"]}
    assert options["join"]["options"][0]["min_value"] == 1
    assert options["addchips"]["options"][0]["min_value"] == 1
    player = club.players[0]
    with pytest.raises(ValueError, match="out of range"):
        await club.command(player, "join", buy_in=-5)  # Discord's client will not send it
    before = await wallet_chips(club, player)
    for amount in (99, 5000, 999_999_999):  # below the minimum, above the maximum, absurd
        answer = await club.command(player, "join", buy_in=amount)
        assert answer["flags"] & EPHEMERAL
        assert "buy-in" in message_text(answer).lower()
    assert await wallet_chips(club, player) == before
    await club.seat([player], buy_in=100)
    over = await club.text(player, "addchips", amount=950)  # 100 + 950 > max buy-in 1000
    assert "chips" in over.lower() and "Added" not in over
    rich = await club.text(player, "addchips", amount=900)
    assert "Added 900" in rich
    broke = await club.text(player, "leave")
    assert "1000 chips went to your wallet" in broke
    assert await wallet_chips(club, player) == (1000, 0)


async def test_commands_in_dms_are_refused(club: Club) -> None:
    player = club.players[0]
    await club.bot.tree.sync()  # as `dealerbot sync` does: global commands reach DMs
    [stud] = [c for c in club.emu.commands() if c["name"] == "stud"]
    assert stud["contexts"] == [0]  # guild only
    with pytest.raises(PermissionError):
        await club.command(player, "join", in_dm=True)  # not offered in DMs at all
    for sub in ("join", "daily", "balance", "cards"):
        answer = await club.command(player, sub, in_dm=True, force=True)
        text = message_text(answer)
        assert "server channel" in text, (sub, text)
    assert await wallet_chips(club, player) == (1000, 0)


async def test_commands_without_a_table_or_a_seat(club: Club) -> None:
    elsewhere = club.emu.add_text_channel(club.guild, "lounge")
    player = club.players[0]
    for sub in ("leave", "start", "sitout", "cards", "table"):
        text = await club.text(player, sub, channel=elsewhere)
        assert "no table in this channel" in text.lower(), (sub, text)
    await club.seat(club.players[1:3])
    for sub, words in (
        ("leave", "not seated"),
        ("sitout", "not seated"),
        ("cards", "not seated"),
        ("addchips", "not seated"),
    ):
        options = {"amount": 10} if sub == "addchips" else {}
        text = await club.text(player, sub, **options)
        assert words in text.lower(), (sub, text)
    assert await wallet_chips(club, player) == (1000, 0)
    twice = await club.text(club.players[1], "join")
    assert "already seated" in twice.lower()
    await club.start_hand(club.players[1])  # only a seated player (or an admin) deals
    again = await club.text(club.players[1], "start")
    assert "already" in again.lower()
    queued = await club.text(club.players[1], "addchips", amount=10)
    assert queued.startswith("Queued: 10 chips")  # moved before the next deal, not now
    assert await wallet_chips(club, club.players[1]) == (900, 100)


async def test_the_same_command_twice_at_once_is_done_once(club: Club) -> None:
    player = club.players[0]
    first, second = await asyncio.gather(
        club.emu.slash_command(club.guild, club.channel, player, "stud", subcommand="join"),
        club.emu.slash_command(club.guild, club.channel, player, "stud", subcommand="join"),
    )
    answers = [await first.response(timeout=10), await second.response(timeout=10)]
    texts = sorted(a.content or "" for a in answers)
    assert all(a.ephemeral for a in answers)
    assert sum("You sit in seat" in t for t in texts) == 1, texts
    assert any("one at a time" in t or "already seated" in t for t in texts), texts
    assert await wallet_chips(club, player) == (900, 100)

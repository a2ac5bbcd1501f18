"""Stale or forged commands, buttons on the wrong message, spam (issue 12, points 5-7)."""

from __future__ import annotations

import logging
import re

import pytest

from .driver import Club, buttons


async def answer_text(rec) -> str:  # type: ignore[no-untyped-def]
    response = await rec.response(timeout=10)
    return response.content or ""


async def test_an_unknown_subcommand_says_the_commands_are_out_of_date(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    # a client that still shows a command the bot dropped
    with caplog.at_level(logging.INFO):
        rec = await club.emu.slash_command(
            club.guild, club.channel, club.players[0], "stud", subcommand="teleport", unchecked=True
        )
        text = await answer_text(rec)
    assert "out of date" in text and "dealerbot sync" in text
    records = [r for r in caplog.records if "teleport" in r.getMessage()]
    assert records and all(r.levelno == logging.WARNING and r.exc_info is None for r in records)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@pytest.mark.parametrize(
    ("group", "sub", "options", "named"),
    [
        ("stud", "join", {"buy_in": "lots"}, "buy_in"),
        ("stud", "balance", {"member": "abc"}, "member"),
        ("stud-admin", "chips", {"member": "x", "amount": 5}, "member"),
        ("stud-admin", "config", {"ante": 2.5}, "ante"),
    ],
)
async def test_a_wrong_typed_option_is_refused_clearly(
    club: Club, caplog: pytest.LogCaptureFixture, group: str, sub: str, options: dict, named: str
) -> None:
    # a modified client sends values of another type than the command's options
    with caplog.at_level(logging.INFO):
        rec = await club.emu.slash_command(
            club.guild,
            club.channel,
            club.admin,
            group,
            subcommand=sub,
            options=options,
            unchecked=True,
        )
        text = await answer_text(rec)
    assert f"`{named}`" in text and "dealerbot sync" in text, text
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    service = club.bot.service
    assert service is not None
    assert (await service.balance(club.guild.id, club.admin.id)).table_chips == 0


async def test_a_leaderboard_button_pages_only_its_owners_leaderboard(club: Club) -> None:
    owner, other = club.players[3], club.players[4]
    service = club.bot.service
    assert service is not None
    for user in range(1000, 1012):  # two pages of wallets
        await service.admin_adjust(club.guild.id, user, 5, "test")
    shown = await club.emu.slash_command(
        club.guild, club.channel, owner, "stud", subcommand="leaderboard"
    )
    await shown.response()
    assert shown.original_message_id is not None
    mine = club.emu.message(shown.original_message_id)  # an ephemeral leaderboard
    paging = [b["custom_id"] for b in buttons(mine) if re.search(r":(next|prev)\b", b["custom_id"])]
    assert paging
    before = mine["embeds"]
    # a modified client clicks the owner's leaderboard as someone else
    rec = await club.emu.forge_click(mine["id"], paging[-1], other)
    response = await rec.response(timeout=10)
    assert response.type != 7  # not an edit of the owner's message
    assert club.emu.message(mine["id"])["embeds"] == before
    rec = await club.emu.forge_click(mine["id"], paging[-1], owner)
    assert (await rec.response(timeout=10)).type == 7  # his own leaderboard turns its page


async def test_table_reposts_have_a_cooldown_per_channel(club: Club) -> None:
    await club.seat(club.players[:2])
    first = await club.text(club.players[0], "table")
    assert "posted below" in first
    posts = len(club.public_messages())
    spam = await club.text(club.players[1], "table")
    assert "again in" in spam, spam
    assert len(club.public_messages()) == posts
    await club.clock.advance(31)
    again = await club.text(club.players[1], "table")
    assert "posted below" in again


async def test_only_seated_players_and_admins_start_a_hand(club: Club) -> None:
    await club.seat(club.players[:2])
    refused = await club.text(club.players[5], "start")
    assert "seated" in refused, refused
    assert (await club.text(club.admin, "start")).startswith("Dealing hand")

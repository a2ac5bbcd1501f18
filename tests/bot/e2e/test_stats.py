"""``/stud stats`` and ``/stud leaderboard by:winnings`` end to end, as players see them.

The truth the answers are checked against is the ledger (each player's 'hand_result' rows)
and the hands the service reported, not the stats code itself.
"""

from __future__ import annotations

import re

from dealerbot.store import stats as stats_db
from dealerbot.store.db import fetch_all
from dealerbot.store.stats import PlayerHandRow
from dealerbot.tables import events as ev

from .driver import Club, buttons, message_text, passive, random_chooser

EPHEMERAL = 64


async def ledger_nets(club: Club) -> dict[int, int]:
    service = club.bot.service
    assert service is not None
    async with service.db.reading() as conn:
        rows = await fetch_all(
            conn,
            "SELECT user_id, SUM(delta) FROM ledger WHERE reason = 'hand_result' GROUP BY user_id",
        )
    return {int(user): int(net) for user, net in rows}


def field(text: str, name: str) -> str:
    match = re.search(rf"^{re.escape(name)}: (.+)$", text, re.MULTILINE)
    assert match is not None, f"{name!r} not in {text!r}"
    return match.group(1)


async def test_stats_answer_privately_unless_shared(club: Club) -> None:
    players = club.players[:3]
    await club.seat(players)
    for i in range(4):
        await club.start_hand()
        await club.play_hand(passive if i % 2 else random_chooser(club.rng))
        await club.settle()
    ended = [e for e in club.recorder.of(ev.HandEnded) if not e.cancelled]
    assert len(ended) == 4
    nets = await ledger_nets(club)

    mine = await club.command(players[0], "stats")
    assert mine["flags"] & EPHEMERAL
    text = message_text(mine)
    assert "Stats of" in text and "all time" in text
    assert field(text, "Hands played") == "4"
    assert field(text, "Net chips") == f"{nets.get(players[0].id, 0):+,}"
    assert field(text, "Went to showdown").endswith("of 4)")
    assert "Best hand shown" in text

    other = await club.command(players[0], "stats", member=players[1].id, period="today")
    assert other["flags"] & EPHEMERAL
    other_text = message_text(other)
    assert "today" in other_text
    assert field(other_text, "Net chips") == f"{nets.get(players[1].id, 0):+,}"

    shared = await club.command(players[2], "stats", share=True)
    assert not shared.get("flags", 0) & EPHEMERAL  # the channel sees it
    assert field(message_text(shared), "Hands played") == "4"

    none = await club.command(players[0], "stats", variant="razz")
    assert "No finished hands in this period." in message_text(none)
    stranger = await club.command(club.players[7], "stats")
    assert "No finished hands" in message_text(stranger)
    club.emu.assert_nothing_refused()


async def test_the_winnings_board_ranks_and_pages(club: Club) -> None:
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    await club.play_hand(passive)
    await club.settle()
    service = club.bot.service
    assert service is not None
    [hand] = [e for e in club.recorder.of(ev.HandEnded) if not e.cancelled]
    table = await service.table_view(club.guild.id, club.channel.id)
    fans = [club.emu.add_member(club.guild, f"fan{i}") for i in range(21)]
    # 21 more players with winnings this week (rows written as settlement writes them; they
    # need not balance: only the board's paging is under test here).
    rows = [
        PlayerHandRow(fan.id, 0, 0, 5 * i + 5, 5 * i + 5, 3, 0, 0, 0, 0, None, None)
        for i, fan in enumerate(fans)
    ]
    async with service.db.transaction():
        await stats_db.record_hand(service.db, hand.hand_id, table.table_id, "stud", rows)

    viewer = players[0]
    rec = await club.emu.slash_command(
        club.guild, club.channel, viewer, "stud", subcommand="leaderboard",
        options={"by": "winnings", "period": "week"},
    )  # fmt: skip
    await rec.response(timeout=10)
    assert rec.original_message_id is not None
    first = club.emu.message(rec.original_message_id)
    text = message_text(first)
    assert "winnings this week" in text and "Page 1 of 3" in text and "23 players" in text
    assert f"<@{fans[-1].id}> — +105 chips" in text.split("**#1**")[1].split("\n")[0]
    prev, nxt = buttons(first)
    assert prev["disabled"] and not nxt.get("disabled")

    turned = await club.click(first, nxt["custom_id"], viewer)
    assert turned.type == 7  # his own board: the page turns in place
    second = club.emu.message(rec.original_message_id)
    assert "Page 2 of 3" in message_text(second)

    last = await club.click(second, buttons(second)[1]["custom_id"], viewer)
    assert last.type == 7
    third = club.emu.message(rec.original_message_id)
    assert "Page 3 of 3" in message_text(third) and buttons(third)[1]["disabled"]
    assert "**#21**" in message_text(third)
    # A modified client clicks it as someone else: a private page of his own, and the
    # owner's message is not edited. (An id pasted onto another message never reaches the
    # bot: discord.py drops a click whose id is not on the clicked message.)
    before = club.emu.message(rec.original_message_id)["embeds"]
    intruder = await club.emu.forge_click(third["id"], buttons(third)[0]["custom_id"], players[1])
    answer = await intruder.response(timeout=10)
    assert answer.type == 4 and answer.flags & EPHEMERAL
    assert "Page 2 of 3" in message_text(answer.data) and "← you" not in message_text(answer.data)
    assert club.emu.message(rec.original_message_id)["embeds"] == before

    chips = await club.command(viewer, "leaderboard")
    assert "Leaderboard" in message_text(chips) and "winnings" not in message_text(chips)
    refused = await club.command(viewer, "leaderboard", by="chips", period="month")
    assert "always today's" in message_text(refused)
    club.emu.assert_nothing_refused()


async def test_board_buttons_seek_and_buttons_without_a_seek_still_page(club: Club) -> None:
    """Paging ids carry the row a page turns from (the next page seeks after the shown
    page's last row); a button made before the seek existed (page number only) still pages."""
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    await club.play_hand(passive)
    await club.settle()
    service = club.bot.service
    assert service is not None
    [hand] = [e for e in club.recorder.of(ev.HandEnded) if not e.cancelled]
    table = await service.table_view(club.guild.id, club.channel.id)
    fans = [club.emu.add_member(club.guild, f"fan{i}") for i in range(21)]
    rows = [
        PlayerHandRow(fan.id, 0, 0, 5 * (i % 3) + 5, 5 * (i % 3) + 5, 3, 0, 0, 0, 0, None, None)
        for i, fan in enumerate(fans)
    ]  # ties across the page edges
    async with service.db.transaction():
        await stats_db.record_hand(service.db, hand.hand_id, table.table_id, "stud", rows)
    viewer = players[0]
    rec = await club.emu.slash_command(
        club.guild, club.channel, viewer, "stud", subcommand="leaderboard",
        options={"by": "winnings", "period": "all"},
    )  # fmt: skip
    await rec.response(timeout=10)
    assert rec.original_message_id is not None
    first = club.emu.message(rec.original_message_id)
    last_shown = re.findall(r"<@(\d+)> — ([+-]?[\d,]+) chips", message_text(first))[-1]
    nxt = buttons(first)[1]["custom_id"]
    user, net = last_shown[0], int(last_shown[1].replace(",", ""))
    assert nxt.endswith(f":next:{net}:{user}") and len(nxt) <= 100

    await club.click(first, nxt, viewer)
    second = message_text(club.emu.message(rec.original_message_id))
    assert "Page 2 of 3" in second
    listed = [re.findall(r"<@(\d+)> — ", text) for text in (message_text(first), second)]
    assert [len(users) for users in listed] == [10, 10] and not set(listed[0]) & set(listed[1])
    # The message as the previous release made it: ids with the page number only.
    stored = club.emu.stored_message(rec.original_message_id)
    for component_row in stored.components:
        for button in component_row["components"]:
            button["custom_id"] = button["custom_id"].rsplit(":", 2)[0]
    old = club.emu.message(rec.original_message_id)
    assert buttons(old)[1]["custom_id"].endswith(":3:next")
    turned = await club.click(old, buttons(old)[1]["custom_id"], viewer)
    assert turned.type == 7
    third = club.emu.message(rec.original_message_id)
    assert "Page 3 of 3" in message_text(third) and buttons(third)[1]["disabled"]
    assert buttons(third)[0]["custom_id"].count(":") == 8  # new ids again, with the seek
    back = await club.click(third, buttons(third)[0]["custom_id"], viewer)
    assert back.type == 7
    assert message_text(club.emu.message(rec.original_message_id)) == second
    club.emu.assert_nothing_refused()

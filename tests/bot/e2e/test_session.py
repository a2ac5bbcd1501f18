"""Issue 8's whole session: stud and stud8, every command and every button, an all-in with
side pots, names of the longest length Discord allows (32), eight seats, a player whose
DMs are closed, alerts, the time bank and a timeout; and not one request Discord would
refuse (only the blocked player's DMs, 50007, which the bot must try once per hand)."""

from __future__ import annotations

from typing import Any

from dealerbot.tables import events as ev

from .driver import Club, action_buttons, aggressive, buttons, is_result, message_text
from .test_table_talk import alerts, seat_id, table_message, time_passes

BLOCKED_DM = 50007


def long_name(i: int) -> str:
    name = (f"{i} Ünïcode Longest Display Name " + "Z" * 40)[:32]
    assert len(name) == 32
    return name


async def answer_text(club: Club, user: Any, sub: str, **options: Any) -> str:
    text = await club.text(user, sub, **options)
    assert text and "Something went wrong" not in text, (sub, text)
    return text


async def test_a_whole_session_refuses_nothing(club: Club) -> None:
    emu, admin = club.emu, club.admin
    members = [emu.add_member(club.guild, long_name(i), dm_blocked=i == 7) for i in range(8)]
    late = emu.add_member(club.guild, long_name(8))
    changed = await club.text(admin, "config", group="stud-admin", min_buyin=50, max_buyin=400)
    assert "Settings changed" in changed

    # Before sitting down: the wallet, rules and settings commands.
    first = members[0]
    for sub, options in (
        ("rules", {}),
        ("balance", {}),
        ("daily", {}),
        ("alerts", {"setting": "off"}),
        ("alerts", {"setting": "on"}),
        ("stats", {}),
        ("history", {}),
    ):
        await answer_text(club, first, sub, **options)

    # Eight seats: six by command, one by the Join… form as it comes, one with another amount.
    for member, buy_in in zip(members[:6], (50, 70, 90, 120, 160, 200), strict=True):
        assert "You sit in seat" in await club.text(member, "join", buy_in=buy_in)
    await club.settle()
    table = table_message(club)
    sat = await club.join_by_button(table, members[6])
    assert "You sit down with 50 chips" in sat.content
    submitted = await club.join_by_button(table, members[7], "400")
    assert "You sit down with 400 chips" in submitted.content
    assert "seats at this table are taken" in await club.text(late, "join")
    for fan in club.players:  # wallets enough for a second leaderboard page
        await club.text(admin, "chips", group="stud-admin", member=fan.id, amount=10)
    rec = await emu.slash_command(club.guild, club.channel, first, "stud", subcommand="leaderboard")
    board = await rec.response(timeout=10)
    assert board.type == 4 and "Leaderboard" in message_text(board.data)
    [page_message] = emu.ephemeral_messages(first)[-1:]
    page_two = next(b for b in buttons(page_message) if ":next" in b["custom_id"])
    turned = await club.click(page_message, page_two["custom_id"], first)
    assert turned.type == 7 and "Page 2 of 2" in message_text(turned.data)
    await club.settle()
    text = message_text(table_message(club))
    for member in members:
        assert f"**{member.name}**" in text  # 32 characters, whole

    # Hand 1, stud: cards, a stranger's click, an alert, the time bank, a timeout.
    await club.start_hand(members[0])
    message, user = await club.wait_turn()
    cards = next(
        b["custom_id"] for b in buttons(message) if b["custom_id"].startswith("stud:cards")
    )
    mine = await club.click(message, cards, members[7])
    assert mine.ephemeral and "down: `" in mine.content
    assert "down: `" in await answer_text(club, members[1], "cards")
    stranger = await club.click(message, next(iter(action_buttons(message).values())), late)
    assert stranger.ephemeral and "not seated" in stranger.content
    await time_passes(club, 10)
    if user != members[7].id:
        assert len(alerts(club, _member(members, user))) == 1
    await time_passes(club, 36)  # 46 s: the time bank runs
    await time_passes(club, 31)  # and runs out: the dealer acts for him
    assert any(e.user_id == user for e in club.recorder.of(ev.PlayerTimedOut))
    assert "posted below" in await answer_text(club, members[2], "table")
    assert "Queued" in await answer_text(club, members[3], "addchips", amount=10)
    assert "sit out" in (await answer_text(club, members[4], "sitout")).lower()
    assert "You leave when this hand ends" in await answer_text(club, members[5], "leave")
    await club.play_hand(aggressive)
    await club.settle()
    [showdown] = club.recorder.of(ev.Showdown)
    assert len(showdown.pots) > 1  # all-ins made side pots
    [result] = [m for m in club.public_messages() if is_result(m)]
    assert "Side pot (" in message_text(result)

    # Between hands: history files, proofs, stats, rebuys and the seat buttons.
    [ended] = club.recorder.of(ev.HandEnded)
    for member in members[:2]:
        await answer_text(club, member, "history")
        await club.command(member, "hand", id=ended.hand_id)
        await club.command(member, "verify", id=ended.hand_id)
        await club.command(member, "stats")
    await answer_text(club, members[4], "sitin")
    gave = await club.text(admin, "chips", group="stud-admin", member=late.id, amount=100)
    assert "Gave 100" in gave

    # Hand 2, stud8 (announced on the table); the seat buttons on its message.
    await club.text(admin, "config", group="stud-admin", game="stud8")
    await club.settle()
    assert any(
        (m.get("content") or "").startswith("From the next hand: Seven Card Stud Hi/Lo")
        for m in club.public_messages()
    )
    service = club.bot.service
    assert service is not None
    busted = [
        s for s in (await service.table_view(club.guild.id, club.channel.id)).seats if s.stack == 0
    ]
    await club.start_hand(members[0])
    message, _ = await club.wait_turn()
    assert message["embeds"][0]["title"].startswith("Stud Hi/Lo · 5/10 · hand #2")
    table = table_message(club)
    for seat in busted:
        assert f"**{seat.name}** · 0 · *busted*" in message_text(table)
        broke = _member(members, seat.user_id)
        rebought = await club.click(table, seat_id(table, "rebuy"), broke)
        assert rebought.content.startswith("Queued: 50 chips")
    sat = await club.join_by_button(table, late)  # members[5] left: a free seat
    assert "dealt in from the next hand" in sat.content
    away = await club.click(table, seat_id(table, "away"), members[1])
    assert "sit out" in away.content.lower()
    back = await club.click(table, seat_id(table, "away"), members[1])
    assert "dealt in again" in back.content
    playing = await service.table_view(club.guild.id, club.channel.id)
    leaver = next(s.user_id for s in playing.seats if s.in_hand and s.user_id != members[1].id)
    gone = await club.click(table, seat_id(table, "leave"), _member(members, leaver))
    assert "You leave when this hand ends" in gone.content
    await club.play_hand(aggressive)
    await club.settle()
    assert len([m for m in club.public_messages() if is_result(m)]) == 2
    assert "closed" in (await club.text(admin, "close", group="stud-admin")).lower()
    await club.settle()
    shy = members[7]
    told = [m for m in club.public_messages() if f"<@{shy.id}>" in (m.get("content") or "")]
    assert told == []  # he clicked in the hand: told privately, never pinged in public
    private = [m for m in emu.ephemeral_messages(shy) if "cannot send you direct" in str(m)]
    assert len(private) == 1
    emu.assert_nothing_refused(ignore_codes=frozenset({BLOCKED_DM}))
    refused = emu.refused_requests()
    assert refused and {r.code for r in refused} == {BLOCKED_DM}
    assert len(refused) == 1  # one try in the session (each counts towards an IP ban)


def _member(members: list[Any], user_id: int) -> Any:
    return next(m for m in members if m.id == user_id)

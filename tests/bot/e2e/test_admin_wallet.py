"""/stud-admin (refused to non-admins, stakes from the next hand, chips, close),
the leaderboard's pages and /stud daily."""

from __future__ import annotations

import pytest

from dealerbot.store import wallets as wallets_db

from .driver import Club, action_buttons, buttons, message_text, passive

MANAGE_GUILD = 1 << 5


async def test_a_non_admin_is_refused_on_stud_admin(club: Club) -> None:
    [admin_cmd] = [c for c in club.emu.commands(club.guild) if c["name"] == "stud-admin"]
    assert int(admin_cmd["default_member_permissions"]) == MANAGE_GUILD
    player = club.players[0]
    with pytest.raises(PermissionError):  # Discord does not even offer it to him ...
        await club.command(player, "config", group="stud-admin", ante=2)
    service = club.bot.service
    assert service is not None
    before = await service.config_get(club.guild.id, club.channel.id)
    for sub, options in (
        ("config", {"ante": 2, "bring_in": 3, "small_bet": 10}),
        ("chips", {"member": player.id, "amount": 5000}),
        ("close", {}),
    ):  # ... and the bot refuses it when a client sends it anyway
        answer = await club.command(player, sub, group="stud-admin", force=True, **options)
        assert answer["flags"] & 64
        assert "Manage Server" in message_text(answer)
    assert await service.config_get(club.guild.id, club.channel.id) == before
    wallet = await service.balance(club.guild.id, player.id)
    assert wallet.chips == 1000


async def test_an_admin_changes_stakes_from_the_next_hand(club: Club) -> None:
    shown = await club.text(club.admin, "config", group="stud-admin")
    assert "Settings (this channel)" in shown and "5/10 fixed limit" in shown
    await club.seat(club.players[:2])
    await club.start_hand()
    message, _ = await club.wait_turn()
    assert "Bring in 2" in [b["label"] for b in buttons(message)]
    changed = await club.text(
        club.admin, "config", group="stud-admin", ante=2, bring_in=5, small_bet=10, min_buyin=100
    )
    assert "10/20 fixed limit · ante 2 · bring-in 5" in changed
    message, _ = await club.wait_turn()
    assert "Stud · 5/10 · hand #1" in message_text(message)  # the hand keeps its stakes
    await club.play_hand(passive)
    await club.settle()
    await club.start_hand()
    message, _ = await club.wait_turn()
    assert "Stud · 10/20 · hand #2" in message_text(message)
    assert "ante 2 · bring-in 5" in message_text(message) and "Pot: 4" in message_text(message)
    labels = [b["label"] for b in buttons(message)]
    assert "Bring in 5" in labels and "Complete to 10" in labels
    bad = await club.text(club.admin, "config", group="stud-admin", ante=50)
    assert "ante" in bad.lower() and "Settings changed" not in bad
    server = await club.text(
        club.admin, "config", group="stud-admin", scope="server", daily_chips=250, game="stud8"
    )
    assert "server default" in server and "daily bonus 250" in server


async def test_admin_gives_and_takes_chips_and_closes_the_table(club: Club) -> None:
    player = club.players[0]
    gave = await club.text(club.admin, "chips", group="stud-admin", member=player.id, amount=500)
    assert "Gave 500" in gave and "1500" in gave
    took = await club.text(club.admin, "chips", group="stud-admin", member=player.id, amount=-200)
    assert "Took 200" in took and "1300" in took
    too_much = await club.text(
        club.admin, "chips", group="stud-admin", member=player.id, amount=-999_999
    )
    assert "1300" in too_much or "wallet" in too_much.lower()
    zero = await club.text(club.admin, "chips", group="stud-admin", member=player.id, amount=0)
    assert "amount" in zero.lower()
    service = club.bot.service
    assert service is not None
    assert (await service.balance(club.guild.id, player.id)).chips == 1300
    await club.seat(club.players[:2])
    await club.start_hand()
    closing = await club.text(club.admin, "close", group="stud-admin")
    assert "when this hand ends" in closing
    await club.play_hand(passive)
    await club.settle()
    assert "Table closed" in message_text(club.public_messages()[-1])
    for member in club.players[:2]:
        wallet = await service.balance(club.guild.id, member.id)
        assert wallet.table_chips == 0


async def test_the_leaderboard_pages_and_shows_your_rank(club: Club) -> None:
    service = club.bot.service
    assert service is not None
    members = [*club.players, *(club.emu.add_member(club.guild, f"fan{i}") for i in range(15))]
    for i, member in enumerate(members):  # 23 wallets, distinct net worths
        await wallets_db.admin_give(service.db, club.guild.id, member.id, 10 * (i + 1))
    viewer = members[4]  # the 19th richest
    first = await club.command(viewer, "leaderboard")
    assert first["flags"] & 64
    text = message_text(first)
    assert "Page 1 of 3" in text and "23 players" in text
    assert text.count("**#") == 10
    assert f"<@{members[-1].id}>" in text.split("**#1**")[1].split("\n")[0]  # richest first
    assert "You: #19 with 1050 chips" in text
    prev, nxt = buttons(first)
    assert prev["disabled"] and not nxt.get("disabled")
    rec = await club.emu.slash_command(
        club.guild, club.channel, viewer, "stud", subcommand="leaderboard"
    )
    await rec.response()
    assert rec.original_message_id is not None
    message = club.emu.message(rec.original_message_id)
    second = await club.click(message, nxt["custom_id"], viewer)
    assert second.type == 7
    page2 = club.emu.message(rec.original_message_id)
    text2 = message_text(page2)
    assert "Page 2 of 3" in text2 and "**#11**" in text2 and "**#19**" in text2
    assert "← you" in text2 and "← you" not in text
    third = await club.click(page2, buttons(page2)[1]["custom_id"], viewer)
    assert third.type == 7
    page3 = club.emu.message(rec.original_message_id)
    text3 = message_text(page3)
    assert "Page 3 of 3" in text3 and text3.count("**#") == 3 and "← you" not in text3
    assert "You: #19 with 1050 chips" in text3
    assert buttons(page3)[1]["disabled"]
    back = await club.click(page3, buttons(page3)[0]["custom_id"], viewer)
    assert back.type == 7 and "Page 2 of 3" in message_text(
        club.emu.message(rec.original_message_id)
    )


async def test_daily_twice(club: Club) -> None:
    player = club.players[0]
    first = await club.text(player, "daily")
    assert "You claimed **100** chips" in first and "1100" in first
    second = await club.text(player, "daily")
    assert "already claimed" in second and "<t:" in second
    service = club.bot.service
    assert service is not None
    assert (await service.balance(club.guild.id, player.id)).chips == 1100
    await club.clock.advance(86_400)
    third = await club.text(player, "daily")
    assert "You claimed **100** chips" in third and "1200" in third
    balance = await club.text(player, "balance")
    assert "**1200**" in balance and "Rank #1" in balance
    other = await club.text(club.players[1], "balance", member=player.id)
    assert f"<@{player.id}> has **1200**" in other


async def test_action_buttons_carry_exactly_the_legal_options(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    service = club.bot.service
    assert service is not None
    for _ in range(6):
        message, user = await club.wait_turn()
        mine = await service.my_cards(club.guild.id, club.channel.id, user)
        actions = [b["label"] for b in buttons(message) if b["custom_id"].count(":") == 4]
        assert actions == [o.label for o in mine.options]
        assert set(action_buttons(message)) == {o.kind.value for o in mine.options}
        await club.click(message, passive(action_buttons(message)), club.member(user))
        await club.settle()

"""Issue 8, points 2-5, as players live them: turn alerts, the dealer's announcements,
leaving mid-hand, table changes, busting and rebuying, the seat buttons and the modal,
the re-posted table's pointer, and the DMs' links and made hands."""

from __future__ import annotations

from typing import Any

from dealerbot.tables import ActionKind, AutoReason
from dealerbot.tables import events as ev

from .driver import JSON, Club, action_buttons, aggressive, buttons, message_text, passive


async def time_passes(club: Club, seconds: float) -> None:
    """Move the service's clock (turn timers, time bank, and the alerts' delay)."""
    service = club.bot.service
    assert service is not None
    await club.clock.advance(seconds)
    await service.wait_idle()
    await club.settle()


def alerts(club: Club, user: Any) -> list[JSON]:
    return [
        m
        for m in club.emu.dm_messages(user)
        if any(e.get("title") == "Your turn" for e in m.get("embeds") or [])
    ]


def table_message(club: Club) -> JSON:
    """The live table: the newest channel message with the seat buttons."""
    for message in reversed(club.public_messages()):
        if any(b.get("custom_id", "").startswith("stud:away:") for b in buttons(message)):
            return message
    raise AssertionError("no table message with seat buttons")


def seat_id(message: JSON, verb: str) -> str:
    return next(
        b["custom_id"] for b in buttons(message) if b["custom_id"].startswith(f"stud:{verb}:")
    )


async def test_a_turn_that_waits_gets_one_dm_alert_and_a_quick_player_none(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, first = await club.wait_turn()
    await time_passes(club, 9)
    assert alerts(club, first) == []
    await time_passes(club, 1)  # ten seconds: the default delay
    [alert] = alerts(club, first)
    text = message_text(alert)
    link = f"https://discord.com/channels/{club.guild.id}/{club.channel.id}/{message['id']}"
    assert "Your turn at" in text and link in text and "time runs out" in text
    await time_passes(club, 10)
    assert len(alerts(club, first)) == 1  # one alert per turn at most
    await club.click(message, passive(action_buttons(message)), club.member(first))
    await club.settle()
    message, second = await club.wait_turn()
    await club.click(message, passive(action_buttons(message)), club.member(second))
    await club.settle()
    _, third = await club.wait_turn()
    await time_passes(club, 10)
    assert alerts(club, second) == []  # he acted before it was due
    assert len(alerts(club, third)) == 1
    club.emu.assert_nothing_refused()


async def test_a_player_turns_alerts_off_and_on(club: Club) -> None:
    players = club.players[:2]
    for player in players:
        off = await club.text(player, "alerts", setting="off")
        assert "Turn alerts are off" in off
    await club.seat(players)
    await club.start_hand()
    _, user = await club.wait_turn()
    await time_passes(club, 20)
    assert alerts(club, user) == []
    on = await club.text(club.member(user), "alerts", setting="on")
    assert "Turn alerts are on" in on and "10 seconds" in on
    message, same = await club.wait_turn()
    await club.click(message, passive(action_buttons(message)), club.member(same))
    await club.settle()
    message, other = await club.wait_turn()
    await club.click(message, passive(action_buttons(message)), club.member(other))
    await club.settle()
    _, now = await club.wait_turn()
    if now == user:
        await time_passes(club, 10)
        assert len(alerts(club, user)) == 1
    service = club.bot.service
    assert service is not None
    from dealerbot.tables import PlayerPrefs

    off = await PlayerPrefs(service.db).alerts_off(p.id for p in players)
    assert off == {p.id for p in players if p.id != user}  # stored per player


async def test_time_bank_timeouts_and_sitting_out_are_announced_on_the_table(club: Club) -> None:
    await club.seat(club.players[:3])
    slow: int | None = None
    for hand in (1, 2):
        await club.start_hand()
        message, user = await club.wait_turn()
        if hand == 1 or user != slow:
            await club.click(message, passive(action_buttons(message)), club.member(user))
            await club.settle()
            message, user = await club.wait_turn()
        assert slow is None or user == slow, "the seeded deal gives him the second turn"
        slow = user
        name = club.member(slow).name
        await time_passes(club, 46)  # the turn time (45 s) is over: the time bank runs
        table = message_text(club.emu.message(message["id"]))
        if hand == 1:
            assert f"**{name}** is using the time bank: 30 s" in table
            await time_passes(club, 31)
        timed_out = [e for e in club.recorder.of(ev.PlayerTimedOut) if e.user_id == slow][-1]
        done = "folded" if timed_out.kind is ActionKind.FOLD else "checked"
        verb = "folds" if timed_out.kind is ActionKind.FOLD else "checks"
        table = message_text(club.emu.message(message["id"]))
        assert f"**{name}** timed out — {done}" in table
        assert f"{name} {verb} (timed out)" in table
        if hand == 2:
            assert timed_out.sat_out and "sitting out from the next hand" in table
        await club.play_hand(passive)
        await club.settle()
    auto = [e for e in club.recorder.of(ev.ActionTaken) if e.user_id == slow and e.auto]
    assert auto and all(e.auto is AutoReason.TIMEOUT for e in auto)
    club.emu.assert_nothing_refused()


async def test_leaving_mid_hand_says_what_the_dealer_does_and_does_it(club: Club) -> None:
    seated = club.players[:3]
    await club.seat(seated)
    await club.start_hand()
    _, to_act = await club.wait_turn()
    leaver = next(p for p in seated if p.id != to_act)
    answer = await club.text(leaver, "leave")
    assert "You leave when this hand ends" in answer
    assert "checks when it can and folds to any bet" in answer
    await club.play_hand(aggressive)  # the others bet: he must fold when it is his turn
    await club.settle()
    mine = [e for e in club.recorder.of(ev.ActionTaken) if e.user_id == leaver.id]
    after = [e for e in mine if e.auto is AutoReason.LEAVING]
    assert after and all(e.kind in (ActionKind.CHECK, ActionKind.FOLD) for e in after)
    assert all(e.auto is AutoReason.LEAVING for e in mine[mine.index(after[0]) :])
    result = message_text(_result(club))
    assert f"{leaver.name} folds (left)" in result or f"{leaver.name} checks (left)" in result
    [left] = [e for e in club.recorder.of(ev.PlayerLeft) if e.user_id == leaver.id]
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)
    assert view.seat_of(leaver.id) is None  # he is gone after the hand, as he was told
    wallet = await service.balance(club.guild.id, leaver.id)
    assert wallet.table_chips == 0 and left.cashed_out >= 0


def _result(club: Club) -> JSON:
    from .driver import is_result

    [result] = [m for m in club.public_messages() if is_result(m)]
    return result


async def test_a_table_change_is_announced_from_the_next_hand(club: Club) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()
    answer = await club.command(club.admin, "config", group="stud-admin", game="stud8")
    footer = answer["embeds"][0]["footer"]["text"]
    assert "from the next hand" in footer and "Stakes" not in footer
    await club.settle()
    notices = [m["content"] for m in club.public_messages() if m.get("content")]
    assert (
        f"From the next hand: Seven Card Stud Hi/Lo eight-or-better, changed by {club.admin.name}."
        in notices
    ) or any(n.startswith("From the next hand: Seven Card Stud Hi/Lo") for n in notices)
    message, _ = await club.wait_turn()
    assert message["embeds"][0]["title"].startswith("Stud · ")  # this hand keeps its game
    await club.play_hand(passive)
    await club.settle()
    await club.start_hand()
    message, _ = await club.wait_turn()
    assert message["embeds"][0]["title"].startswith("Stud Hi/Lo · ")


async def test_a_busted_player_is_shown_busted_and_rebuys_with_a_click(club: Club) -> None:
    players = club.players[:2]
    await club.seat(players)
    service = club.bot.service
    assert service is not None
    for _ in range(20):
        view = await service.table_view(club.guild.id, club.channel.id)
        if any(seat.stack == 0 for seat in view.seats):
            break
        await club.start_hand()
        await club.play_hand(aggressive)
        await club.settle()
    view = await service.table_view(club.guild.id, club.channel.id)
    [broke] = [s for s in view.seats if s.stack == 0]
    await club.text(club.players[0], "table")
    await club.settle()
    table = table_message(club)
    text = message_text(table)
    assert f"**{broke.name}** · 0 · *busted*" in text and "(1 ready, 2 needed)" in text
    rebuy = seat_id(table, "rebuy")
    other = next(p for p in players if p.id != broke.user_id)
    refused = await club.click(table, rebuy, other)
    assert refused.ephemeral and "Rebuy is for a busted player" in refused.content
    outsider = await club.click(table, rebuy, club.players[5])
    assert outsider.ephemeral and "not seated" in outsider.content
    done = await club.click(table, rebuy, club.member(broke.user_id))
    assert done.ephemeral and "Added 100 chips" in done.content
    view = await service.table_view(club.guild.id, club.channel.id)
    assert view.seat_of(broke.user_id).stack == 100  # type: ignore[union-attr]
    club.emu.assert_nothing_refused()


async def test_the_seat_buttons_and_the_buy_in_modal(club: Club) -> None:
    alice, bob, carol, dave = club.players[:4]
    await club.seat([alice])
    await club.settle()
    table = table_message(club)
    answer = await club.join_by_button(table, bob)
    assert answer.ephemeral and "You sit down with 100 chips" in answer.content
    shown = await club.emu.click(table["id"], seat_id(table, "buyin"), carol)
    assert (await shown.response()).type == 9  # the modal
    submitted = await club.emu.submit_modal(shown, {"amount": "250"})
    assert "You sit down with 250 chips" in (await submitted.response()).content
    for bad, why in (("5", "100 to 1000"), ("lots", "whole number")):
        shown = await club.emu.click(table["id"], seat_id(table, "buyin"), dave)
        assert (await shown.response()).type == 9
        refused = await (await club.emu.submit_modal(shown, {"amount": bad})).response()
        assert refused.ephemeral and why in refused.content
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)
    assert [s.stack for s in view.seats] == [100, 100, 250] and view.seat_of(dave.id) is None
    stranger = await club.click(table, seat_id(table, "away"), dave)
    assert "not seated" in stranger.content and "Join…" in stranger.content
    away = await club.click(table, seat_id(table, "away"), bob)
    assert "You sit out from the next hand" in away.content
    back = await club.click(table, seat_id(table, "away"), bob)
    assert "dealt in again" in back.content
    leave = await club.click(table, seat_id(table, "leave"), carol)
    assert "You left the table; 250 chips went to your wallet." in leave.content
    again = await club.join_by_button(table, alice)
    assert again.ephemeral and "already" in again.content.lower()
    club.emu.assert_nothing_refused()


async def test_a_reposted_table_leaves_a_one_line_pointer(club: Club) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()
    old, _ = await club.wait_turn()
    assert "The table is posted below" in await club.text(club.players[0], "table")
    await club.settle()
    new, _ = await club.wait_turn()
    assert new["id"] != old["id"]
    moved = club.emu.message(old["id"])
    link = f"https://discord.com/channels/{club.guild.id}/{club.channel.id}/{new['id']}"
    assert moved["content"] == f"The table moved further down: {link}"
    assert moved["embeds"] == [] and moved["components"] == []


async def test_deal_dms_link_to_the_table_and_the_last_one_names_the_hand(club: Club) -> None:
    await club.command(club.admin, "config", group="stud-admin", game="stud8")
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    table, _ = await club.wait_turn()
    await club.play_hand(passive)
    await club.settle()
    link = f"https://discord.com/channels/{club.guild.id}/{club.channel.id}/{table['id']}"
    for player in players:
        [dm] = [m for m in club.emu.dm_messages(player) if m not in alerts(club, player)]
        text = message_text(dm)  # one DM a hand: the deal DM, edited at 7th street
        assert "Your seven cards" in text and "You have: **" in text and "low: **" in text
        assert link in text
    club.emu.assert_nothing_refused()


async def test_addchips_during_a_hand_is_queued_for_the_next_deal(club: Club) -> None:
    alice, bob = club.players[:2]
    await club.seat([alice, bob])
    await club.start_hand()
    answer = await club.text(alice, "addchips", amount=50)
    assert answer.startswith("Queued: 50 chips join your stack before the next deal")
    too_much = await club.text(alice, "addchips", amount=5000)
    assert "at most 1,000" in too_much
    service = club.bot.service
    assert service is not None
    wallet = (await service.balance(club.guild.id, alice.id)).chips
    await club.play_hand(passive)
    await club.settle()
    [ended] = club.recorder.of(ev.HandEnded)
    view = await service.table_view(club.guild.id, club.channel.id)
    seat = view.seat_of(alice.id)
    assert seat is not None and seat.stack == dict(ended.final_stacks)[seat.seat] + 50
    assert (await service.balance(club.guild.id, alice.id)).chips == wallet - 50
    club.emu.assert_nothing_refused()

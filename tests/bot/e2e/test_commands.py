"""Slow work is deferred within Discord's 3 seconds; /stud rules, sitout, sitin, leave."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from dealerbot.bot import errors as bot_errors
from dealerbot.bot import table_messages
from dealerbot.tables import events as ev

from .driver import Club, action_buttons, message_text, passive

DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 5, 6, 7


async def test_a_slow_command_is_deferred_then_answered(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot_errors, "DEFER_AFTER", 0.05)
    service = club.bot.service
    assert service is not None
    real_join = service.join

    async def slow_join(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)  # a database under load
        return await real_join(*args, **kwargs)

    monkeypatch.setattr(service, "join", slow_join)
    rec = await club.emu.slash_command(
        club.guild, club.channel, club.players[0], "stud", subcommand="join"
    )
    first = await rec.response(timeout=10)
    assert first.type == DEFERRED_MESSAGE and first.ephemeral
    [answer] = await rec.wait_followups(1, timeout=10)
    assert "You sit in seat 1" in answer["content"]
    assert answer["flags"] & 64


async def test_a_slow_click_is_deferred_then_the_table_is_updated(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()
    message, user = await club.wait_turn()
    monkeypatch.setattr(table_messages, "ACT_WAIT", 0.05)
    service = club.bot.service
    assert service is not None
    real_act = service.act

    async def slow_act(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real_act(*args, **kwargs)

    monkeypatch.setattr(service, "act", slow_act)
    before = len(club.recorder.of(ev.ActionTaken))
    answer = await club.click(message, passive(action_buttons(message)), club.member(user))
    assert answer.type == DEFERRED_UPDATE
    await club.emu.wait_for(lambda: len(club.recorder.of(ev.ActionTaken)) == before + 1, 5)
    await club.settle()
    fresh, next_user = await club.wait_turn()
    assert fresh["id"] == message["id"] and next_user != user
    assert club.emu.requests("PATCH", "/messages/@original")  # through the interaction token


async def test_rules_sitout_sitin_and_leaving_mid_hand(club: Club) -> None:
    a, b, c = club.players[:3]
    rules = await club.text(a, "rules")
    assert "Seven Card Stud" in rules and "5/10 fixed limit" in rules
    assert "/stud join opens one" in rules
    await club.seat([a, b, c])
    assert "Seven Card Stud" in await club.text(a, "rules")
    assert "sit out" in await club.text(c, "sitout")
    await club.start_hand()
    message, _ = await club.wait_turn()
    text = message_text(message)
    assert "sitting out" in text and text.count("🂠 🂠") == 2  # c is not dealt in
    assert "when this hand ends" in await club.text(b, "leave")
    await club.play_hand(passive)
    await club.settle()
    [left] = club.recorder.of(ev.PlayerLeft)
    assert left.user_id == b.id
    assert "dealt in" in await club.text(c, "sitin")
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)
    assert sorted(s.user_id for s in view.seats) == sorted([a.id, c.id])
    assert not any(s.sitting_out for s in view.seats)

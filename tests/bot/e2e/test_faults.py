"""Discord trouble never stops a hand: blocked DMs, 429s, deleted or old table messages,
and a channel where the bot may not post."""

from __future__ import annotations

import re

from dealerbot.tables import events as ev

from .driver import Club, action_buttons, age_tokens, buttons, is_result, message_text, passive

PRETTY_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


async def time_passes(club: Club, seconds: float) -> None:
    """Let the table's timers fire (the turn clock, the time bank)."""
    service = club.bot.service
    assert service is not None
    await club.clock.advance(seconds)
    await service.wait_idle()
    await club.settle()


async def test_dm_blocked_player_is_pointed_at_my_cards_and_the_hand_goes_on(club: Club) -> None:
    """One refused DM in the whole session (each refusal counts towards Discord's IP ban),
    his seat marked, nobody pinged while he clicks (he is told privately)."""
    shy = club.players[1]
    club.emu.set_dm_blocked(shy)
    seated = club.players[:3]
    await club.seat(seated)
    dm_path = f"/channels/{club.emu.dm_channel(shy).id}/messages"
    for _ in (1, 2):
        await club.start_hand()
        message, _ = await club.wait_turn()
        cards_id = next(b["custom_id"] for b in buttons(message) if "cards" in b["custom_id"])
        answer = await club.click(message, cards_id, shy)
        assert answer.ephemeral and "down: " in answer.content
        await club.settle()
        table = message_text(club.action_message() or {})
        assert re.search(rf"\*\*{shy.name}\*\* · \d+ · cards: My cards", table), table
        await club.play_hand(passive)
        await club.settle()
        refused = club.emu.requests("POST", dm_path, status=403)
        assert len(refused) == 1  # one try in the session, none at 7th street nor next hand
        assert all(r.error_code == 50007 for r in refused)
    notices = [m for m in club.public_messages() if f"<@{shy.id}>" in (m.get("content") or "")]
    assert notices == []  # he clicked: told privately, nobody pinged in the channel
    assert len(club.recorder.of(ev.HandEnded)) == 2
    for player in (club.players[0], club.players[2]):
        assert len(club.emu.dm_messages(player)) == 2  # one per hand (7th street: an edit)


async def test_a_429_on_the_table_edit_is_retried(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, user = await club.wait_turn()
    before = message_text(message)
    age_tokens(club)  # no token is fresh: the edit goes by REST
    club.emu.fail_next("PATCH", f"/channels/{club.channel.id}/messages/*", 429, retry_after=0.05)
    await time_passes(club, 46)  # the turn time runs out: the time bank starts
    [limited] = club.emu.requests("PATCH", f"/messages/{message['id']}", status=429)
    done = club.emu.requests("PATCH", f"/messages/{message['id']}", status=200)
    assert len([r for r in done if r.time > limited.time]) == 1  # retried once, then done
    after = message_text(club.emu.message(message["id"]))
    assert after != before and "time runs out" in after
    assert (
        await club.click(
            club.emu.message(message["id"]), passive(action_buttons(message)), club.member(user)
        )
    ).type == 7


async def test_a_deleted_table_message_is_posted_again(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, user = await club.wait_turn()
    club.emu.delete_message(message["id"])
    await time_passes(club, 46)
    gone = club.emu.requests("PATCH", f"/messages/{message['id']}", status=404)
    assert gone and gone[0].error_code == 10008
    fresh, still = await club.wait_turn()
    assert fresh["id"] != message["id"] and still == user
    assert "hand #1" in message_text(fresh)
    await club.play_hand(passive)
    await club.settle()
    assert len(club.recorder.of(ev.HandEnded)) == 1
    results = [m for m in club.public_messages() if is_result(m)]
    assert [m["id"] for m in results] == [fresh["id"]]


async def test_an_old_table_message_is_posted_again_rather_than_edited(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, _ = await club.wait_turn()
    relay = club.bot.relay
    assert relay is not None
    slot = relay.messenger(club.guild.id, club.channel.id).slot
    assert slot is not None and slot.message_id == int(message["id"])
    slot.posted_at -= 51 * 60  # as if the hand had been running for 51 minutes
    await time_passes(club, 46)
    fresh, _ = await club.wait_turn()
    assert fresh["id"] != message["id"]
    old = club.emu.message(message["id"])
    assert old["components"] == [] and "moved further down" in old["content"]
    await club.play_hand(passive)
    await club.settle()
    assert len(club.recorder.of(ev.HandEnded)) == 1


async def test_a_channel_where_the_bot_cannot_post_gets_a_clear_answer(club: Club) -> None:
    closed = club.emu.add_text_channel(club.guild, "no-bots", bot_can_send=False)
    answer = await club.text(club.players[0], "join", channel=closed)
    assert "Send Messages" in answer
    service = club.bot.service
    assert service is not None
    assert (await service.balance(club.guild.id, club.players[0].id)).table_chips == 0

    await club.seat(club.players[:2])
    await club.start_hand()
    message, _ = await club.wait_turn()
    age_tokens(club)  # by REST (an interaction token needs no channel permission)
    club.emu.set_bot_channel_access(club.channel, can_send=False, can_view=False)
    await time_passes(club, 46)  # an edit the bot may not make now
    assert club.emu.requests("PATCH", f"/messages/{message['id']}", status=403)
    await club.play_hand(passive)  # clicks are answered through the interaction anyway
    assert len(club.recorder.of(ev.HandEnded)) == 1
    refused = await club.text(club.players[0], "table")
    assert "Send Messages" in refused
    club.emu.set_bot_channel_access(club.channel, can_send=True, can_view=True)
    posted = await club.text(club.players[0], "table")
    assert "posted below" in posted

"""A table's channel deleted, or the bot removed from its server: no chip is stranded.

The hand in play is called off and refunded, every seat is cashed out to its wallet,
the table's worker stops, and each player learns privately where the chips went.
"""

from __future__ import annotations

from dealerbot.store.audit import audit
from dealerbot.tables import events as ev
from tests.bot.emulator import Member

from .driver import Club, action_buttons, age_tokens, passive


async def audit_ok(club: Club) -> None:
    service = club.bot.service
    assert service is not None
    report = await audit(service.db)
    assert report.ok, report.render()


async def table_chips(club: Club, member: Member) -> tuple[int, int]:
    service = club.bot.service
    assert service is not None
    wallet = await service.balance(club.guild.id, member.id)
    return wallet.chips, wallet.table_chips


def closing_dm(club: Club, member: Member) -> str | None:
    for message in club.emu.dm_messages(member):
        text = message.get("content") or ""
        if "was closed" in text:
            return text
    return None


async def test_a_deleted_channel_refunds_the_hand_and_cashes_everyone_out(club: Club) -> None:
    seated = club.players[:3]
    await club.seat(seated, buy_in=200)
    before = {p.id: sum(await table_chips(club, p)) for p in seated}
    await club.start_hand()
    message, user = await club.wait_turn()
    await club.click(message, passive(action_buttons(message)), club.member(user))
    await club.settle()

    club.emu.delete_channel(club.channel)
    texts = await club.emu.wait_for(
        lambda: (
            [closing_dm(club, p) for p in seated]
            if all(closing_dm(club, p) for p in seated)
            else None
        ),
        10,
    )
    await club.settle()

    for player, text in zip(seated, texts, strict=True):
        assert text is not None and "deleted" in text and "200 chips" in text, text
        assert "called off" in text
        chips, on_table = await table_chips(club, player)
        assert on_table == 0 and chips == before[player.id]
    assert len(club.recorder.of(ev.TableClosed)) == 1
    await audit_ok(club)
    # the worker is gone: time passing sends nothing more to the dead channel
    sent = len(club.emu.requests(None, f"/channels/{club.channel.id}/"))
    await club.clock.advance(120)
    await club.bot.service.wait_idle()  # type: ignore[union-attr]
    await club.settle()
    assert len(club.emu.requests(None, f"/channels/{club.channel.id}/")) == sent
    relay = club.bot.relay
    assert relay is not None and (club.guild.id, club.channel.id) not in relay.messengers
    club.emu.assert_nothing_refused()


async def test_unknown_channel_on_a_table_request_closes_the_table(club: Club) -> None:
    seated = club.players[:2]
    await club.seat(seated)
    await club.start_hand()
    await club.wait_turn()
    age_tokens(club)  # the edit goes by REST, where the unknown channel is met
    club.emu.fail_next(
        "PATCH",
        f"/channels/{club.channel.id}/messages/*",
        404,
        code=10003,
        message="Unknown Channel",
    )
    await club.clock.advance(46)  # the turn clock runs out: the table message is edited
    await club.emu.wait_for(lambda: all(closing_dm(club, p) for p in seated), 10)
    await club.settle()
    for player in seated:
        assert (await table_chips(club, player))[1] == 0
    await audit_ok(club)


async def test_the_bot_removed_from_the_server_closes_its_tables_and_keeps_wallets(
    club: Club,
) -> None:
    other = club.emu.add_text_channel(club.guild, "second-table")
    await club.seat(club.players[:2], buy_in=150)
    for player in club.players[2:4]:
        text = await club.text(player, "join", channel=other, buy_in=120)
        assert "You sit in seat" in text, text
    await club.start_hand()
    before = {p.id: sum(await table_chips(club, p)) for p in club.players[:4]}

    club.emu.remove_bot(club.guild)
    await club.emu.wait_for(lambda: all(closing_dm(club, p) for p in club.players[:4]), 10)
    await club.settle()

    for player in club.players[:4]:
        text = closing_dm(club, player)
        assert text is not None and "removed" in text and "comes back" in text, text
        chips, on_table = await table_chips(club, player)
        assert on_table == 0 and chips == before[player.id]  # the wallet stays
    assert len(club.recorder.of(ev.TableClosed)) == 2
    await audit_ok(club)


async def test_an_admin_closes_a_table_from_another_channel(club: Club) -> None:
    lobby = club.emu.add_text_channel(club.guild, "lobby")
    await club.seat(club.players[:2])
    rec = await club.emu.slash_command(
        club.guild,
        lobby,
        club.admin,
        "stud-admin",
        subcommand="close",
        options={"channel": club.channel},
    )
    answer = await rec.response(timeout=10)
    assert "closed" in answer.content, answer.content
    for player in club.players[:2]:
        assert (await table_chips(club, player))[1] == 0
    await audit_ok(club)


async def test_removed_while_the_bot_was_down_closes_at_the_first_request(club: Club) -> None:
    seated = club.players[:2]
    await club.seat(seated)
    await club.start_hand()
    await club.wait_turn()
    await club.stop_bot()
    club.emu.remove_bot(club.guild)  # nobody is connected to hear the GUILD_DELETE
    await club.start_bot()  # the server is not in READY: its channel is unknown (403 50001)
    await club.emu.wait_for(lambda: all(closing_dm(club, p) for p in seated), 10)
    await club.settle()
    for player in seated:
        text = closing_dm(club, player)
        assert text is not None and "no longer exists" in text, text
        assert (await table_chips(club, player))[1] == 0
    await audit_ok(club)

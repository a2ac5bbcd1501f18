"""Hard edges at the table (issue 23): two Buy in… forms open at once, Rebuy pressed
twice, buttons the bot no longer knows, a forged huge buy-in, a top-up queued by a
player who then leaves, and a display name with markup in ``/stud stats``."""

from __future__ import annotations

import contextlib
import logging

import pytest

from dealerbot.tables import events as ev
from tests.bot.emulator import CallbackRecord

from .driver import Club, aggressive, buttons, message_text, passive
from .test_table_talk import seat_id, table_message

MODAL = 9
STRAY = "This button belongs to an old table message"


async def stacks(club: Club) -> dict[int, int]:
    service = club.bot.service
    assert service is not None
    view = await service.table_view(club.guild.id, club.channel.id)
    return {seat.user_id: seat.stack for seat in view.seats}


@pytest.mark.parametrize("first", [0, 1])
async def test_two_buy_in_forms_open_at_once_are_both_answered(club: Club, first: int) -> None:
    alice, bob, carol = club.players[:3]
    await club.seat([alice])
    await club.settle()
    table = table_message(club)
    forms = []
    for player in (bob, carol):  # both open the form before either submits it
        shown = await club.emu.click(table["id"], seat_id(table, "buyin"), player)
        assert (await shown.response()).type == MODAL
        forms.append(shown)
    amounts = ("250", "300")
    answers: dict[int, CallbackRecord | None] = {}
    for i in (first, 1 - first):
        submitted = await club.emu.submit_modal(forms[i], {"amount": amounts[i]})
        with contextlib.suppress(TimeoutError):
            answers[i] = await submitted.response(timeout=5)
        answers.setdefault(i, None)
    assert await stacks(club) == {alice.id: 100, bob.id: 250, carol.id: 300}
    for i, amount in enumerate(amounts):
        answer = answers[i]
        assert answer is not None, f"form {i} was never answered"
        assert answer.ephemeral and f"You sit down with {amount} chips" in (answer.content or "")
    ids = {form.callback.data["custom_id"] for form in forms if form.callback is not None}
    assert len(ids) == 2 and all(len(i) <= 100 for i in ids)  # one id per open form
    await club.settle()
    club.emu.assert_nothing_refused()


async def test_a_forged_or_old_form_seats_nobody_and_is_answered(club: Club) -> None:
    """A submission whose id names another player, or a form this bot does not make."""
    alice, bob = club.players[:2]
    await club.seat([alice])
    await club.settle()
    table = table_message(club)
    table_id = seat_id(table, "buyin").rsplit(":", 1)[1]
    for forged, words in (
        (f"stud:buyin-form:{table_id}:{alice.id}", "another player's"),
        (f"stud:buyin-form:{table_id}", "old table message"),  # the id before issue 23
        ("stud:other-form:1", "old table message"),
    ):
        shown = await club.emu.click(table["id"], seat_id(table, "buyin"), bob)
        assert (await shown.response()).type == MODAL
        assert shown.callback is not None
        assert shown.callback.data["custom_id"] == f"stud:buyin-form:{table_id}:{bob.id}"
        shown.callback.data["custom_id"] = forged
        answer = await (await club.emu.submit_modal(shown, {"amount": "200"})).response()
        assert answer.ephemeral and words in (answer.content or ""), (forged, answer.content)
    assert bob.id not in await stacks(club)
    await club.settle()
    club.emu.assert_nothing_refused()


async def test_a_form_opened_before_a_restart_still_seats_the_player(club: Club) -> None:
    alice, bob = club.players[:2]
    await club.seat([alice])
    await club.settle()
    table = table_message(club)
    shown = await club.emu.click(table["id"], seat_id(table, "buyin"), bob)
    assert (await shown.response()).type == MODAL
    await club.stop_bot()
    await club.start_bot()
    await club.settle()
    submitted = await club.emu.submit_modal(shown, {"amount": "400"})
    answer = await submitted.response(timeout=10)
    assert answer.ephemeral and "You sit down with 400 chips" in answer.content
    assert (await stacks(club))[bob.id] == 400
    await club.settle()
    club.emu.assert_nothing_refused()


FORGED = [
    "stud:zzz:1",
    "stud:act:notanumber",
    "stud:sit:notanumber",
    "stud:cards:1:2",
    "stud:1:2:3:FOLD",
    "stud:board:1:sideways",
    "stud:game:1:NOT-A-GAME!",
    "stud:lb:chips:year:1:1:next",
    "stud:",
    "something-else",
    "x" * 100,
]


async def test_a_button_the_bot_no_longer_knows_is_answered_privately(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    await club.seat(club.players[:2])
    await club.settle()
    table = table_message(club)
    before = await stacks(club)
    with caplog.at_level(logging.INFO):
        for custom_id in [*FORGED, f"stud:sit:{table['id']}"]:  # the last: not on the message
            rec = await club.emu.forge_click(table["id"], custom_id, club.players[2])
            answer = await rec.response(timeout=10)
            assert answer.type == 4 and answer.ephemeral, custom_id
            assert STRAY in (answer.content or ""), (custom_id, answer.content)
    assert await stacks(club) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    known = await club.join_by_button(table, club.players[2])  # still answers
    assert "You sit down" in known.content and STRAY not in known.content
    await club.settle()
    club.emu.assert_nothing_refused()


async def test_a_forged_huge_buy_in_is_refused_in_words(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob = club.players[:2]
    await club.seat([alice])
    await club.settle()
    table = table_message(club)
    with caplog.at_level(logging.INFO):
        for typed in ("9" * 5000, "1" + "0" * 4299, "9" * 1990, "9" * 40):
            shown = await club.emu.click(table["id"], seat_id(table, "buyin"), bob)
            assert (await shown.response()).type == MODAL
            assert shown.callback is not None
            shown.callback.data["components"][0]["components"][0]["max_length"] = 10_000
            refused = await (await club.emu.submit_modal(shown, {"amount": typed})).response()
            text = refused.content or ""
            assert refused.ephemeral and "The buy-in at this table is 100 to 1000 chips" in text
            assert len(text) < 200  # the number typed is not repeated back
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert bob.id not in await stacks(club)
    await club.settle()
    club.emu.assert_nothing_refused()


async def bust_one(club: Club) -> int:
    """Play two players until one has no chips left; his user id."""
    service = club.bot.service
    assert service is not None
    for _ in range(20):
        view = await service.table_view(club.guild.id, club.channel.id)
        broke = [seat.user_id for seat in view.seats if seat.stack == 0]
        if broke:
            return broke[0]
        await club.start_hand()
        await club.play_hand(aggressive)
        await club.settle()
    raise AssertionError("nobody busted")


async def test_rebuy_pressed_twice_during_a_hand_queues_one_buy_in(club: Club) -> None:
    await club.seat(club.players[:2])
    broke = await bust_one(club)
    await club.seat([club.players[2]])  # a hand can go on without him
    await club.start_hand()
    await club.text(club.players[0], "table")
    await club.settle()
    table = table_message(club)
    rebuy = seat_id(table, "rebuy")
    button = next(b for b in buttons(table) if b["custom_id"] == rebuy)
    assert button["label"] == "Rebuy"
    service = club.bot.service
    assert service is not None
    wallet = (await service.balance(club.guild.id, broke)).chips
    first = await club.click(table, rebuy, broke)
    assert first.ephemeral and first.content.startswith("Queued: 100 chips")
    second = await club.click(table, rebuy, broke)
    assert second.ephemeral and "Already queued: 100" in second.content
    await club.settle()
    table = table_message(club)
    button = next(b for b in buttons(table) if b["custom_id"] == rebuy)
    assert button["label"] == "Rebuy queued"  # the table says so
    await club.play_hand(passive)
    await club.settle()
    assert (await stacks(club))[broke] == 100  # one buy-in, not two
    assert (await service.balance(club.guild.id, broke)).chips == wallet - 100
    club.emu.assert_nothing_refused()


async def test_leaving_drops_a_queued_top_up_and_says_so(club: Club) -> None:
    alice, bob, carol = club.players[:3]
    await club.seat([alice, bob])
    await club.start_hand()
    await club.seat([carol])  # seated during the hand: not dealt in
    queued = await club.text(carol, "addchips", amount=50)
    assert queued.startswith("Queued: 50 chips")
    left = await club.text(carol, "leave")
    assert "100 chips went to your wallet" in left
    assert "queued 50 chips" in left and "stay in your wallet" in left
    await club.seat([carol])  # back at once, in the same hand
    await club.play_hand(passive)
    await club.settle()
    assert (await stacks(club))[carol.id] == 100  # the old top-up did not follow him
    service = club.bot.service
    assert service is not None
    assert (await service.balance(club.guild.id, carol.id)).chips == 900
    club.emu.assert_nothing_refused()


async def test_stats_titles_a_hostile_name_as_seated_names_are_shown(club: Club) -> None:
    hostile = club.emu.add_member(club.guild, "**big**\u202eevil_\n@everyone")
    answer = await club.command(hostile, "stats")
    title = answer["embeds"][0]["title"]
    assert "\u202e" not in title and "\n" not in title
    assert "\\*\\*big\\*\\*" in title and "evil\\_" in title
    assert message_text(answer)


async def test_a_top_up_dropped_by_a_closing_table_is_told_by_dm(club: Club) -> None:
    alice, bob = club.players[:2]
    await club.seat([alice, bob])
    await club.start_hand()
    assert (await club.text(alice, "addchips", amount=50)).startswith("Queued: 50 chips")
    closing = await club.text(club.admin, "close", group="stud-admin")
    assert "after" in closing.lower() or "clos" in closing.lower()
    await club.play_hand(passive)
    await club.settle()
    told = [m["content"] for m in club.emu.dm_messages(alice) if "queued" in m.get("content", "")]
    assert len(told) == 1 and "Your queued 50 chips were not added" in told[0]
    assert "Nothing left your wallet" in told[0] and f"<#{club.channel.id}>" in told[0]
    assert not [m for m in club.emu.dm_messages(bob) if "queued" in m.get("content", "")]
    service = club.bot.service
    assert service is not None
    [ended] = club.recorder.of(ev.HandEnded)
    net = dict(ended.results)[alice.id]
    wallet = await service.balance(club.guild.id, alice.id)
    assert (wallet.chips, wallet.table_chips) == (1000 + net, 0)  # the 50 never moved
    club.emu.assert_nothing_refused()

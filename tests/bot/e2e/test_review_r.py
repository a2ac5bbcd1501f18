"""Review R (hostile review of phase 2) through the emulator: bad input in the Sit down
modal gets a clear private answer, changes nothing, and logs no error."""

from __future__ import annotations

import logging

import pytest

from dealerbot.bot.errors import APOLOGY

from .driver import Club
from .test_table_talk import seat_id, table_message


async def test_the_buy_in_modal_answers_every_bad_amount_in_words(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    alice, bob, carol = club.players[:3]
    await club.seat([alice, bob])
    await club.settle()
    table = table_message(club)
    service = club.bot.service
    assert service is not None
    before = await service.table_view(club.guild.id, club.channel.id)
    wallet = await service.balance(club.guild.id, carol.id)
    # Each fits the form's max_length (the largest buy-in with commas, "1,000"), which a
    # Discord client enforces before it submits; "99999" is the longest over the range.
    bad = ("²", "٣٠٠x", "-150", "1e3", "150.5", "99999", "5", " ", "0")
    with caplog.at_level(logging.WARNING):
        for text in bad:
            shown = await club.emu.click(table["id"], seat_id(table, "buyin"), carol)
            assert (await shown.response()).type == 9  # the modal
            answer = await (await club.emu.submit_modal(shown, {"amount": text})).response()
            assert answer.ephemeral, text
            assert APOLOGY not in answer.content, f"{text!r}: {answer.content}"
            assert "100" in answer.content and "1000" in answer.content, answer.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    after = await service.table_view(club.guild.id, club.channel.id)
    assert after.seats == before.seats
    assert await service.balance(club.guild.id, carol.id) == wallet
    club.emu.assert_nothing_refused()

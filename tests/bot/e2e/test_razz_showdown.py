"""A razz showdown read as players read it (issue 8, follow-up P7b): the result shows the
five cards of each player's ace-to-five low first, with the low's name, then the two that
do not play (issue 16), and the 7th-street DM names the player's low, as stud and stud
hi/lo name theirs."""

from __future__ import annotations

from dealerbot.engine import best_razz
from dealerbot.engine.cards import Card, Rank, format_cards
from dealerbot.tables import events as ev

from .driver import Club, is_result, message_text, passive


def low_rank(card: Card) -> int:
    return 1 if card.rank is Rank.ACE else int(card.rank)


async def test_a_razz_showdown_shows_the_five_of_each_low_and_the_dm_names_it(club: Club) -> None:
    answer = await club.text(club.admin, "config", group="stud-admin", game="razz")
    assert "Settings changed" in answer
    players = club.players[:3]
    await club.seat(players)
    await club.start_hand()
    message, _ = await club.wait_turn()
    assert message["embeds"][0]["title"] == "Razz · 5/10 · hand #1"
    await club.play_hand(passive)
    await club.settle()
    [result] = [message_text(m) for m in club.public_messages() if is_result(m)]
    [showdown] = club.recorder.of(ev.Showdown)
    assert len(showdown.shown) == 3 and showdown.community is None
    for hand in showdown.shown:
        low = best_razz(hand.cards)
        five = hand.high_cards
        assert len(five) == 5 and set(five) <= set(hand.cards)
        # The five are the low's ranks, high to low as the name writes them ("7-5-4-2-A").
        assert tuple(low_rank(card) for card in five) == low.ranks
        assert hand.high == str(low) and hand.low_cards == ()
        line = f"**{hand.name}** `{format_cards(five)}` {low.text} ({low.name})"
        assert line in result, result
        [line_of_hand] = [text for text in result.splitlines() if f"**{hand.name}** `" in text]
        # Then the two that do not play, in the order dealt (issue 16: all seven are shown).
        idle = format_cards(tuple(card for card in hand.cards if card not in five))
        assert line_of_hand.endswith(f" · not playing `{idle}`"), line_of_hand
        dms = club.emu.dm_messages(club.member(hand.user_id))
        assert f"You have: **{low.text} ({low.name})**" in message_text(dms[-1])
        assert "low: **" not in message_text(dms[-1])  # razz has no second (Hi/Lo) low
    club.emu.assert_nothing_refused()

"""The result shows every card of a shown hand (issue 16): the five that play (and the low's
five in stud/8; in razz the five of the ace-to-five low), then the cards that play in
neither, after the words "not playing", each group in its own code span (suits inside a
code span stay text, never emoji, on a phone)."""

from __future__ import annotations

import re

import discord

from dealerbot.bot.table_embeds import result_embed, shown_line
from dealerbot.tables import Card, Variant
from dealerbot.tables import events as ev

from .table_values import CHANNEL, GUILD

PLAYERS = (ev.SeatedPlayer(0, 100, "alice", 200), ev.SeatedPlayer(1, 101, "bob", 200))
NAMES = ((0, "alice"), (1, "bob"))


def own(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(part) for part in text.split())


def pretty(text: str) -> str:
    return " ".join(card.pretty for card in own(text))


def result_text(shown: tuple[ev.ShownHand, ...], variant: Variant) -> str:
    pots = (ev.PotWon(0, 60, (0,), (), ((0, 60),)),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, NAMES)
    ended = ev.HandEnded(
        GUILD,
        CHANNEL,
        hand_id=7,
        number=5,
        results=((100, 30), (101, -30)),
        final_stacks=((0, 230), (1, 170)),
        cancelled=False,
        reason=None,
        commitment="cd" * 32,
        variant=variant,
        players=PLAYERS,
        showdown=showdown,
    )
    embed: discord.Embed = result_embed(ended)
    return embed.description or ""


ALL = " ".join(f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "cdhs")


def cards_of_span(span: str) -> list[Card]:
    """The cards a code span shows, read back from their pretty text."""
    by_pretty = {card.pretty: card for card in own(ALL)}
    return [by_pretty[part] for part in span.split()]


def spans(line: str) -> list[str]:
    """The code spans of a line, in order (what Discord shows in monospace, suits as text)."""
    return re.findall(r"`([^`]*)`", line)


def test_stud_shows_the_five_that_play_then_the_two_that_do_not() -> None:
    alice = ev.ShownHand(
        0,
        100,
        "alice",
        own("Ah Ad 7s 2d Kh Kc 9c"),
        "Two pair, aces and kings",
        None,
        own("Ah Ad Kh Kc 9c"),
        (),
        own("7s 2d"),
    )
    text = result_text((alice,), Variant.STUD)
    line = f"**alice** `{pretty('Ah Ad Kh Kc 9c')}` Two pair, aces and kings"
    assert f"{line} · not playing `{pretty('7s 2d')}`" in text.splitlines()
    assert spans(shown_line(alice, False)) == [pretty("Ah Ad Kh Kc 9c"), pretty("7s 2d")]


def test_razz_shows_the_five_of_the_low_then_the_two_that_do_not_play() -> None:
    low = "7-5-4-2-A (Seven low)"
    alice = ev.ShownHand(
        0,
        100,
        "alice",
        own("Ks 7h 5d 4c 2s Ah 9d"),
        low,
        None,
        own("7h 5d 4c 2s Ah"),
        (),
        own("Ks 9d"),
    )
    text = result_text((alice,), Variant.RAZZ)
    assert f"**alice** `{pretty('7h 5d 4c 2s Ah')}` {low} · not playing `{pretty('Ks 9d')}`" in (
        text.splitlines()
    )


def test_hi_lo_shows_the_high_five_the_low_five_then_the_cards_in_neither() -> None:
    wheel = "5d 4c 3h 2d As"
    bob = ev.ShownHand(
        1,
        101,
        "bob",
        own("As 2d Kc Ks 3h 4c 5d"),
        "Straight, five high",
        "5-4-3-2-A",
        own(wheel),
        own(wheel),
        own("Kc Ks"),
    )
    line = shown_line(bob, True)
    assert line == (
        f"**bob** `{pretty(wheel)}` Straight, five high · low `{pretty(wheel)}` 5-4-3-2-A"
        f" · not playing `{pretty('Kc Ks')}`"
    )
    assert line in result_text((bob,), Variant.STUD8).splitlines()


def test_hi_lo_when_every_card_plays_nothing_is_called_not_playing() -> None:
    alice = ev.ShownHand(
        0,
        100,
        "alice",
        own("Ah 2h 3h 7h 9h 4c 5d"),
        "Flush, ace high",
        "5-4-3-2-A",
        own("Ah 9h 7h 3h 2h"),
        own("5d 4c 3h 2h Ah"),
    )
    line = shown_line(alice, True)
    assert "not playing" not in line
    assert set(own("Ah 2h 3h 7h 9h 4c 5d")) == {
        card for span in spans(line) for card in cards_of_span(span)
    }


def test_hi_lo_with_no_low_shows_the_high_then_the_two_in_neither() -> None:
    alice = ev.ShownHand(
        0,
        100,
        "alice",
        own("Kh Kd Qc Qs 8h Jc 3d"),
        "Two pair, kings and queens",
        "no low",
        own("Kh Kd Qc Qs Jc"),
        (),
        own("8h 3d"),
    )
    assert shown_line(alice, True).endswith(f" · no low · not playing `{pretty('8h 3d')}`")

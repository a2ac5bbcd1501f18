"""The renderer: table, result, closing and private texts from service values; no Discord I/O.

Public renders must never show a down card; names are escaped; the result names the
pots' winners and the hands shown; private texts show the player's own cards.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest

from dealerbot.bot import render
from dealerbot.bot.hand_results import HandResults
from dealerbot.tables import (
    Card,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerView,
    Variant,
    Wallet,
)
from dealerbot.tables import events as ev

from .table_values import CHANNEL, GUILD, cards, playing, seat, turn, waiting


def own(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(part) for part in text.split())


def embed_text(embed: discord.Embed) -> str:
    data = embed.to_dict()
    parts = [data.get("title", ""), data.get("description", "")]
    parts += [f"{f['name']}: {f['value']}" for f in data.get("fields", [])]
    parts.append(data.get("footer", {}).get("text", ""))
    return "\n".join(parts)


# --- the table message ----------------------------------------------------------------


def test_a_hand_in_play_shows_up_cards_hidden_counts_pot_and_who_acts() -> None:
    view = playing(to_act=0)
    text = embed_text(render.table_embed(view, turn(view)))
    assert "hand #5" in text and "Pot: 12" in text and "3rd street" in text
    assert text.count(render.HIDDEN) == 4  # two down cards each, as hidden marks
    assert "K♥" in text and "2♣" in text
    assert "To act: <@100> · 2 to call · time runs out <t:2000000030:R>" in text
    assert "bob brings in 2" in text
    assert "ab" * 32 in text  # the deck commitment in the footer


def test_the_public_table_never_shows_a_down_card() -> None:
    view = playing()
    text = embed_text(render.table_embed(view, None))
    shown = {c.pretty for s in view.seats for c in s.cards if c is not None}
    every = {Card.parse(f"{rank}{suit}").pretty for rank in "23456789TJQKA" for suit in "cdhs"}
    assert {c for c in every if c in text} == shown


def test_folded_players_are_struck_through_and_flags_are_named() -> None:
    view = playing()
    folded = dataclasses.replace(view.seats[1], folded=True, in_hand=True)
    away = seat(2, "carol", sitting_out=True)
    view = dataclasses.replace(view, seats=(view.seats[0], folded, away))
    lines = render.table_embed(view, None).description.splitlines()  # type: ignore[union-attr]
    assert lines[1].startswith("~~") and "*folded*" in lines[1]
    assert "*sitting out*" in lines[2]


def test_names_cannot_format_or_mention() -> None:
    assert render.name_text("**@everyone**") == "\\*\\*@\u200beveryone\\*\\*"
    assert render.name_text("") == "?"
    assert len(render.name_text("x" * 200)) == 64


def test_a_waiting_table_says_what_it_needs() -> None:
    alone = render.table_embed(waiting(seat(0, "alice")), None)
    assert "Waiting for players (1 ready, 2 needed)" in embed_text(alone)
    ready = render.table_embed(waiting(seat(0, "alice"), seat(1, "bob")), None)
    assert "`/stud start` deals a hand" in embed_text(ready)
    empty = render.table_embed(waiting(), None)
    assert "No one is seated" in embed_text(empty)
    soon = waiting(seat(0, "a"), seat(1, "b"), next_hand_at=2_000_000_100.0)
    assert "Dealing <t:2000000100:R>" in embed_text(render.table_embed(soon, None))


# --- the result -------------------------------------------------------------------------


PLAYERS = (ev.SeatedPlayer(0, 100, "alice", 200), ev.SeatedPlayer(1, 101, "bob", 200))


def ended(showdown: ev.Showdown | None = None, **changes: Any) -> ev.HandEnded:
    """Hand #5 won by alice (+30) from bob (-30); ``changes`` replace fields."""
    base = ev.HandEnded(
        GUILD,
        CHANNEL,
        hand_id=7,
        number=5,
        results=((100, 30), (101, -30)),
        final_stacks=((0, 230), (1, 170)),
        cancelled=False,
        reason=None,
        commitment="cd" * 32,
        variant=Variant.STUD,
        players=PLAYERS,
        showdown=showdown,
        last_actions=("alice bets 10", "bob calls 10"),
    )
    return dataclasses.replace(base, **changes)


def test_a_showdown_result_names_hands_pots_and_chip_changes() -> None:
    shown = (
        ev.ShownHand(0, 100, "alice", own("Ah Ad Kc"), "A pair", None),
        ev.ShownHand(1, 101, "bob", own("2c 3d 9s"), "9 high", None),
    )
    pots = (ev.PotWon(0, 60, (0,), (), ((0, 60),)),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, ((0, "alice"), (1, "bob")))
    text = embed_text(render.result_embed(ended(showdown)))
    assert "Hand #5 — result" in text
    assert "**alice** `A♥ A♦ K♣` — A pair" in text and "low:" not in text
    assert "Main pot 60: **alice** 60" in text
    assert "alice +30, bob -30" in text
    assert "Last actions: alice bets 10\nbob calls 10" in text
    assert "cd" * 32 in text


def test_a_hi_lo_split_tags_the_high_and_the_low() -> None:
    pots = (ev.PotWon(0, 60, (0,), (1,), ((0, 30), (1, 30))),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, (), pots, None, ())
    text = embed_text(render.result_embed(ended(showdown, variant=Variant.STUD8)))
    assert "**alice** 30 (high), **bob** 30 (low)" in text
    assert "(uncontested)" in text  # no hand was shown
    plain = embed_text(render.result_embed(ended(showdown)))
    assert "(high)" not in plain  # Stud high only: no split tags


def test_a_hi_lo_hand_shows_each_low_or_its_absence() -> None:
    shown = (
        ev.ShownHand(0, 100, "alice", own("Ah 2d 3c"), "Ace high", "8-7-5-2-A"),
        ev.ShownHand(1, 101, "bob", own("Kh Kd 9s"), "Pair of kings", None),
    )
    pots = (ev.PotWon(0, 60, (1,), (), ((1, 60),)),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, ())
    text = embed_text(render.result_embed(ended(showdown, variant=Variant.STUD8)))
    assert "low: 8-7-5-2-A" in text and "low: no low" in text
    assert "Main pot 60: **bob** 60 (no qualifying low)" in text


def test_a_cancelled_hand_says_every_chip_went_back() -> None:
    event = ended(cancelled=True, reason="The dealer restarted", results=())
    text = embed_text(render.result_embed(event))
    assert "Hand #5 — cancelled" in text and "The dealer restarted" in text
    assert "went back" in text and "result" not in text


def test_results_of_a_channel_that_cannot_post_are_capped_oldest_dropped() -> None:
    hands = HandResults(max_pending=2)
    for hand_id in (1, 2, 3):
        hands.ended(ended(hand_id=hand_id))
    assert hands.finished == [2, 3]
    assert [hands.result(hand_id).hand_id for hand_id in hands.finished] == [2, 3]
    hands.forget(2)
    assert hands.finished == [3]
    with pytest.raises(KeyError):
        hands.result(1)


def test_deal_dms_name_the_hand_from_its_start_or_from_a_resumed_view() -> None:
    hands = HandResults()
    start = ev.HandStarted(GUILD, CHANNEL, 7, 5, "cd" * 32, 0, PLAYERS, Variant.STUD8)
    hands.started(start)
    assert hands.deal_labels(7, None) == (5, Variant.STUD8.title)
    resumed = playing(hand_id=9)  # started in the previous process
    assert hands.deal_labels(9, resumed) == (5, "Seven Card Stud")
    hands.ended(ended())
    assert hands.deal_labels(7, None) == (None, None)


def test_the_closing_notice_lists_chips_back() -> None:
    event = ev.TableClosed(GUILD, CHANNEL, ((100, 250),))
    text = embed_text(render.closed_embed(event, {100: "alice"}))
    assert "alice: 250 chips back to the wallet" in text


# --- private texts and wallets ------------------------------------------------------------


def test_the_deal_dm_shows_down_cards_and_the_door_card() -> None:
    event = ev.PrivateCards(GUILD, CHANNEL, 100, 7, 3, own("Ah Kd 7s"), (False, False, True))
    embed = render.private_cards_embed(event, number=5, where="#stud", variant_title="Stud")
    text = embed_text(embed)
    assert "Your cards — hand #5" in text and "Down: `A♥ K♦` · Door card: `7♠`" in text


def test_my_cards_answers_with_the_players_cards_and_options() -> None:
    view = playing()
    options = turn(view).options
    me = PlayerView(view, 100, 0, 200, own("Ah Kd Kh"), (False, False, True), options, 7, 3, 0.0)
    assert render.private_player_text(me) == "**Hand #5** — down: `A♥ K♦` · up: `K♥`"
    idle = dataclasses.replace(me, hand_id=None, cards=())
    assert "not in a hand" in render.private_player_text(idle)


def test_balance_and_leaderboard() -> None:
    wallet = Wallet(GUILD, 100, 500, 200, 700, None, 0.0)
    entry = LeaderboardEntry(1, 100, 500, 200, 700)
    assert render.balance_text(100, wallet, entry, True) == (
        "You have **500** chips in the wallet and **200** on tables (net worth 700). Rank #1."
    )
    page = LeaderboardPage(GUILD, 1, 1, 1, (entry,))
    text = embed_text(render.leaderboard_embed(page, 100, entry))
    assert "**#1** <@100> — 700 chips (200 on tables) ← you" in text
    assert "Page 1 of 1 · 1 players" in text


def test_hidden_cards_render_as_backs() -> None:
    assert render.cards_text(cards("?? Ah")) == f"{render.HIDDEN} A♥"

"""The renderer: table, result, closing and private texts from service values; no Discord I/O.

Public renders must never show a down card; names are escaped; the result names the
pots' winners and the hands shown; private texts show the player's own cards.
"""

from __future__ import annotations

import dataclasses

import discord

from dealerbot.bot import render
from dealerbot.bot.hand_stories import HandStories, HandStory
from dealerbot.tables import Card, LeaderboardEntry, LeaderboardPage, PlayerView, Wallet
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


def _started(variant: str = "stud") -> HandStories:
    stories = HandStories()
    players = (ev.SeatedPlayer(0, 100, "alice", 200), ev.SeatedPlayer(1, 101, "bob", 200))
    stories.started(ev.HandStarted(GUILD, CHANNEL, 7, 5, "cd" * 32, 0, players), variant)
    return stories


def _ended(stories: HandStories, **changes: object) -> HandStory:
    base = ev.HandEnded(GUILD, CHANNEL, 7, 5, ((100, 30), (101, -30)), ((0, 230),), False, None)
    stories.ended(dataclasses.replace(base, **changes))  # type: ignore[arg-type]
    story = stories.get(7)
    assert story is not None
    return story


def test_a_showdown_result_names_hands_pots_and_chip_changes() -> None:
    stories = _started()
    shown = (
        ev.ShownHand(0, 100, "alice", own("Ah Ad Kc"), "A pair", None),
        ev.ShownHand(1, 101, "bob", own("2c 3d 9s"), "9 high", None),
    )
    pots = (ev.PotWon(0, 60, (0,), (), ((0, 60),)),)
    stories.showdown(ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, ((0, "alice"), (1, "bob"))))
    text = embed_text(render.result_embed(_ended(stories)))
    assert "Hand #5 — result" in text
    assert "**alice** `A♥ A♦ K♣` — A pair" in text
    assert "Main pot 60: **alice** 60" in text
    assert "alice +30, bob -30" in text
    assert "cd" * 32 in text


def test_a_hi_lo_split_tags_the_high_and_the_low() -> None:
    stories = _started("stud8")
    pots = (ev.PotWon(0, 60, (0,), (1,), ((0, 30), (1, 30))),)
    stories.showdown(ev.Showdown(GUILD, CHANNEL, 7, (), pots, None, ()))
    text = embed_text(render.result_embed(_ended(stories)))
    assert "**alice** 30 (high), **bob** 30 (low)" in text
    assert "(uncontested)" in text  # no hand was shown


def test_a_cancelled_hand_says_every_chip_went_back() -> None:
    story = _ended(_started(), cancelled=True, reason="The dealer restarted", results=())
    text = embed_text(render.result_embed(story))
    assert "cancelled" in text and "The dealer restarted" in text and "went back" in text


def test_a_resumed_hand_gets_its_story_from_the_table_view() -> None:
    stories = HandStories()
    stories.seen(playing(hand_id=7))
    story = stories.get(7)
    assert story is not None and story.number == 5 and story.commitment == "ab" * 32
    assert story.name_of_seat(1) == "bob" and story.name_of_seat(6) == "seat 7"


def test_stories_of_a_channel_that_cannot_post_are_capped() -> None:
    stories = HandStories(max_pending=2)
    for hand_id in (1, 2, 3):
        base = ev.HandEnded(GUILD, CHANNEL, hand_id, hand_id, (), (), False, None)
        stories.ended(base)
    assert stories.finished == [2, 3] and stories.get(1) is None


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

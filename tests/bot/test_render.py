"""The renderer: table, result, closing and private texts from service values; no Discord I/O.

Public renders must never show a down card; names are escaped; the result names the
pots' winners and the hands shown; private texts show the player's own cards.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import discord
import pytest

from dealerbot.bot import answers, markup
from dealerbot.bot.hand_story import Act, HandStories
from dealerbot.bot.table_embeds import closed_embed, result_embed, table_embed
from dealerbot.tables import (
    ActionKind,
    AutoReason,
    Card,
    LeaderboardEntry,
    LeaderboardPage,
    PlayerView,
    Variant,
    Wallet,
)
from dealerbot.tables import events as ev

from .table_values import CHANNEL, GUILD, cards, playing, seat, turn, waiting


@pytest.fixture(autouse=True)
def plain_hints() -> None:
    """Command hints are plain until a bot learns the command ids (another test may have)."""
    markup.forget_command_ids()


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
    embed = table_embed(view, turn(view))
    text = embed_text(embed)
    assert embed.title == "Stud · 5/10 · hand #5"  # game, stakes and hand in the title
    assert "Pot: 12" in text
    assert text.count(markup.HIDDEN) == 4  # two down cards each, as hidden marks
    assert "K♥" in text and "2♣" in text
    assert "To act: <@100> · 2 to call · time runs out <t:2000000030:R>" in text
    assert "bob brings in 2" in text
    footer = embed.footer.text or ""
    assert "ab" * 6 + "…" in footer and "ab" * 32 not in footer  # shortened commitment
    assert "(1)" not in (embed.description or "")  # no seat numbers


def test_the_action_list_shows_the_current_street_under_a_separator() -> None:
    view = dataclasses.replace(playing(to_act=0), street=4)
    acts = [
        Act(3, "bob", ActionKind.BRING_IN, 2, 2, False, None),
        Act(3, "alice", ActionKind.CALL, 2, 2, False, None),
        Act(4, "alice", ActionKind.BET, 5, 5, False, None),
        Act(4, "bob", ActionKind.FOLD, 0, 0, False, AutoReason.TIMEOUT),
    ]
    notes = ["⌛ **bob** timed out — folded"]
    text = embed_text(table_embed(view, None, acts, notes))
    assert "Actions: 3rd: bob brings in 2, alice calls 2\n── 4th street ──\n" in text
    assert "alice bets 5\nbob folds (timed out)" in text
    assert "bob** timed out — folded" in text


def test_the_public_table_never_shows_a_down_card() -> None:
    view = playing()
    text = embed_text(table_embed(view, None))
    shown = {c.pretty for s in view.seats for c in s.cards if c is not None}
    every = {Card.parse(f"{rank}{suit}").pretty for rank in "23456789TJQKA" for suit in "cdhs"}
    assert {c for c in every if c in text} == shown


def test_folded_players_are_struck_through_and_flags_are_named() -> None:
    view = playing()
    folded = dataclasses.replace(view.seats[1], folded=True, in_hand=True)
    away = seat(2, "carol", sitting_out=True)
    broke = seat(3, "dave", stack=0)
    view = dataclasses.replace(view, seats=(view.seats[0], folded, away, broke))
    lines = table_embed(view, None).description.splitlines()  # type: ignore[union-attr]
    assert lines[1].startswith("~~") and "*folded*" in lines[1]
    assert "*sitting out*" in lines[2]
    assert "*busted*" in lines[3] and "next hand" not in lines[3]


def test_names_cannot_format_or_mention() -> None:
    assert markup.name_text("**@everyone**") == "\\*\\*@\u200beveryone\\*\\*"
    assert markup.name_text("") == "?"
    assert len(markup.name_text("x" * 200)) == 32


def test_a_waiting_table_says_what_it_needs_and_shows_no_old_actions() -> None:
    alone = table_embed(waiting(seat(0, "alice")), None)
    assert "Waiting for players (1 ready, 2 needed)" in embed_text(alone)
    busted = table_embed(waiting(seat(0, "alice"), seat(1, "bob", stack=0)), None)
    assert "(1 ready, 2 needed)" in embed_text(busted)  # a busted player is not ready
    ready = table_embed(waiting(seat(0, "alice"), seat(1, "bob")), None)
    assert "`/stud start` deals a hand" in embed_text(ready)
    assert ready.title == "Stud · 5/10 · waiting"
    empty = table_embed(waiting(), None)
    assert "No one is seated" in embed_text(empty)
    soon = waiting(seat(0, "a"), seat(1, "b"), next_hand_at=2_000_000_100.0)
    assert "Dealing <t:2000000100:R>" in embed_text(table_embed(soon, None))
    after = waiting(seat(0, "a"), seat(1, "b"), last_actions=("a: Fold",))
    assert "Fold" not in embed_text(table_embed(after, None))


def test_command_hints_are_clickable_once_the_ids_are_known() -> None:
    class Known:
        name, id = "stud", 1234

    markup.learn_command_ids([Known()])  # type: ignore[list-item]
    try:
        text = embed_text(table_embed(waiting(seat(0, "alice")), None))
        assert "</stud join:1234>" in text
    finally:
        markup.forget_command_ids()


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


def test_a_showdown_result_reads_winner_first_with_the_five_that_play() -> None:
    alice = own("Ah Ad Kc 7s 2d Kh 9c")
    shown = (
        ev.ShownHand(
            0, 100, "alice", alice, "Two pair, aces and kings", None, own("Ah Ad Kh Kc 9c")
        ),
        ev.ShownHand(1, 101, "bob", own("2c 3d 9s 4h 6d Jc Qs"), "High card, queen", None),
    )
    pots = (ev.PotWon(0, 60, (0,), (), ((0, 60),)),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, ((0, "alice"), (1, "bob")))
    acts = [
        Act(3, "bob", ActionKind.BRING_IN, 2, 2, False, None),
        Act(3, "alice", ActionKind.COMPLETE, 3, 5, False, None),
        Act(3, "bob", ActionKind.CALL, 3, 5, False, None),
        Act(4, "alice", ActionKind.CHECK, 0, 0, False, None),
        Act(4, "bob", ActionKind.CHECK, 0, 0, False, None),
    ]
    embed = result_embed(ended(showdown), acts)
    text = embed_text(embed)
    assert embed.title == "Stud · hand #5 — alice wins"
    assert (embed.description or "").startswith("**alice** wins 60 with Two pair, aces and kings")
    assert "**alice** `A♥ A♦ K♥ K♣ 9♣` Two pair, aces and kings" in text
    assert "low" not in text
    assert "alice +30, bob -30" in text
    assert "Actions: 3rd: bob brings in 2, alice completes to 5, bob calls 3\n4th: checked" in text


def test_a_hi_lo_split_names_the_high_and_the_low() -> None:
    shown = (
        ev.ShownHand(0, 100, "alice", (), "Pair of nines", "no low"),
        ev.ShownHand(1, 101, "bob", (), "High card, eight", "8-7-5-2-A", (), own("8c 7d 5s 2h Ac")),
    )
    pots = (ev.PotWon(0, 60, (0,), (1,), ((0, 30), (1, 30))),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, ((0, "alice"), (1, "bob")))
    text = embed_text(result_embed(ended(showdown, variant=Variant.STUD8)))
    assert (
        "**alice** wins the high (30) with Pair of nines · **bob** wins the low (30) with 8-7-5-2-A"
        in text
    )
    assert "low `8♣ 7♦ 5♠ 2♥ A♣` 8-7-5-2-A" in text and "· no low" in text
    assert "alice and bob win" in text


def test_a_scoop_says_so_and_side_pots_are_named() -> None:
    shown = (ev.ShownHand(0, 100, "alice", (), "Flush, ace high", "7-5-4-2-A"),)
    pots = (
        ev.PotWon(0, 60, (0,), (0,), ((0, 60),)),
        ev.PotWon(1, 50, (1,), (), ((1, 50),)),
    )
    showdown = ev.Showdown(GUILD, CHANNEL, 7, shown, pots, None, ((0, "alice"), (1, "bob")))
    text = embed_text(result_embed(ended(showdown, variant=Variant.STUD8)))
    assert (
        "Main pot (60): **alice** scoops 60 with Flush, ace high and the low with 7-5-4-2-A" in text
    )
    assert "Side pot (50): **bob** scoops 50 (no qualifying low)" in text


def test_an_uncontested_pot_says_so() -> None:
    pots = (ev.PotWon(0, 60, (0,), (), ((0, 60),)),)
    showdown = ev.Showdown(GUILD, CHANNEL, 7, (), pots, None, ((0, "alice"), (1, "bob")))
    text = embed_text(result_embed(ended(showdown)))
    assert "**alice** wins 60 uncontested" in text
    assert "Actions: alice bets 10\nbob calls 10" in text  # no action log: the last lines


def test_a_cancelled_hand_says_every_chip_went_back() -> None:
    event = ended(cancelled=True, reason="The dealer restarted", results=())
    text = embed_text(result_embed(event))
    assert "hand #5 — cancelled" in text and "The dealer restarted" in text
    assert "went back" in text and "result" not in text


def test_results_of_a_channel_that_cannot_post_are_capped_oldest_dropped() -> None:
    hands = HandStories(max_pending=2)
    for hand_id in (1, 2, 3):
        hands.ended(ended(hand_id=hand_id))
    assert hands.finished == [2, 3]
    assert [hands.result(hand_id).hand_id for hand_id in hands.finished] == [2, 3]
    hands.forget(2)
    assert hands.finished == [3]
    with pytest.raises(KeyError):
        hands.result(1)


def test_a_dealer_note_stays_while_it_is_true() -> None:
    """The time bank note while it runs; a timeout's note until the next action."""
    hands = HandStories()
    hands.started(ev.HandStarted(GUILD, CHANNEL, 7, 5, "cd" * 32, 0, PLAYERS, Variant.STUD))

    def act(user_id: int, auto: ev.AutoReason | None = None) -> ev.ActionTaken:
        kind = ActionKind.FOLD
        return ev.ActionTaken(GUILD, CHANNEL, 7, 0, 0, user_id, "x", kind, 0, 0, False, 3, "", auto)

    def notes() -> list[str]:
        return hands.story_of(7)[1]

    hands.story(ev.TimeBankStarted(GUILD, CHANNEL, 7, 0, 0, 100, 99.0), None, {100: "dave"})
    assert notes() == ["⏳ **dave** is using the time bank"]
    hands.story(act(100), None, {})  # he acted in time: the bank no longer runs
    assert notes() == []
    hands.story(ev.TimeBankStarted(GUILD, CHANNEL, 7, 1, 1, 101, 99.0), None, {101: "erin"})
    timeout = ev.PlayerTimedOut(GUILD, CHANNEL, 7, 1, 101, "erin", ActionKind.FOLD, False)
    hands.story(timeout, None, {})
    assert notes() == ["⌛ **erin** timed out — folded"]  # the bank note went with it
    hands.story(act(101, ev.AutoReason.TIMEOUT), None, {})  # the dealer's fold for her
    assert notes() == ["⌛ **erin** timed out — folded"]
    hands.story(act(100), None, {})  # the next action
    assert notes() == []


def test_deal_dms_name_the_hand_from_its_start_or_from_a_resumed_view() -> None:
    hands = HandStories()
    start = ev.HandStarted(GUILD, CHANNEL, 7, 5, "cd" * 32, 0, PLAYERS, Variant.STUD8)
    hands.started(start)
    assert hands.deal_labels(7, None) == (5, Variant.STUD8.title)
    resumed = playing(hand_id=9)  # started in the previous process
    assert hands.deal_labels(9, resumed) == (5, "Seven Card Stud")
    hands.ended(ended())
    assert hands.deal_labels(7, None) == (None, None)


def test_the_closing_notice_lists_chips_back() -> None:
    event = ev.TableClosed(GUILD, CHANNEL, ((100, 250),))
    text = embed_text(closed_embed(event, {100: "alice"}))
    assert "alice: 250 chips back to the wallet" in text


# --- private texts and wallets ------------------------------------------------------------


def test_the_deal_dm_shows_down_cards_and_the_door_card() -> None:
    event = ev.PrivateCards(GUILD, CHANNEL, 100, 7, 3, own("Ah Kd 7s"), (False, False, True))
    embed = answers.private_cards_embed(event, number=5, where="#stud", variant_title="Stud")
    text = embed_text(embed)
    assert "Your cards — hand #5" in text and "Down: `A♥ K♦` · Door card: `7♠`" in text


def test_my_cards_answers_with_the_players_cards_and_options() -> None:
    view = playing()
    options = turn(view).options
    me = PlayerView(view, 100, 0, 200, own("Ah Kd Kh"), (False, False, True), options, 7, 3, 0.0)
    assert answers.private_player_text(me) == "**Hand #5** — down: `A♥ K♦` · up: `K♥`"
    idle = dataclasses.replace(me, hand_id=None, cards=())
    assert "not in a hand" in answers.private_player_text(idle)


def test_balance_and_leaderboard() -> None:
    wallet = Wallet(GUILD, 100, 500, 200, 700, None, 0.0)
    entry = LeaderboardEntry(1, 100, 500, 200, 700)
    assert answers.balance_text(100, wallet, entry, True) == (
        "You have **500** chips in the wallet and **200** on tables (net worth 700). Rank #1."
    )
    page = LeaderboardPage(GUILD, 1, 1, 1, (entry,))
    text = embed_text(answers.leaderboard_embed(page, 100, entry))
    assert "**#1** <@100> — 700 chips (200 on tables) ← you" in text
    assert "Page 1 of 1 · 1 players" in text


def test_hidden_cards_render_as_backs() -> None:
    assert markup.cards_text(cards("?? Ah")) == f"{markup.HIDDEN} A♥"

"""Picture cards (issue 19): one function draws a card in a deck, every renderer uses it,
emoji never sit in a code span, a deck missing from the application's emoji is text with
one log line, and the worst case of every message kind stays inside Discord's limits."""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterator

import discord
import pytest

from dealerbot.bot import answers, markup
from dealerbot.bot.discord_limits import (
    EMBED_DESCRIPTION,
    EMBED_FIELD_VALUE,
    EMBED_TITLE,
    EMBED_TOTAL,
    MESSAGE_CONTENT,
)
from dealerbot.bot.hand_story import Act
from dealerbot.bot.markup import TEXT_FACES, CardFaces, card_face, cards_shown, faces_for
from dealerbot.bot.relay import PlayerDecks
from dealerbot.bot.table_embeds import result_embed, table_embed
from dealerbot.card_art import Deck, all_emoji, emoji_name
from dealerbot.card_art.names import faces as art_faces
from dealerbot.tables import (
    ALL_CARDS,
    DEFAULT_DECK,
    ActionKind,
    Card,
    ChoiceView,
    DeckStyle,
    GameMode,
    GamesView,
    PlayerView,
    TableConfig,
    TableView,
    Variant,
)
from dealerbot.tables import events as ev

from .table_values import CHANNEL, GUILD, cards, playing, seat, turn

EMOJI_ID = 10**18  # 19 digits, as Discord's snowflakes are today (and for years to come)
EMOJI = re.compile(r"<:(s[c4]_[0-9a-z]+):(\d+)>")
LONGEST = 32  # the service cuts names to this


def owned(*decks: Deck) -> list[tuple[str, int]]:
    """The application's emoji when ``decks`` are uploaded: 19-digit ids."""
    return [
        (emoji_name(deck, face), EMOJI_ID + i)
        for i, (deck, face) in enumerate(all_emoji())
        if deck in decks
    ]


@pytest.fixture
def uploaded() -> Iterator[None]:
    """Both decks of the card art are the application's emoji, for this test only."""
    markup.learn_card_emoji(owned(*Deck))
    yield
    markup.forget_card_emoji()


def long_name(i: int) -> str:
    """32 characters, every one escaped for Markdown: the longest a name is drawn."""
    return "*" * (LONGEST - 1) + str(i)


# --- one function draws a card -----------------------------------------------------------


def test_text_faces_are_todays_text_cards_in_a_code_span() -> None:
    assert card_face(Card.parse("Ah"), TEXT_FACES) == "A♥"
    assert card_face(None, TEXT_FACES) == markup.HIDDEN
    assert cards_shown(cards("?? Ah 10s"), TEXT_FACES) == f"`{markup.HIDDEN} A♥ 10♠`"


def test_every_card_and_the_back_is_its_own_emoji_in_each_deck(uploaded: None) -> None:
    for style, deck in (
        (DeckStyle.CLASSIC, Deck.CLASSIC),
        (DeckStyle.FOUR_COLOUR, Deck.FOUR_COLOUR),
    ):
        faces = faces_for(style)
        drawn = [card_face(card, faces) for card in ALL_CARDS] + [card_face(None, faces)]
        names = [EMOJI.fullmatch(text) for text in drawn]
        assert all(names), drawn
        assert [m.group(1) for m in names if m] == [emoji_name(deck, f) for f in art_faces()]
        assert len(set(drawn)) == len(ALL_CARDS) + 1
    assert faces_for(DeckStyle.TEXT) == TEXT_FACES


def test_picture_cards_sit_side_by_side_never_in_a_code_span(uploaded: None) -> None:
    shown = cards_shown(cards("?? ?? Kh"), faces_for(DeckStyle.CLASSIC))
    assert "`" not in shown
    assert [m.group(1) for m in EMOJI.finditer(shown)] == ["sc_back", "sc_back", "sc_kh"]


def test_a_deck_missing_from_the_emoji_is_text_and_one_line_says_run_the_sync(
    caplog: pytest.LogCaptureFixture,
) -> None:
    some = owned(Deck.CLASSIC)
    with caplog.at_level(logging.WARNING, logger=markup.log.name):
        missing = markup.learn_card_emoji(some[:-1] + owned(Deck.FOUR_COLOUR))  # sc_back gone
    try:
        assert missing == [Deck.CLASSIC]
        assert faces_for(DeckStyle.CLASSIC) == TEXT_FACES
        assert faces_for(DeckStyle.FOUR_COLOUR).pictures
        lines = [r.getMessage() for r in caplog.records]
        assert len(lines) == 1
        assert "dealerbot emoji sync" in lines[0] and "classic deck (52 of 53 there)" in lines[0]
    finally:
        markup.forget_card_emoji()


def test_with_every_deck_uploaded_nothing_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=markup.log.name):
        assert markup.learn_card_emoji([*owned(*Deck), ("my_logo", 5)]) == []
    markup.forget_card_emoji()
    assert caplog.records == []


def test_the_table_message_draws_its_decks_cards(uploaded: None) -> None:
    view = playing()
    text = table_embed(view, None, faces=faces_for(DeckStyle.FOUR_COLOUR)).description or ""
    assert "`" not in text
    drawn = [m.group(1) for m in EMOJI.finditer(text)]
    assert drawn == ["s4_back", "s4_back", "s4_kh", "s4_back", "s4_back", "s4_2c"]
    plain = table_embed(view, None).description or ""
    assert f"`{markup.HIDDEN} {markup.HIDDEN} K♥`" in plain and "<:" not in plain


def test_a_dm_and_my_cards_draw_the_players_deck(uploaded: None) -> None:
    dealt = ev.PrivateCards(
        GUILD,
        CHANNEL,
        user_id=100,
        hand_id=7,
        street=3,
        cards=cards("Ah Kd 2c"),
        face_up=(False, False, True),
    )
    faces = faces_for(DeckStyle.CLASSIC)
    embed = answers.private_cards_embed(
        dealt, number=5, where="#stud", variant_title=None, faces=faces
    )
    names = [m.group(1) for m in EMOJI.finditer(embed.description or "")]
    assert names == ["sc_ah", "sc_kd", "sc_2c"] and "`" not in (embed.description or "")
    view = PlayerView(
        playing(), 100, 0, 200, cards("Ah Kd 2c"), (False, False, True), (), 7, 3, 0.0
    )
    text = answers.private_player_text(view, faces)
    assert [m.group(1) for m in EMOJI.finditer(text)] == ["sc_ah", "sc_kd", "sc_2c"]
    assert "up: `2♣`" in answers.private_player_text(view)  # text cards: today's form


def test_the_rules_show_example_hands_in_the_readers_deck(uploaded: None) -> None:
    for variant in (Variant.STUD, Variant.STUD8, Variant.RAZZ):
        config = TableConfig(variant=variant, game=_mode(variant))
        pictures = answers.rules_embed(config, False, None, faces_for(DeckStyle.CLASSIC))
        example = next(f.value or "" for f in pictures.fields if f.name == "Examples")
        assert len(EMOJI.findall(example)) == 10, example  # two hands of five
        text = answers.rules_embed(config, False, None)
        example = next(f.value or "" for f in text.fields if f.name == "Examples")
        assert "<:" not in example and example.count("`") == 4


def _mode(variant: Variant) -> GameMode:
    return GameMode(variant.value)


# --- the worst case of every message kind, within Discord's limits --------------------


def within_limits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= EMBED_TITLE
    assert len(embed.description or "") <= EMBED_DESCRIPTION
    for field in embed.fields:
        assert len(field.value or "") <= EMBED_FIELD_VALUE
    assert len(embed) <= EMBED_TOTAL


def no_cut_emoji(text: str) -> None:
    """Every ``<:`` begins a whole emoji: a cut never leaves half of one as raw text."""
    assert text.count("<:") == len(EMOJI.findall(text)), text


def full_table() -> tuple[TableView, ev.Turn, list[Act], list[str]]:
    """Eight players at 7th street, every name 32 escaped characters, every seat with a
    queued top-up, a bet and flags, a mixed game with a pick waiting, a long action log."""
    base = playing()
    seats = tuple(
        seat(
            n,
            long_name(n),
            stack=9_999_999,
            queued=9_999_999,
            in_hand=True,
            cards=cards("?? ?? Kh Qd Jc 10s ??"),
            bet=999_999,
            all_in=n % 2 == 0,
            leaving=n % 3 == 0,
            to_act=n == 0,
        )
        for n in range(8)
    )
    choice = ChoiceView(
        user_id=10**18,
        name=long_name(9),
        seat=0,
        options=(Variant.STUD, Variant.RAZZ, Variant.STUD8),
        deadline=2_000_000_100.0,
    )
    games = GamesView(
        mode="choice",
        games=(Variant.STUD, Variant.RAZZ, Variant.STUD8),
        game=Variant.STUD8,
        hand=3,
        of=50,
        then=None,
        choice=choice,
        note=f"{long_name(9)} chose Stud Hi/Lo",
    )
    view = dataclasses.replace(
        base, seats=seats, street=7, pot=99_999_999, to_act_user=10**18, games=games
    )
    acts = [
        Act(street, long_name(n), ActionKind.RAISE, 999_999, 9_999_999, True, None)
        for street in range(3, 8)
        for n in range(8)
    ]
    notes = [
        f"⌛ **{long_name(n)}** timed out — folded; sitting out from the next hand"
        for n in range(8)
    ]
    return view, turn(view, ActionKind.FOLD, ActionKind.CALL, to_call=999_999), acts, notes


def test_a_full_table_at_seventh_street_fits_with_picture_cards(uploaded: None) -> None:
    view, shown_turn, acts, notes = full_table()
    for style in (DeckStyle.CLASSIC, DeckStyle.FOUR_COLOUR):
        embed = table_embed(view, shown_turn, acts, notes, faces_for(style))
        within_limits(embed)
        text = embed.description or ""
        assert len(EMOJI.findall(text)) == 8 * 7  # pictures, not the text fallback
        no_cut_emoji(text)


def shown_hand(n: int) -> ev.ShownHand:
    """A Hi/Lo hand whose high and low are the same five (8-7-6-5-4): twelve cards drawn."""
    five = tuple(Card.parse(c) for c in ["8s", "7h", "6d", "5c", "4s"])
    idle = tuple(Card.parse(c) for c in ["Kh", "Kd"])
    return ev.ShownHand(
        seat=n,
        user_id=100 + n,
        name=long_name(n),
        cards=five + idle,
        high="Straight, eight high",
        low="8-7-6-5-4",
        high_cards=five,
        low_cards=five,
        idle_cards=idle,
    )


def hand_result(pots: int) -> ev.HandEnded:
    players = tuple(ev.SeatedPlayer(n, 100 + n, long_name(n), 9_999_999) for n in range(8))
    names = tuple((n, long_name(n)) for n in range(8))
    won = tuple(
        ev.PotWon(i, 9_999_999, (i, i + 1), (i, i + 1), ((i, 4_999_999), (i + 1, 5_000_000)))
        for i in range(pots)
    )
    showdown = ev.Showdown(
        GUILD, CHANNEL, 7, tuple(shown_hand(n) for n in range(8)), won, None, names
    )
    return ev.HandEnded(
        GUILD,
        CHANNEL,
        hand_id=7,
        number=99_999,
        results=tuple((100 + n, -9_999_999) for n in range(8)),
        final_stacks=(),
        cancelled=False,
        reason=None,
        commitment="ab" * 32,
        variant=Variant.STUD8,
        players=players,
        showdown=showdown,
    )


def stud(ended: ev.HandEnded) -> ev.HandEnded:
    """The same showdown in seven-card stud: five that play and two idle, no low."""
    assert ended.showdown is not None
    shown = tuple(dataclasses.replace(h, low=None, low_cards=()) for h in ended.showdown.shown)
    showdown = dataclasses.replace(ended.showdown, shown=shown)
    return dataclasses.replace(ended, variant=Variant.STUD, showdown=showdown)


LONG_ACTS = [
    Act(street, long_name(n), ActionKind.RAISE, 999_999, 9_999_999, True, None)
    for street in range(3, 8)
    for n in range(8)
]


@pytest.mark.parametrize("pots", [1, 3])
def test_a_stud_result_of_eight_shown_hands_fits_with_picture_cards(
    uploaded: None, pots: int
) -> None:
    embed = result_embed(stud(hand_result(pots)), LONG_ACTS, faces_for(DeckStyle.CLASSIC))
    within_limits(embed)
    assert len(EMOJI.findall(embed.description or "")) == 8 * 7


@pytest.mark.parametrize("pots", [1, 3, 7])
def test_a_result_too_long_for_pictures_is_all_text_never_a_cut_emoji(
    uploaded: None, pots: int
) -> None:
    """Eight Hi/Lo hands showing twelve cards each (4,599 characters as pictures with one
    pot, over the 4,000 the description is given): the result is drawn in text cards."""
    for ended in (hand_result(pots), stud(hand_result(7))):
        embed = result_embed(ended, LONG_ACTS, faces_for(DeckStyle.CLASSIC))
        within_limits(embed)
        text = embed.description or ""
        no_cut_emoji(text)
        assert "<:" not in text and "K♥" in text


def test_the_worst_dm_and_my_cards_answer_fit_with_picture_cards(uploaded: None) -> None:
    seven = cards("Ah Kd 2c 3s 4h 5d 6c")
    up = (False, False, True, True, True, True, False)
    dealt = ev.PrivateCards(
        GUILD,
        CHANNEL,
        user_id=100,
        hand_id=7,
        street=7,
        cards=seven,
        face_up=up,
        made="Straight, six high",
        low="6-5-4-3-2",
    )
    where = f"<#{10**18}> (#{'c' * 100}) in {'*' * 100}"
    embed = answers.private_cards_embed(
        dealt,
        number=99_999,
        where=where,
        variant_title="Seven Card Stud Hi/Lo",
        link=f"https://discord.com/channels/{10**18}/{10**18}/{10**18}",
        commitment="ab" * 32,
        faces=faces_for(DeckStyle.FOUR_COLOUR),
    )
    within_limits(embed)
    assert len(EMOJI.findall(embed.description or "")) == 14  # all seven, then down and up
    view = PlayerView(playing(), 100, 0, 200, seven, up, (), 7, 3, 0.0)
    text = answers.private_player_text(view, faces_for(DeckStyle.CLASSIC))
    assert len(text) <= MESSAGE_CONTENT and len(EMOJI.findall(text)) == 7


def test_the_rules_fit_with_picture_cards(uploaded: None) -> None:
    config = TableConfig(game=GameMode.MIX, variant=Variant.STUD)
    embed = answers.rules_embed(config, True, None, faces_for(DeckStyle.CLASSIC))
    within_limits(embed)


def test_pictures_that_would_pass_a_limit_are_drawn_as_text() -> None:
    """The fallback itself: a deck whose emoji markup is too long to fit is drawn as text."""
    huge = CardFaces(tuple(f"<:{'x' * 32}:{EMOJI_ID}>" * 20 for _ in range(len(ALL_CARDS) + 1)))
    view, shown_turn, acts, notes = full_table()
    embed = table_embed(view, shown_turn, acts, notes, huge)
    within_limits(embed)
    assert "<:" not in (embed.description or "") and "K♥" in (embed.description or "")


# --- a player's own deck, as the relay keeps it -------------------------------------------


class Prefs:
    """The service's prefs facet, answering from a dict (or failing)."""

    def __init__(self, decks: dict[int, DeckStyle], fail: bool = False) -> None:
        self.decks, self.fail, self.asked = decks, fail, 0

    async def deck(self, user_id: int) -> DeckStyle:
        self.asked += 1
        if self.fail:
            raise RuntimeError("database is locked")
        return self.decks.get(user_id, DeckStyle.CLASSIC)


async def test_a_players_deck_is_asked_once_and_a_choice_is_known_at_once() -> None:
    prefs = Prefs({7: DeckStyle.FOUR_COLOUR})
    decks = PlayerDecks(prefs)  # type: ignore[arg-type]
    assert decks.known(7) is None
    assert await decks.of(7) is DeckStyle.FOUR_COLOUR
    assert await decks.of(7) is DeckStyle.FOUR_COLOUR and prefs.asked == 1
    decks.remember(7, DeckStyle.TEXT)  # /stud deck
    assert await decks.of(7) is DeckStyle.TEXT and prefs.asked == 1


async def test_a_failed_read_gives_the_default_deck_logs_once_and_asks_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    prefs = Prefs({}, fail=True)
    decks = PlayerDecks(prefs)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING):
        assert await decks.of(7) is DEFAULT_DECK
        assert await decks.of(8) is DEFAULT_DECK
    assert len(caplog.records) == 1 and prefs.asked == 2
    prefs.fail = False
    assert await decks.of(7) is DeckStyle.CLASSIC and decks.known(7) is DeckStyle.CLASSIC

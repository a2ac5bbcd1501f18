"""Picture cards through the emulator (issue 19), read as players read them: the table
message, each player's DMs and answers, the result. The card art is seeded straight into
the emulator's store of the application's emoji (what ``dealerbot emoji sync`` uploads,
tests/bot/e2e/test_emoji_sync.py drives the sync itself); each emoji a message shows is
read back as the picture the emulator holds for its id."""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path

import pytest

from dealerbot.card_art import BACK, Deck, EmojiArt, emoji_set, face_of
from dealerbot.tables import Card
from dealerbot.tables import events as ev
from tests.bot.emulator import DiscordEmulator, discord_py_pointed_at

from .conftest import audit_clean
from .driver import Club, is_result, message_text
from .test_emoji_sync import emoji_sync

EMOJI = re.compile(r"<:([A-Za-z0-9_]+):(\d+)>")
TEXT_CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
Face = tuple[Deck, Card | None]  # what one picture shows (None: the back)


@cache
def art() -> tuple[EmojiArt, ...]:
    return tuple(emoji_set())


def seed_card_art(emu: DiscordEmulator) -> None:
    """The application owns the whole set, as after one ``dealerbot emoji sync``."""
    for item in art():
        emu.world.add_application_emoji(item.name, item.png)


def pictures(emu: DiscordEmulator, text: str) -> list[Face]:
    """The cards ``text`` shows as pictures, by the image the emulator holds for each id."""
    shown: list[Face] = []
    for name, emoji_id in EMOJI.findall(text):
        stored = emu.world.application_emoji(emoji_id)
        assert stored is not None and stored.name == name, f"{name}:{emoji_id} is not ours"
        found = face_of(name)
        assert found is not None
        deck, face = found
        assert stored.image == next(a.png for a in art() if a.name == name)
        shown.append((deck, None if face is BACK else face))  # type: ignore[arg-type]
    return shown


def no_emoji_in_code_spans(text: str) -> None:
    for span in re.findall(r"`([^`]*)`", text):
        assert "<:" not in span, span


@pytest.fixture
async def club(emulator: DiscordEmulator, tmp_path: Path) -> AsyncIterator[Club]:
    """The e2e club, with the card art uploaded before the bot starts."""
    with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
        club = Club(emulator, tmp_path / "dealerbot.sqlite3")
        seed_card_art(emulator)
        await club.start_bot()
        try:
            yield club
            await audit_clean(club)
        finally:
            await club.stop_bot()


def table_message(club: Club) -> dict:
    found = club.action_message()
    assert found is not None
    return found


def last_dm(club: Club, user_id: int) -> str:
    dms = club.emu.dm_messages(user_id)
    assert dms, f"no DM to {user_id}"
    return message_text(dms[-1])


def dealt(club: Club, user_id: int) -> ev.PrivateCards:
    return [e for e in club.recorder.of(ev.PrivateCards) if e.user_id == user_id][-1]


async def test_a_hand_shows_picture_cards_in_the_table_dms_answers_and_result(club: Club) -> None:
    players = club.players[:3]
    await club.seat(players)
    await club.start_hand()
    table = message_text(table_message(club))
    shown = pictures(club.emu, table)
    assert len(shown) == 9 and not TEXT_CARD.search(table)  # three cards a seat, pictures
    assert {deck for deck, _ in shown} == {Deck.CLASSIC}
    assert [face for _, face in shown].count(None) == 6  # two down cards each: the back
    no_emoji_in_code_spans(table)
    for player in players:
        event = dealt(club, player.id)
        dm = last_dm(club, player.id)
        assert [face for _, face in pictures(club.emu, dm)][:3] == [
            c for c, up in zip(event.cards, event.face_up, strict=True) if not up
        ] + [c for c, up in zip(event.cards, event.face_up, strict=True) if up]
        no_emoji_in_code_spans(dm)
    mine = await club.text(players[0], "cards")
    assert [face for _, face in pictures(club.emu, mine)] == list(dealt(club, players[0].id).cards)

    await club.play_hand()  # check and call down: a showdown
    await club.settle()
    results = [m for m in club.public_messages() if is_result(m)]
    assert results
    result = message_text(results[-1])
    assert pictures(club.emu, result) and not TEXT_CARD.search(result.split("**Chips**")[0])
    no_emoji_in_code_spans(result)
    rules = await club.text(players[0], "rules")
    assert len(pictures(club.emu, rules)) == 10  # two example hands
    club.emu.assert_nothing_refused()


async def test_with_the_set_deleted_the_bot_shows_text_and_logs_one_line(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    await club.stop_bot()
    club.emu.world.application_emojis.clear()  # an operator ran `dealerbot emoji sync --remove`
    with caplog.at_level(logging.INFO):
        await club.start_bot()
    told = [r.getMessage() for r in caplog.records if "dealerbot emoji sync" in r.getMessage()]
    assert len(told) == 1, told
    assert "classic deck (0 of 53 there)" in told[0]
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    table = message_text(table_message(club))
    assert "<:" not in table and len(TEXT_CARD.findall(table)) == 2
    dm = last_dm(club, players[0].id)
    assert "<:" not in dm and len(TEXT_CARD.findall(dm)) == 3
    club.emu.assert_nothing_refused()


async def test_after_one_sync_the_bot_shows_the_uploaded_pictures(
    emulator: DiscordEmulator, tmp_path: Path
) -> None:
    """The sync as a process (its names are the ones the bot looks for), then the bot."""
    code, out, err = await emoji_sync(emulator, tmp_path)
    assert code == 0, err
    assert out.splitlines()[0] == f"emoji sync: uploaded {len(art())}, already there 0, removed 0"
    with discord_py_pointed_at(emulator.api_base, emulator.gateway_url):
        club = Club(emulator, tmp_path / "dealerbot.sqlite3")
        await club.start_bot()
        try:
            await club.seat(club.players[:2])
            await club.start_hand()
            shown = pictures(emulator, message_text(table_message(club)))
            assert len(shown) == 6 and {deck for deck, _ in shown} == {Deck.CLASSIC}
            emulator.assert_nothing_refused()
            await audit_clean(club)
        finally:
            await club.stop_bot()
    assert len(emulator.requests("POST", "/emojis")) == len(art())  # uploaded once


async def test_a_server_set_to_text_shows_text_cards_on_its_table(club: Club) -> None:
    answer = await club.text(club.admin, "config", group="stud-admin", deck="text")
    assert "text" in answer
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    table = message_text(table_message(club))
    assert "<:" not in table and len(TEXT_CARD.findall(table)) == 2  # the two door cards
    assert table.count("🂠") == 4
    dm = last_dm(club, players[0].id)
    assert len(pictures(club.emu, dm)) == 3  # his own DMs keep his deck (classic)
    club.emu.assert_nothing_refused()


async def test_a_players_four_colour_choice_changes_only_his_private_views(club: Club) -> None:
    alice, bob = club.players[:2]
    answer = await club.text(alice, "deck", style="four-colour")
    assert "four-colour" in answer and {d for d, _ in pictures(club.emu, answer)} == {
        Deck.FOUR_COLOUR
    }
    await club.seat([alice, bob])
    await club.start_hand()
    assert {d for d, _ in pictures(club.emu, last_dm(club, alice.id))} == {Deck.FOUR_COLOUR}
    assert {d for d, _ in pictures(club.emu, last_dm(club, bob.id))} == {Deck.CLASSIC}
    assert {d for d, _ in pictures(club.emu, await club.text(alice, "cards"))} == {Deck.FOUR_COLOUR}
    assert {d for d, _ in pictures(club.emu, await club.text(bob, "cards"))} == {Deck.CLASSIC}
    table = message_text(table_message(club))
    assert {d for d, _ in pictures(club.emu, table)} == {Deck.CLASSIC}  # the server's deck
    club.emu.assert_nothing_refused()

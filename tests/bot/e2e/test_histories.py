"""``/stud history`` and ``/stud hand`` end to end: players ask, files arrive, the project's
reader (and TOML for PHH) reads them back.

The test reads what a player gets: the ephemeral answers and their attachments, downloaded
from the URL Discord gives. The truth it compares with (who was dealt what) comes from the
service's events.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

import aiohttp
import pytest

from dealerbot.bot.cogs import stud_history
from dealerbot.history.pokerstars import iter_hands, parse_hand
from dealerbot.tables import events as ev
from tests.bot.emulator import Member
from tests.fairness.hand_pages import page_data

from .driver import DEFERRED, JSON, Club, message_text, random_chooser

HAND_ID = re.compile(r"`(\d+)`")
RESULT_ID = re.compile(r"Hand #\d+ · id (\d+) · deck")  # a result's footer
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![a-z])")


async def ask(club: Club, user: Member, sub: str, **options: Any) -> JSON:
    """Run ``/stud sub`` and return the message the user sees (attachments with URLs)."""
    rec = await club.emu.slash_command(
        club.guild, club.channel, user, "stud", subcommand=sub, options=options or None
    )
    response = await rec.response(timeout=10)
    if response.type == DEFERRED:
        [answer] = await rec.wait_followups(1, timeout=10)
        return answer
    message = rec.original()
    assert message is not None
    return message


async def download(message: JSON) -> list[tuple[str, str]]:
    """(file name, text) of each attachment, fetched like a Discord client would."""
    files = []
    async with aiohttp.ClientSession() as session:
        for attachment in message.get("attachments") or []:
            async with session.get(attachment["url"]) as response:
                assert response.status == 200
                files.append((attachment["filename"], (await response.read()).decode()))
    return files


def own_cards(club: Club, hand_id: int, user_id: int) -> set[str]:
    """The cards the service showed this user in the hand (public ones and his own)."""
    cards: set[str] = set()
    for event in club.recorder.events:
        if getattr(event, "hand_id", None) != hand_id or event.private_to not in (None, user_id):
            continue
        if isinstance(event, ev.StreetDealt):
            cards |= {str(card) for _, card in event.up_cards}
            if event.community is not None:
                cards.add(str(event.community))
        elif isinstance(event, ev.PrivateCards | ev.CardsExposed):
            cards |= {str(card) for card in event.cards}
        elif isinstance(event, ev.Showdown):
            cards |= {str(card) for shown in event.shown for card in shown.cards}
    return cards


async def test_players_get_their_hands_as_files(club: Club) -> None:
    players = club.players[:3]
    stranger = club.players[7]  # in the server, never sat down
    await club.seat(players)
    for _ in range(3):
        await club.start_hand()
        await club.play_hand(random_chooser(club.rng))
        await club.settle()
    ended = [e for e in club.recorder.of(ev.HandEnded) if not e.cancelled]
    assert len(ended) == 3

    history = await ask(club, players[0], "history")
    assert history["flags"] & 64
    text = message_text(history)
    ids = [int(x) for x in HAND_ID.findall(text)]
    assert ids == [e.hand_id for e in reversed(ended)]
    assert f"<#{club.channel.id}>" in text
    shown = [int(x) for m in club.public_messages() for x in RESULT_ID.findall(message_text(m))]
    assert sorted(shown) == sorted(ids), "each result message shows its hand id"
    mine = {e.hand_id: dict(e.results).get(players[0].id, 0) for e in ended}
    assert all(f"**{mine[i]:+,}**" in text for i in ids)

    for hand_id in ids:
        for user in (*players, stranger):
            answer = await ask(club, user, "hand", id=hand_id)
            assert answer["flags"] & 64, "a history is private"
            files = dict(await download(answer))
            name, page_name = f"hand-{hand_id}.txt", f"hand-{hand_id}.html"
            assert set(files) == {name, page_name}
            assert f"Open **{page_name}** in any browser" in message_text(answer)
            body = files[name]
            page = page_data(files[page_name])
            assert {c["card"] for c in page["proof"]["cards"]} == own_cards(club, hand_id, user.id)
            hand = parse_hand(body)
            assert hand.hand_id == hand_id
            assert hand.table == f"#{club.channel.name}"
            assert hand.hero == (user.name if user is not stranger else None)
            allowed = own_cards(club, hand_id, user.id)
            assert set(CARD.findall(body)) <= allowed, f"{user.name} got a card he never saw"
            if user is not stranger:
                assert set(hand.cards_of(user.name).known) == {
                    c for c in allowed if c in hand.cards_of(user.name).known
                }
                assert len(hand.cards_of(user.name).known) == len(hand.cards_of(user.name).cards)

    answer = await ask(club, players[1], "hand", id=ids[0], format="phh")
    [(name, body), (page_name, _)] = await download(answer)
    assert name.endswith(".phh") and page_name == f"hand-{ids[0]}.html"
    document = tomllib.loads(body)
    assert document["variant"] == "F7S" and document["hand"] == ids[0]

    answer = await ask(club, players[2], "hand", last=2)
    [(name, body)] = await download(answer)
    assert name == "hands-last-2.txt"
    assert [hand.hand_id for hand in iter_hands(body)] == sorted(ids)[-2:]
    club.emu.assert_nothing_refused()


async def test_bad_requests_get_a_clear_answer(club: Club) -> None:
    players = club.players[:2]
    await club.seat(players)
    await club.start_hand()
    live = club.recorder.of(ev.HandStarted)[-1].hand_id
    answers = {
        "unknown": await ask(club, players[0], "hand", id=live + 1000),
        "live": await ask(club, players[0], "hand", id=live),
        "nothing": await ask(club, players[0], "hand"),
        "no hands": await ask(club, players[0], "hand", last=5),
        "no history": await ask(club, players[0], "history"),
    }
    expected = {
        "unknown": f"There is no hand {live + 1000} in this server",
        "live": "still being played",
        "nothing": "by its `id`",
        "no hands": "no finished hand",
        "no history": "not played a finished hand",
    }
    for key, answer in answers.items():
        assert answer["flags"] & 64
        assert not answer.get("attachments")
        assert expected[key] in message_text(answer), (key, message_text(answer))
    club.emu.assert_nothing_refused()


async def test_a_large_answer_is_split_into_files_that_fit(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    players = club.players[:2]
    await club.seat(players)
    for _ in range(4):
        await club.start_hand()
        await club.play_hand(random_chooser(club.rng))
        await club.settle()
    ended = [e.hand_id for e in club.recorder.of(ev.HandEnded) if not e.cancelled]
    whole = await download(await ask(club, players[0], "hand", last=4))
    [(_, text)] = whole
    limit = len(text.encode()) // 2
    monkeypatch.setattr(stud_history, "file_limit", lambda interaction: limit)
    answer = await ask(club, players[0], "hand", last=4)
    files = await download(answer)
    assert len(files) >= 2 and "in " in message_text(answer)
    assert all(len(body.encode()) <= limit for _, body in files)
    assert [h.hand_id for _, body in files for h in iter_hands(body)] == ended
    monkeypatch.setattr(stud_history, "file_limit", lambda interaction: 200)
    refused = await ask(club, players[0], "hand", id=ended[0])
    assert "larger than Discord accepts" in message_text(refused)
    assert not refused.get("attachments")
    club.emu.assert_nothing_refused()

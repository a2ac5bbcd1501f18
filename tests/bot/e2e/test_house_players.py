"""House players through the real bot and the emulator (issue 20, the Discord part).

An admin funds the house bankroll and sets ``house_players: 3``; one member joins and
house players sit; hands play to their results with the house acting by itself; a second
member asks for a seat at a full table during a hand and takes a house player's seat when
it ends. Everything is read as a player sees it: the table message, the results, the
answers. House players are marked ``🤖 … (house)``, never mentioned (no ``<@-2>``), get no
DM, and are on no leaderboard. The service's house delay is 0 here.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import Iterator

import pytest

from dealerbot.house import HouseStyle
from dealerbot.runner import table_service
from dealerbot.tables import HOUSE_NAMES

from . import driver
from .driver import JSON, Club, action_buttons, is_result, message_text, passive, to_act

QUICK = HouseStyle(delay_range=(0.0, 0.0), samples=40)  # no thinking time in tests
FUND = 10_000
HOUSE_LINE = re.compile(r"🤖 (\w+) \(house\)")
NEGATIVE_MENTION = re.compile(r"<@!?&?-\d+>")


@pytest.fixture(autouse=True)
def quick_house(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The club's bot runs a table service whose house players act at once."""
    monkeypatch.setattr(
        driver, "table_service", functools.partial(table_service, house_style=QUICK)
    )
    yield


async def shown_with(club: Club, names_fit) -> JSON:  # type: ignore[no-untyped-def]
    """The table message once the house players it names fit ``names_fit``."""

    def ready() -> JSON | None:
        for message in reversed(club.public_messages()):
            text = message_text(message)
            if ("Stakes" in text or "To act" in text) and not is_result(message):
                return message if names_fit(house_names_on(message)) else None
        return None

    return await club.emu.wait_for(ready, 10)


def results(club: Club) -> list[JSON]:
    return [m for m in club.public_messages() if is_result(m)]


def house_names_on(message: JSON) -> list[str]:
    """The house players seated on a table message (its seat lines, not its actions)."""
    seats = "\n".join(e.get("description") or "" for e in message.get("embeds") or [])
    return HOUSE_LINE.findall(seats)


async def play_to_result(club: Club, choose=passive) -> JSON:  # type: ignore[no-untyped-def]
    """Play the members' turns until this hand's result is posted (house players act by
    themselves: the table names them, no mention, so the driver waits through them)."""
    before = len(results(club))
    for _ in range(400):
        await club.settle()
        if len(results(club)) > before:
            return results(club)[-1]
        message = club.action_message()
        user = to_act(message) if message is not None else None
        if message is None or user is None:
            await asyncio.sleep(0.01)
            continue
        await club.click(message, choose(action_buttons(message)), user)
    raise AssertionError("the hand did not end")


def nothing_to_the_house(club: Club) -> None:
    """No request the bot made (every post, edit, interaction answer and DM, edits that a
    later edit hid included) mentions a negative id or opens a DM with one. This reads the
    wire, not a player's screen: a mention the next edit replaced was still sent."""
    sent = club.emu.requests()
    assert sent, "the requests are read"
    for request in sent:
        body = json.dumps(request.json, ensure_ascii=False)
        assert not NEGATIVE_MENTION.search(body), (request.method, request.path, body)
        if request.path.endswith("/users/@me/channels"):
            assert int(request.json["recipient_id"]) > 0, body


async def test_house_players_fill_a_table_and_give_a_member_their_seat(club: Club) -> None:
    admin, alice, bob = club.admin, club.players[0], club.players[1]
    funded = await club.text(admin, "house", group="stud-admin", fund=FUND)
    assert "House bankroll funded" in funded and f"Balance: **{FUND:,}**" in funded
    shown = await club.text(admin, "config", group="stud-admin", house_players=3, seats=4)
    assert "up to 3 · while fewer than 4 seats are taken" in shown

    await club.seat([alice])  # the house players sit with him (the table is posted at the deal)
    rules = await club.text(alice, "rules")
    assert "🤖 Ace (house) in seat 2" in rules and "never in a tournament" in rules
    for hand in range(2):
        await club.start_hand(alice)
        if hand == 0:
            table = await shown_with(club, lambda names: len(names) == 3)
            assert house_names_on(table) == ["Ace", "Bea", "Cy"], message_text(table)
        result = await play_to_result(club)
        assert "🤖" in message_text(result)  # the house players are named in the result

    await club.start_hand(alice)
    await club.settle()
    answer = await club.command(bob, "join")
    assert answer["flags"] & 64  # private: the service's words, not a refusal
    assert "gives you its seat when this hand ends" in message_text(answer)
    await play_to_result(club)
    await club.start_hand(alice)  # bob sits in the seat a house player gave up
    table = await shown_with(club, lambda names: len(names) == 2)
    names = house_names_on(table)
    assert set(names) < set(HOUSE_NAMES) and "**player1**" in message_text(table), names
    await play_to_result(club)
    board = await club.text(alice, "leaderboard")
    assert "house" not in board.lower() and "<@-" not in board
    book = await club.text(admin, "house", group="stud-admin")
    assert "House bankroll" in book and "Result by day and game" in book
    nothing_to_the_house(club)
    club.emu.assert_nothing_refused()


async def stale_client(club: Club, **options: int) -> str:
    """``/stud-admin house`` from a command list older than the bounds: the options reach
    the bot as sent. The answer's text."""
    rec = await club.emu.slash_command(
        club.guild,
        club.channel,
        club.admin,
        "stud-admin",
        subcommand="house",
        options=options,
        unchecked=True,
    )
    response = await rec.response(timeout=10)
    if response.type == driver.DEFERRED:
        [answer] = await rec.wait_followups(1, timeout=10)
        assert answer["flags"] & 64
        return message_text(answer)
    assert response.flags & 64
    return message_text(dict(response.data))


async def test_house_fund_refuses_bad_input_and_non_admins(club: Club) -> None:
    admin, member = club.admin, club.players[0]
    service = club.bot.service
    assert service is not None
    shown = await club.text(admin, "house", group="stud-admin")
    assert "Balance: **0**" in shown and "No house hands played yet." in shown
    refused = await club.command(member, "house", group="stud-admin", force=True, fund=500)
    assert refused["flags"] & 64 and "Manage Server" in message_text(refused)
    with pytest.raises(ValueError, match="out of range"):  # Discord's client stops it ...
        await club.command(admin, "house", group="stud-admin", fund=0)
    for bad in ({"fund": 0}, {"fund": -5}, {"days": 0}, {"fund": 10, "days": 10_000}):
        text = await stale_client(club, **bad)  # ... and the bot refuses it in words
        assert "House bankroll" not in text and "must be a whole number" in text, (bad, text)
    assert (await service.house.book(club.guild.id)).balance == 0  # nothing was funded
    more = await club.text(admin, "house", group="stud-admin", fund=250, days=7)
    assert "Added 250 chips." in more and "Balance: **250**" in more
    club.emu.assert_nothing_refused()

"""Mixed stud games from Discord (issue 10, R15.1): an admin sets a rotation of one hand per
game and the table deals stud, razz and stud hi/lo in turn, each titled by its game; then
dealer's choice: the button player picks by button, another player's press is refused,
and a pick whose time runs out keeps the game. Read only as players see it."""

from __future__ import annotations

import re

from dealerbot.tables import Variant
from dealerbot.tables import events as ev

from .driver import Club, buttons, is_result, message_text, passive

BUTTON_PLAYER = re.compile(r"<@(\d+)> is on the button and chooses")


def game_buttons(club: Club) -> tuple[dict, dict[str, str]]:
    """The newest public message with dealer's-choice buttons: game -> custom_id."""
    for message in reversed(club.public_messages()):
        found = {
            b["custom_id"].split(":")[3]: b["custom_id"]
            for b in buttons(message)
            if b.get("custom_id", "").startswith("stud:game:")
        }
        if found:
            return message, found
    last = [(m.get("embeds"), m.get("components")) for m in club.public_messages()[-1:]]
    raise AssertionError(f"no dealer's choice buttons on the table: {last}")


async def play_one(club: Club, title: str) -> str:
    """Deal (already started), check the title, play to the end; the result's text."""
    message, _ = await club.wait_turn()
    assert message["embeds"][0]["title"] == title
    await club.play_hand(passive)
    await club.settle()
    return message_text([m for m in club.public_messages() if is_result(m)][-1])


async def test_a_whole_rotation_then_dealers_choice(club: Club) -> None:
    emu = club.emu
    players = club.players[:3]
    await club.seat(players)
    answer = await club.text(club.admin, "config", group="stud-admin", game="mix", hands_per_game=1)
    assert "Settings changed" in answer
    assert "Mixed: Stud → Razz → Stud Hi/Lo, 1 hand each" in answer
    await club.settle()
    refused = await club.text(club.admin, "config", group="stud-admin", games="stud omaha")
    assert refused.startswith("Nothing was changed: ")  # all or nothing (24d439a)
    assert "unknown game 'omaha' in the list: choose 'stud', 'stud8', 'razz'." in refused
    refused = await club.text(club.admin, "config", group="stud-admin", games="razz, razz")
    assert "each game once" in refused
    notices = [m["content"] for m in club.public_messages() if m["content"]]
    assert any(n.startswith("From the next hand: Mixed: Stud → Razz") for n in notices), notices

    await club.start_hand()
    message, _ = await club.wait_turn()
    assert "Game: Stud — hand 1 of 1, then Razz" in message_text(message)
    await play_one(club, "Stud · 5/10 · hand #1")
    rules = await club.text(players[0], "rules")  # between hands: the game dealt next
    assert rules.startswith("Razz") and "ace-to-five low" in rules
    assert "Mixed: Stud → Razz → Stud Hi/Lo" in rules

    await club.start_hand()
    razz = await play_one(club, "Razz · 5/10 · hand #2")
    showdown = club.recorder.of(ev.Showdown)[-1]
    for hand in showdown.shown:  # named as razz players read them, e.g. "(Seven low)"
        assert hand.high in razz and re.search(r"low\)|Pair|pair", hand.high)
    [pot] = showdown.pots
    [(seat, amount)] = pot.shares  # the whole pot to the best low (R14.1)
    best = next(h for h in showdown.shown if h.seat == seat)
    assert f"**{best.name}** wins {amount} with {best.high}" in razz, razz
    await club.start_hand()
    await play_one(club, "Stud Hi/Lo · 5/10 · hand #3")
    assert [e.variant for e in club.recorder.of(ev.HandEnded)] == [
        Variant.STUD,
        Variant.RAZZ,
        Variant.STUD8,
    ]

    # Dealer's choice, one hand per pick.
    answer = await club.text(
        club.admin, "config", group="stud-admin", game="choice", hands_per_game=1
    )
    assert "Dealer's choice among Stud, Razz or Stud Hi/Lo" in answer
    started = await club.text(players[0], "start")
    assert "chooses the game" in started, started
    await club.settle()
    message, choices = game_buttons(club)
    assert set(choices) == {"stud", "razz", "stud8"}
    chooser = int(BUTTON_PLAYER.search(message_text(message)).group(1))  # type: ignore[union-attr]
    other = next(p for p in players if p.id != chooser)
    # A mention in an embed pings nobody: the button player gets a message of their own.
    [ping] = [m for m in club.public_messages() if "you are on the button" in m["content"]]
    assert ping["content"].startswith(f"<@{chooser}>, you are on the button")
    assert message["embeds"][0]["title"] == "Dealer's choice · waiting"
    refused = await club.click(message, choices["stud"], other)
    assert refused.type == 4 and refused.flags & 64  # private to the presser
    assert "on the button, chooses the next game" in refused.data["content"]
    assert len(club.recorder.of(ev.HandStarted)) == 3  # nothing dealt
    picked = await club.click(message, choices["razz"], club.member(chooser))
    assert "You chose Razz" in picked.data["content"]
    await club.settle()
    # The ping says what was picked (an edit notifies nobody): no message left behind.
    name = club.member(chooser).name
    assert emu.message(ping["id"])["content"] == f"{name} chose Razz"
    text = await play_one(club, "Razz · 5/10 · hand #4")
    assert text

    # The next pick is not made: when its time runs out, razz continues.
    started = await club.text(players[0], "start")
    assert "chooses the game" in started
    await club.settle()
    message, _ = game_buttons(club)
    assert message["embeds"][0]["title"] == "Dealer's choice · waiting"
    assert "chose Razz" not in message_text(message)  # the last pick's note went
    [ping] = [m for m in club.public_messages() if "you are on the button" in m["content"]]
    await club.clock.advance(20)
    await emu.wait_for(lambda: len(club.recorder.of(ev.HandStarted)) == 5, 10)
    await club.settle()
    message, _ = await club.wait_turn()
    assert message["embeds"][0]["title"] == "Razz · 5/10 · hand #5"
    assert "did not choose in time: Razz continues" in message_text(message)
    assert "did not choose in time: Razz continues" in emu.message(ping["id"])["content"]
    assert not [b for b in buttons(message) if b["custom_id"].startswith("stud:game:")]
    await club.play_hand(passive)
    await club.settle()
    assert [e.variant for e in club.recorder.of(ev.HandEnded)][3:] == [Variant.RAZZ] * 2
    emu.assert_nothing_refused()

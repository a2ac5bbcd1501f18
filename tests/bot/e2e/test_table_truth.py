"""The table says only what is true now (issue 22, item 3), read as a player reads it.

Dealer notes stay while they are true; ``sitting out`` is for a player not in the hand;
while someone is all-in the table shows the main pot and each side pot with who is in it;
the result's title names the main pot's winner; an uncalled bet returned is said. (The
dealer's-choice title and ping are in test_mixed_games.)
"""

from __future__ import annotations

import re

from dealerbot.tables import events as ev

from .driver import JSON, Club, action_buttons, aggressive, buttons, is_result, message_text
from .test_faults import time_passes

MAIN_POT = re.compile(r"Main pot (\d+): ([^\n]+)")
SIDE_POT = re.compile(r"Side pot (\d+): ([^\n]+)")


def field(message: JSON, name: str) -> str:
    for embed in message.get("embeds") or []:
        for f in embed.get("fields") or []:
            if f.get("name") == name:
                return str(f.get("value"))
    return ""


def live_table(club: Club) -> JSON:
    """The newest table message of a hand in play (it carries My cards)."""
    for message in reversed(club.public_messages()):
        if any(b["custom_id"].startswith("stud:cards:") for b in buttons(message)):
            return message
    raise AssertionError("no table message of a hand in play")


async def test_side_pots_show_who_is_in_them_and_the_title_names_the_main_pot(
    club: Club,
) -> None:
    short, bob, carol = club.players[:3]
    await club.seat([short], buy_in=100)
    await club.seat([bob, carol], buy_in=400)
    await club.start_hand()
    pots_seen: list[str] = []
    for _ in range(200):
        if club.action_message() is None:
            break
        message, user = await club.wait_turn()
        pot = field(message, "Pot")
        if "Main pot" in pot:
            pots_seen.append(pot)
        await club.click(message, aggressive(action_buttons(message)), club.member(user))
        await club.settle()
    assert pots_seen, "someone was all-in: the table showed the pots"
    main = MAIN_POT.search(pots_seen[-1])
    side = SIDE_POT.search(pots_seen[-1])
    assert main is not None and side is not None, pots_seen[-1]
    assert set(main.group(2).split(", ")) == {short.name, bob.name, carol.name}
    assert set(side.group(2).split(", ")) == {bob.name, carol.name}  # not the all-in player
    [showdown] = club.recorder.of(ev.Showdown)
    main_pot = min(showdown.pots, key=lambda pot: pot.index)
    names = dict(showdown.names)
    main_winners = {names[seat] for seat, _ in main_pot.shares}
    [result] = [m for m in club.public_messages() if is_result(m)]
    title = result["embeds"][0]["title"]
    named = re.sub(r"^.* — ", "", title).removesuffix(" wins").removesuffix(" win")
    assert set(re.split(r", | and ", named)) == main_winners, title
    assert "Side pot (" in message_text(result)
    club.emu.assert_nothing_refused()


async def test_an_uncalled_bet_returned_is_said(club: Club) -> None:
    await club.seat(club.players[:2])
    await club.start_hand()

    def complete_then_fold(options: dict[str, str]) -> str:
        for verb in ("complete", "bet", "fold"):
            if verb in options:
                return options[verb]
        return next(iter(options.values()))

    await club.play_hand(complete_then_fold)
    await club.settle()
    [ended] = club.recorder.of(ev.HandEnded)
    assert ended.returned, "a completion nobody called"
    names = {p.seat: p.name for p in ended.players}
    [result] = [m for m in club.public_messages() if is_result(m)]
    for seat, chips in ended.returned:
        assert f"{chips} returned to {names[seat]}" in message_text(result)
    club.emu.assert_nothing_refused()


async def test_a_player_in_the_hand_sits_out_next_hand_and_notes_stay_while_true(
    club: Club,
) -> None:
    players = club.players[:3]
    await club.seat(players)
    await club.start_hand()
    message, user = await club.wait_turn()
    other = next(p for p in players if p.id != user)
    away = next(b for b in buttons(message) if b["custom_id"].startswith("stud:away:"))
    await club.click(message, away["custom_id"], other)
    await club.settle()
    text = message_text(live_table(club))
    assert f"**{other.name}** · " in text and "*sits out next hand*" in text
    assert "*sitting out*" not in text  # he is still in this hand

    # The time bank note while it runs; gone once he acts.
    await time_passes(club, 46)
    message, user = await club.wait_turn()
    assert "is using the time bank" in field(message, "To act")
    answer = await club.click(message, aggressive(action_buttons(message)), club.member(user))
    await club.settle()
    assert "is using the time bank" not in message_text(answer.data)
    assert "is using the time bank" not in message_text(live_table(club))

    # A timeout's note until the next action.
    message, timed_out = await club.wait_turn()
    await time_passes(club, 46)
    await time_passes(club, 31)
    name = club.member(timed_out).name
    assert f"**{name}** timed out" in field(live_table(club), "To act")
    message, user = await club.wait_turn()
    await club.click(message, aggressive(action_buttons(message)), club.member(user))
    await club.settle()
    assert "timed out" not in field(live_table(club), "To act")
    club.emu.assert_nothing_refused()

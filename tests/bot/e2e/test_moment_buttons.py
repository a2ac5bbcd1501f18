"""Buttons that fit the moment (issue 22, item 2), as a player sees them.

During a hand: the actions, then grey My cards, Sit out / in, Leave, and one Join… (the
buy-in form, the default filled in) while a seat is free. The result keeps Sit out / in and
gains Hand file and Proof, which answer privately what /stud hand and /stud verify would,
with no id to type.
"""

from __future__ import annotations

from dealerbot.tables import events as ev
from tests.bot.emulator import Member

from .driver import DEFERRED, JSON, Club, buttons, is_result, message_text, passive
from .test_histories import download

GREY = 2  # discord's secondary style


async def press(club: Club, message: JSON, label: str, member: Member) -> JSON:
    """Press the button ``label`` on ``message``; the private answer the member sees."""
    [button] = [b for b in buttons(message) if b.get("label") == label]
    rec = await club.emu.click(message["id"], button["custom_id"], member)
    response = await rec.response(timeout=10)
    if response.type == DEFERRED:
        [answer] = await rec.wait_followups(1, timeout=10)
        return answer
    message = rec.original()
    assert message is not None
    return message


async def test_the_table_and_the_result_carry_the_buttons_of_the_moment(club: Club) -> None:
    alice, bob = club.players[:2]
    stranger = club.players[7]
    await club.seat([alice, bob])
    await club.start_hand()
    table, _ = await club.wait_turn()
    labels = [b["label"] for b in buttons(table)]
    actions = len(labels) - 4
    assert actions >= 1
    assert labels[actions:] == ["My cards", "Sit out / in", "Leave", "Join…"], labels
    assert all(b["style"] == GREY for b in buttons(table)[actions : actions + 3])
    assert "Sit down" not in labels and "Buy in…" not in labels

    # The Join… form comes with the default buy-in filled in.
    joined = await club.join_by_button(table, club.players[2])
    assert "You sit down with 100 chips" in joined.content

    await club.play_hand(passive)
    await club.settle()
    [result] = [m for m in club.public_messages() if is_result(m)]
    assert [b["label"] for b in buttons(result)] == ["Sit out / in", "Hand file", "Proof"]
    assert "/stud hand id:" not in message_text(result)  # nothing to type any more
    hand_id = club.recorder.of(ev.HandEnded)[-1].hand_id

    for member in (alice, stranger):
        file = await press(club, result, "Hand file", member)
        assert file["flags"] & 64, "private"
        names = [name for name, _ in await download(file)]
        assert names == [f"hand-{hand_id}.txt", f"hand-{hand_id}.html"]
        proof = await press(club, result, "Proof", member)
        assert proof["flags"] & 64
        assert "Proof that the cards were fixed before the deal" in message_text(proof)
        assert {name for name, _ in await download(proof)} == {
            f"proof-hand-{hand_id}.json",
            f"hand-{hand_id}.html",
        }
    club.emu.assert_nothing_refused()

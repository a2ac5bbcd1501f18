"""The table's own requests go through interaction tokens, which Discord does not count
against the bot's global 50 requests/s: timer-driven edits through the last click on the
message, new hands' messages as follow-ups; REST only where no token is fresh (issue 21).

Counted from the emulator's record of every request the bot sent."""

from __future__ import annotations

from .driver import Club, action_buttons, age_tokens, message_text, passive
from .test_faults import time_passes


def table_rest(club: Club) -> list[str]:
    """Table posts and edits the bot sent by REST (on its global budget)."""
    base = f"/channels/{club.channel.id}/messages"
    return [
        f"{r.method} {r.path}"
        for r in club.emu.requests()
        if r.path.startswith(base) and r.method in ("POST", "PATCH")
    ]


def webhook_requests(club: Club, method: str, tail: str = "") -> list[str]:
    app = club.emu.application_id
    return [
        r.path
        for r in club.emu.requests(method, f"/webhooks/{app}/")
        if r.path.endswith(tail) and r.status == 200
    ]


async def test_timer_edits_and_new_hands_go_through_interaction_tokens(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, user = await club.wait_turn()
    await club.click(message, next(iter(_actions(message).values())), user)  # answered in place
    await club.settle()
    edits_before = len(webhook_requests(club, "PATCH", "/messages/@original"))

    await time_passes(club, 46)  # the turn's time runs out: the time bank starts (an edit)
    shown = club.emu.message(message["id"])
    assert "time bank" in message_text(shown), message_text(shown)
    assert len(webhook_requests(club, "PATCH", "/messages/@original")) == edits_before + 1

    await club.play_hand(passive)
    await time_passes(club, 120)  # the between-hands timer deals hand #2
    message, _ = await club.wait_turn()
    assert "hand #2" in message_text(message)
    followups = webhook_requests(club, "POST")
    assert followups, "hand #2 was not posted as a follow-up"
    assert table_rest(club) == []  # not one table request on the global budget
    club.emu.assert_nothing_refused()


async def test_a_table_nobody_touched_for_fifteen_minutes_is_edited_by_rest(club: Club) -> None:
    await club.seat(club.players[:3])
    await club.start_hand()
    message, user = await club.wait_turn()
    await club.click(message, next(iter(_actions(message).values())), user)
    await club.settle()
    assert table_rest(club) == []
    age_tokens(club)  # every token is too old now

    await time_passes(club, 46)  # the time bank's edit: no token left for it
    rest = table_rest(club)
    assert rest == [f"PATCH /channels/{club.channel.id}/messages/{message['id']}"]
    assert "time bank" in message_text(club.emu.message(message["id"]))
    club.emu.assert_nothing_refused()


def _actions(message: dict[str, object]) -> dict[str, str]:
    """The action buttons but fold (the hand goes on)."""
    buttons = action_buttons(message)
    assert buttons, message
    return {verb: cid for verb, cid in buttons.items() if verb != "fold"} or buttons

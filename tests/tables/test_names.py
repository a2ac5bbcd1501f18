"""Display names are cleaned once, by the table service, for every view and event."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from dealerbot.tables import events as ev
from dealerbot.tables.seating import MAX_NAME, clean_name

from .helpers import CHANNEL, GUILD, Harness

FORGED = "Eve\n▶ **Mallory** (3)\u200b\u202eevil\u2066"
INVISIBLE = frozenset({"Cc", "Cf", "Zl", "Zp"})


def visible(text: str) -> bool:
    return not any(unicodedata.category(c) in INVISIBLE for c in text)


async def test_a_forged_name_is_one_clean_line_everywhere(harness: Harness) -> None:
    h = harness
    await h.service.join(GUILD, CHANNEL, 1, FORGED, None)
    await h.service.join(GUILD, CHANNEL, 2, "  Bob \t\t the\u00a0builder  ", None)
    await h.service.start(GUILD, CHANNEL)
    view = await h.service.table_view(GUILD, CHANNEL)
    names = {seat.user_id: seat.name for seat in view.seats}
    assert names == {1: "Eve ▶ **Mallory** (3)evil", 2: "Bob the builder"}
    [joined, _] = h.recorder.of(ev.PlayerJoined)
    assert joined.name == names[1]
    [started] = h.recorder.of(ev.HandStarted)
    assert {p.user_id: p.name for p in started.players} == names
    for line in view.last_actions:
        assert visible(line) and "\n" not in line


async def test_an_invisible_or_long_name_still_shows_something_short(harness: Harness) -> None:
    h = harness
    await h.service.join(GUILD, CHANNEL, 1234, "\u200b\u200d\u202e \n", None)
    await h.service.join(GUILD, CHANNEL, 2, "x" * 40 + "tail", None)
    view = await h.service.table_view(GUILD, CHANNEL)
    names = {seat.user_id: seat.name for seat in view.seats}
    assert names[1234] == "player 1234"
    assert names[2] == "x" * MAX_NAME


@given(st.text(max_size=80))
def test_clean_names_are_short_visible_single_spaced(name: str) -> None:
    cleaned = clean_name(name)
    assert len(cleaned) <= MAX_NAME
    assert visible(cleaned)
    assert cleaned == cleaned.strip() and "  " not in cleaned
    assert clean_name(cleaned) == cleaned

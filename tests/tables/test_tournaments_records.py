"""A tournament hand's records: in the hand log with its tournament and level, in
``/stud history`` like a cash hand, and in its PokerStars file with the site's tournament
header (``Tournament #ID, <buy-in> <game> - Level IV (50/100) - <time>``), which our reader
reads back; a mix names PokerStars' rotation (Triple Stud)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from dealerbot.history.pokerstars import parse_hand, read_history_text
from dealerbot.tables import events as ev

from ..history.real_hands import history_files
from .helpers import CHANNEL, GUILD, Harness, make_harness
from .tournament_helpers import passive, play_turns

ALICE, BOB = 11, 12
TIME = r"\d{4}/\d{2}/\d{2} (?:1?\d|2[0-3]):[0-5]\d:[0-5]\d"
# The first line of a tournament hand, as PokerStars writes it (the real files below).
HEADER = re.compile(
    r"^PokerStars (?:Home Game )?Hand #\d+: (?:\{[^}]*\} )?Tournament #(?P<id>\d+), "
    r"(?P<buy_in>\S+) (?:(?P<currency>[A-Z]{3}) )?(?:(?P<mix>[A-Za-z0-9 -]+) \()?"
    r"(?P<game>7 Card Stud(?: Hi/Lo)? Limit|Razz Limit)\)? - (?:Match Round [IVX]+, )?"
    r"Level (?P<level>[IVXLC]+) \((?P<small>\d+)/(?P<big>\d+)\) - "
    rf"{TIME} [A-Z]{{2,4}}(?: \[{TIME} ET\])?$"
)


@pytest.fixture
async def h(db_url: str) -> AsyncIterator[Harness]:
    harness = await make_harness(db_url)
    try:
        yield harness
    finally:
        await harness.close()


def test_the_real_tournament_headers_have_the_shape() -> None:
    """The pattern is the site's: every real stud tournament header since 2013 matches."""
    found = 0
    for path in history_files():
        for line in read_history_text(path).replace("\r\n", "\n").split("\n"):
            line = line.lstrip("\ufeff").rstrip()
            if line.startswith("PokerStars ") and "Tournament #" in line and "Stud" in line:
                if "2009/" in line:  # the old upper-case form
                    continue
                assert HEADER.match(line), line
                found += 1
    assert found >= 3


async def one_hand(h: Harness, game: str) -> ev.HandEnded:
    await h.service.tournaments.create(GUILD, CHANNEL, 1, seats=2, game=game, buy_in=250)
    for user in (ALICE, BOB):
        await h.service.tournaments.register(GUILD, CHANNEL, user, f"p{user}")
    await play_turns(
        h,
        lambda t: passive([o.kind for o in t.options]),
        until=lambda: bool(h.recorder.of(ev.HandEnded)),
    )
    return h.recorder.of(ev.HandEnded)[0]


@pytest.mark.parametrize(
    ("game", "mix", "title"),
    [("stud", None, "7 Card Stud Limit"), ("mix", "Triple Stud", "7 Card Stud Limit")],
)
async def test_a_tournament_hand_file_has_the_sites_tournament_header(
    h: Harness, game: str, mix: str | None, title: str
) -> None:
    ended = await one_hand(h, game)
    rows = await h.fetch(
        "SELECT tournament_id, tournament_level FROM hands WHERE id = ?", (ended.hand_id,)
    )
    tid, number = rows[0]
    assert number == 1
    files = await h.service.records.hand_files(GUILD, ALICE, ended.hand_id)
    text = files[0].text
    first, table = text.split("\n")[:2]
    match = HEADER.match(first)
    assert match, first
    assert (int(match["id"]), match["buy_in"], match["mix"], match["game"]) == (
        tid,
        "250+0",
        mix,
        title,
    )
    assert (match["level"], match["small"], match["big"]) == ("I", "25", "50")
    assert table == f"Table '{tid} 1' 2-max"
    hand = parse_hand(text)
    assert hand.tournament_id == tid and (hand.stakes.small_bet, hand.stakes.big_bet) == (25, 50)
    lines = await h.service.records.history(GUILD, ALICE)
    assert [line.hand_id for line in lines] == [ended.hand_id]  # in /stud history as any hand

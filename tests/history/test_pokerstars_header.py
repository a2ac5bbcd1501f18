"""Our PokerStars header has the shape of the site's own, for stud, stud/8 and razz, and its
time is the one a tracker stores: PokerStars writes the player's zone first and US Eastern
time in brackets (``2011/04/18 2:21:35 CET [2011/04/17 20:21:35 ET]``), and trackers read
the bracket, or take a line without one as Eastern time."""

from __future__ import annotations

import dataclasses
import re
from datetime import UTC, datetime, timedelta

import pytest

from dealerbot.history.model import Game
from dealerbot.history.pokerstars import ALL_GAMES, parse_hand, read_history_text
from dealerbot.history.pokerstars_writer import GAME_TITLES, pokerstars_time, write_hand

from .real_hands import history_files
from .test_pokerstars_writer import dealerbot_hand
from .tracker_reading import EASTERN, tracker_start

# PokerStars' time: zero-padded date, the hour without a leading zero, a zone; a zone other
# than ET is followed by the same moment in ET in brackets.
TIME = r"\d{4}/\d{2}/\d{2} (?:1?\d|2[0-3]):[0-5]\d:[0-5]\d"
STAMP = rf"(?P<time>{TIME}) (?:ET|(?P<zone>[A-Z]{{2,4}}) \[(?P<eastern>{TIME}) ET\])"
# A cash game's first line (tournaments add their number, buy-in and level).
STAKE = r"[$€£]?\d+(?:\.\d\d)?"
TABLE_LINE = re.compile(r"^Table '[^']+' [2-9]-max$")
GAMES = {Game.STUD: "7 Card Stud Limit", Game.STUD8: "7 Card Stud Hi/Lo Limit"}


def first_line(game_title: str) -> re.Pattern[str]:
    stakes = rf"\({STAKE}/{STAKE}(?: [A-Z]{{3}})?\)"
    return re.compile(
        rf"^PokerStars (?:Hand|Game) #\d+:  {re.escape(game_title)} {stakes} - {STAMP}$"
    )


# The site's form before 2009 (one file keeps a 2008 hand): ``2008/02/03 - 22:04:15 (ET)``.
OLD_STAMP = re.compile(r" - \d{4}/\d{2}/\d{2} - \d{2}:\d{2}:\d{2} \(ET\)$")


def site_headers() -> dict[Game, list[tuple[str, str]]]:
    """The first line and table line of every real cash-game stud and stud/8 hand."""
    found: dict[Game, list[tuple[str, str]]] = {Game.STUD: [], Game.STUD8: []}
    for path in history_files():
        lines = read_history_text(path).replace("\r\n", "\n").split("\n")
        for index, line in enumerate(lines):
            line = line.lstrip("\ufeff").rstrip()
            if not line.startswith("PokerStars ") or "Tournament" in line:
                continue
            for game, title in sorted(GAMES.items(), key=lambda item: -len(item[1])):
                if f"  {title} (" in line:
                    found[game].append((line, lines[index + 1].rstrip()))
                    break
    return found


def test_the_real_cash_headers_have_the_shape() -> None:
    """The shapes are the site's: every real cash-game header since 2009 matches them (both
    forms of the time among them), so the test below compares our header with PokerStars'
    own."""
    headers = site_headers()
    zones = set()
    for game, pairs in headers.items():
        modern = [(line, table) for line, table in pairs if not OLD_STAMP.search(line)]
        assert len(pairs) - len(modern) <= 1
        assert len(modern) >= 8, game
        for line, _ in modern:
            match = first_line(GAMES[game]).match(line)
            assert match, line
            zones.add(match["zone"])
        for _, table in pairs:
            assert TABLE_LINE.match(table), table
    assert None in zones and "CET" in zones  # plain ET, and a zone with the ET bracket


def test_razz_is_named_as_the_site_names_it() -> None:
    """No real razz cash hand is kept; the 8-Game file's razz hands name the game
    ``Razz Limit``, which is what our header writes in the same place as the stud names."""
    eight_game = next(path for path in history_files() if "8-Game" in path.name)
    assert "8-Game (Razz Limit)" in read_history_text(eight_game)
    assert GAME_TITLES[Game.RAZZ] == "Razz Limit"


@pytest.mark.parametrize("game", list(Game))
def test_our_header_has_the_sites_shape(game: Game) -> None:
    text = write_hand(dealerbot_hand(game))
    line, table = text.splitlines()[:2]
    match = first_line(GAME_TITLES[game]).match(line)
    assert match, line
    assert match["zone"] == "UTC" and match["eastern"] == "2026/12/01 10:20:00"
    assert TABLE_LINE.match(table), table
    assert parse_hand(text, ALL_GAMES).started == "2026/12/01 15:20:00 UTC [2026/12/01 10:20:00 ET]"


@pytest.mark.parametrize(
    ("when", "written"),
    [
        # winter: Eastern Standard Time, UTC-5
        (datetime(2026, 11, 30, 14, 13, 20, tzinfo=UTC),
         "2026/11/30 14:13:20 UTC [2026/11/30 9:13:20 ET]"),
        # summer: Eastern Daylight Time, UTC-4, and the day before in New York
        (datetime(2026, 7, 1, 3, 5, tzinfo=UTC), "2026/07/01 3:05:00 UTC [2026/06/30 23:05:00 ET]"),
        # either side of the spring change (2026-03-08, 2:00 EST becomes 3:00 EDT)
        (datetime(2026, 3, 8, 6, 59, 59, tzinfo=UTC),
         "2026/03/08 6:59:59 UTC [2026/03/08 1:59:59 ET]"),
        (datetime(2026, 3, 8, 7, 0, tzinfo=UTC), "2026/03/08 7:00:00 UTC [2026/03/08 3:00:00 ET]"),
        # a start given in another zone is written in UTC and ET all the same
        (datetime(2026, 12, 1, 9, 5, 7, tzinfo=EASTERN),
         "2026/12/01 14:05:07 UTC [2026/12/01 9:05:07 ET]"),
    ],
)  # fmt: skip
def test_the_time_is_written_as_the_site_writes_it(when: datetime, written: str) -> None:
    assert pokerstars_time(when) == written


def test_a_tracker_stores_the_hands_real_start() -> None:
    """Every minute of a year (sampled) read back as a tracker reads it is the moment the
    hand started, except the hour New York's clock repeats in November: ET names it twice,
    and PokerStars' format cannot tell the two apart."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    repeated = (datetime(2026, 11, 1, 5, tzinfo=UTC), datetime(2026, 11, 1, 7, tzinfo=UTC))
    step = timedelta(minutes=37, seconds=11)
    when = start
    checked = 0
    while when < start + timedelta(days=366):
        header = f"PokerStars Hand #1:  7 Card Stud Limit (5/10) - {pokerstars_time(when)}"
        stored = tracker_start(header)
        if repeated[0] <= when < repeated[1]:
            assert stored in (when, when - timedelta(hours=1))
        else:
            assert stored == when, header
        when += step
        checked += 1
    assert checked > 14_000


def test_our_reader_reads_both_forms_of_the_time() -> None:
    for stamp in (
        "2026/11/30 14:13:20 UTC [2026/11/30 9:13:20 ET]",
        "2026/11/30 14:13:20 UTC",
        "2009/11/26 10:08:43 ET",
    ):
        hand = dataclasses.replace(dealerbot_hand(Game.STUD), started=stamp)
        text = write_hand(hand)
        assert text.split("\n", 1)[0].endswith(f" - {stamp}")
        assert parse_hand(text) == hand

"""The ladder of levels (issue 18): the issue's 16 levels, the rule beyond them, the stud
ratios every level keeps, the engine's R1.2 stakes, the mix's game per level, the texts."""

from __future__ import annotations

from fractions import Fraction

import pytest

from dealerbot.engine import Stakes, Variant
from dealerbot.tournament import DEFAULT_MIX, Level, TournamentError, level, level_line, roman
from dealerbot.tournament.levels import DECADE, LADDER, clock_text, pokerstars_level

STUD = (Variant.STUD,)

# The issue's default ladder, written from the issue (limits / ante / bring-in).
ISSUE_LADDER = """
25/50 5 10; 30/60 5 10; 40/80 10 15; 50/100 10 15; 60/120 10 20; 80/160 15 25;
100/200 20 30; 150/300 30 45; 200/400 40 60; 250/500 50 75; 300/600 60 90;
400/800 80 120; 500/1000 100 150; 600/1200 120 180; 800/1600 160 240; 1000/2000 200 300
"""
CHECKED_LEVELS = range(1, 80)  # far past any tournament's end: 8 x 100,000 chips at most


def level_at(number: int) -> Level:
    return level(number, STUD)


def issue_levels() -> list[tuple[int, int, int, int]]:
    rows = []
    for item in ISSUE_LADDER.replace("\n", " ").split(";"):
        limits, ante, bring_in = item.split()
        small, big = limits.split("/")
        rows.append((int(small), int(big), int(ante), int(bring_in)))
    return rows


def test_the_first_sixteen_levels_are_the_issues() -> None:
    expected = issue_levels()
    assert len(expected) == 16
    got = [(lv.small_bet, lv.big_bet, lv.ante, lv.bring_in) for lv in map(level_at, range(1, 17))]
    assert got == expected


def test_beyond_sixteen_the_ladder_repeats_the_decade_of_levels_7_to_16() -> None:
    """The rule for level 17 on is the one levels 7-16 already follow (x 10 per decade)."""
    assert [level_at(n).small_bet for n in range(7, 16)] == [d * 10 for d in DECADE]
    for n in range(7, 80):
        later = level_at(n + len(DECADE))
        assert later.small_bet == 10 * level_at(n).small_bet
    for n in range(7, 80):  # ante a fifth, bring-in three tenths, exactly, as levels 7-16
        lv = level_at(n)
        assert (5 * lv.ante, 10 * lv.bring_in) == (lv.small_bet, 3 * lv.small_bet)
    assert [level_at(n).small_bet for n in range(16, 21)] == [1_000, 1_500, 2_000, 2_500, 3_000]
    assert (level_at(17).ante, level_at(17).bring_in) == (300, 450)
    assert level_at(25).small_bet == 10_000


@pytest.mark.parametrize("number", CHECKED_LEVELS)
def test_every_level_keeps_the_stud_ratios_and_valid_stakes(number: int) -> None:
    lv = level_at(number)
    small = lv.small_bet
    assert Fraction(1, 6) <= Fraction(lv.ante, small) <= Fraction(1, 4)  # about a fifth
    assert Fraction(3, 10) <= Fraction(lv.bring_in, small) <= Fraction(2, 5)
    assert lv.big_bet == 2 * small
    assert lv.stakes == Stakes(
        ante=lv.ante, bring_in=lv.bring_in, small_bet=small, big_bet=2 * small
    )
    if number > 1:
        before = level_at(number - 1)
        assert small > before.small_bet  # strictly rising
        assert lv.ante >= before.ante and lv.bring_in >= before.bring_in
        assert Fraction(6, 5) <= Fraction(small, before.small_bet) <= Fraction(3, 2)


def test_the_ladder_table_is_written_once() -> None:
    assert [level_at(n).small_bet for n in range(1, 17)] == [row[0] for row in LADDER]


def test_a_mix_deals_one_game_per_level_in_its_order() -> None:
    games = [level(n, DEFAULT_MIX).game for n in range(1, 8)]
    s, e, r = Variant.STUD, Variant.STUD8, Variant.RAZZ
    assert games == [s, e, r, s, e, r, s]
    assert [level(n, (r, s)).game for n in (1, 2, 3)] == [r, s, r]
    assert level(5, DEFAULT_MIX).small_bet == level(5, STUD).small_bet  # same stakes (R15.1)


@pytest.mark.parametrize("wrong", [0, -1, True, 1.0])
def test_levels_start_at_one(wrong: object) -> None:
    with pytest.raises(TournamentError, match="levels are numbered from 1"):
        level(wrong, STUD)  # type: ignore[arg-type]


def test_a_level_needs_a_game() -> None:
    with pytest.raises(TournamentError, match="a level needs a game"):
        level(1, ())


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (1, "I"),
        (4, "IV"),
        (9, "IX"),
        (14, "XIV"),
        (16, "XVI"),
        (40, "XL"),
        (49, "XLIX"),
        (90, "XC"),
        (400, "CD"),
        (1994, "MCMXCIV"),
        (3999, "MMMCMXCIX"),
    ],
)
def test_roman_numerals(number: int, text: str) -> None:
    assert roman(number) == text


def test_roman_numerals_start_at_one() -> None:
    with pytest.raises(TournamentError, match="Roman numerals start at 1"):
        roman(0)


def test_the_pokerstars_header_names_the_level_in_roman_numerals() -> None:
    assert pokerstars_level(level_at(4)) == "Level IV (50/100)"
    assert pokerstars_level(level_at(16)) == "Level XVI (1000/2000)"  # no thousands comma


def test_the_level_line() -> None:
    assert (
        level_line(level_at(4), 192)
        == "Level 4 · 50/100 · ante 10 · bring-in 15 · next level in 3:12"
    )
    assert (
        level_line(level(3, DEFAULT_MIX), 60.5, mixed=True)
        == "Level 3 · Razz · 40/80 · ante 10 · bring-in 15 · next level in 1:01"
    )
    assert level_line(level_at(17), 600, paused=True) == (
        "Level 17 · 1,500/3,000 · ante 300 · bring-in 450 · clock paused, 10:00 left"
    )


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0:00"), (0.2, "0:01"), (59, "0:59"), (60, "1:00"), (3600, "60:00")]
)
def test_clock_text_counts_a_part_second_as_whole(seconds: float, text: str) -> None:
    assert clock_text(seconds) == text

"""The stakes whose hand files trackers import (FPDB's table of PokerStars stakes), and the
line the settings confirmation adds at any other small bet."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dealerbot.history.model import Game, Stakes
from dealerbot.history.pokerstars_writer import write_hand
from dealerbot.tables import (
    TRACKER_BIG_BETS,
    TRACKER_STAKES,
    TableConfig,
    nearest_tracker_small_bets,
    tracker_stakes_note,
)

from ..history.test_pokerstars_writer import dealerbot_hand
from ..history.tracker_reading import tracker_big_bet


def config(small_bet: int) -> TableConfig:
    return TableConfig(
        ante=1, bring_in=1, small_bet=small_bet, min_buyin=10 * small_bet,
        max_buyin=10 * small_bet,
    )  # fmt: skip


def test_the_list_is_fpdbs_whole_number_big_bets() -> None:
    """PokerStarsToFpdb.py's Lim_Blinds keys without cents, in order (the source: fpdb-3)."""
    assert TRACKER_BIG_BETS == (
        1, 2, 4, 6, 8, 10, 16, 20, 30, 40, 50, 60, 80, 100, 150, 200, 400, 500, 600, 800,
        1000, 2000, 4000, 10000, 20000, 40000,
    )  # fmt: skip
    assert list(TRACKER_STAKES) == [
        1, 2, 3, 4, 5, 8, 10, 15, 20, 25, 30, 40, 50, 75, 100, 200, 250, 300, 400, 500,
        1000, 2000, 5000, 10000, 20000,
    ]  # fmt: skip


@pytest.mark.parametrize("small_bet", [small for small in TRACKER_STAKES if small >= 2])
def test_each_importable_small_bet_deals_the_listed_big_bet(small_bet: int) -> None:
    table = config(small_bet)
    assert table.big_bet == TRACKER_STAKES[small_bet]
    assert tracker_stakes_note(table) is None


def test_the_note_agrees_with_what_a_tracker_finds_in_our_file() -> None:
    """For every small bet up to 1,000 (and a few beyond), the note is given exactly when the
    big bet our header writes is not one the tracker looks up."""
    for small_bet in [*range(2, 1001), 1500, 5000, 7000, 20000, 30000, 500_000]:
        table = config(small_bet)
        stakes = Stakes(table.small_bet, table.big_bet, ante=1, bring_in=1)
        hand = dataclasses.replace(dealerbot_hand(Game.STUD), stakes=stakes)
        header = write_hand(hand).split("\n", 1)[0]
        imports = int(tracker_big_bet(header)) in TRACKER_BIG_BETS
        assert (tracker_stakes_note(table) is None) == imports, small_bet


def test_the_note_names_the_stakes_and_the_nearest_that_import() -> None:
    note = tracker_stakes_note(config(6))
    assert note == (
        "Hand histories at 6/12 will not import into FPDB, and may not into other trackers "
        "such as PokerTracker: they know only PokerStars' own stakes. "
        "The nearest small bets that import: 5 (5/10) or 8 (8/16)."
    )
    assert nearest_tracker_small_bets(60) == (50, 75)
    assert nearest_tracker_small_bets(30_000) == (20_000,)  # above the list: only below
    last = tracker_stakes_note(config(500_000))
    assert last is not None and last.endswith("import: 20000 (20000/40000).")
    assert tracker_stakes_note(config(5)) is None  # the default table imports
    assert tracker_stakes_note(TableConfig()) is None


def test_the_readme_lists_the_same_small_bets() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("Small bets whose files import:") :]
    listed = section[: section.index("(the big bet")].split(":", 1)[1]
    assert [int(n) for n in listed.replace(",", " ").split()] == [
        small for small in TRACKER_STAKES if small >= 2
    ]

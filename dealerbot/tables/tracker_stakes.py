"""The stakes whose hand histories a tracker imports, and the house's wording about them.

Our PokerStars files import into trackers, but trackers know only PokerStars' own
fixed-limit stakes: FPDB's PokerStars importer looks a cash game's big bet up in its table of
the site's stakes (``Lim_Blinds`` in ``PokerStarsToFpdb.py``, fpdb-3) and drops a hand whose
big bet is not there (``Lim_Blinds has no lookup for '12'`` at 6/12). Our files write play
chips as whole numbers, so the whole-number entries of that table are the ones that count.
"""

from __future__ import annotations

from .config import TableConfig

__all__ = [
    "TRACKER_BIG_BETS",
    "TRACKER_STAKES",
    "imports_into_trackers",
    "nearest_tracker_small_bets",
    "tracker_stakes_note",
]

TRACKER_BIG_BETS: tuple[int, ...] = (
    1, 2, 4, 6, 8, 10, 16, 20, 30, 40, 50, 60, 80, 100, 150, 200, 400, 500, 600, 800,
    1000, 2000, 4000, 10_000, 20_000, 40_000,
)  # fmt: skip
"""The whole-number big bets FPDB's PokerStars importer knows for fixed-limit cash games."""

TRACKER_STAKES: dict[int, int] = {big // 2: big for big in TRACKER_BIG_BETS if big % 2 == 0}
"""Small bet to big bet, for the importable stakes a table can deal (its big bet is twice
the small bet: :attr:`TableConfig.big_bet`)."""


def imports_into_trackers(config: TableConfig) -> bool:
    """Whether hand files at this table's stakes import into FPDB."""
    return config.big_bet in TRACKER_BIG_BETS


def nearest_tracker_small_bets(small_bet: int) -> tuple[int, ...]:
    """The importable small bets closest below and above ``small_bet`` (one of them at the
    ends of the list)."""
    below = [small for small in TRACKER_STAKES if small < small_bet]
    above = [small for small in TRACKER_STAKES if small > small_bet]
    return tuple(small for small in (max(below, default=0), min(above, default=0)) if small)


def tracker_stakes_note(config: TableConfig) -> str | None:
    """What the settings confirmation adds when hand files at these stakes will not import
    into trackers; None when they do."""
    if imports_into_trackers(config):
        return None
    nearest = " or ".join(
        f"{small} ({small}/{TRACKER_STAKES[small]})"
        for small in nearest_tracker_small_bets(config.small_bet)
    )
    return (
        f"Hand histories at {config.small_bet}/{config.big_bet} will not import into FPDB, and "
        "may not into other trackers such as PokerTracker: they know only PokerStars' own "
        f"stakes. The nearest small bets that import: {nearest}."
    )

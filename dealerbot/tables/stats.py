"""Player statistics and the winnings leaderboard: what ``/stud stats`` and
``/stud leaderboard by:winnings`` show.

The counts come from the rows recorded at settlement (:mod:`.stats_record`); this facet
adds the house's wording: which periods there are (UTC calendar: today, this week from
Monday, this month, all time), what each percentage is a share of, and that stud and stud/8
high hands compare with each other but not with razz lows. It takes no table lock: those
hands are over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealerbot.engine import CardError, StakesError, Variant, parse_cards, shown_hand_name
from dealerbot.store import stats as stats_db
from dealerbot.store.boards import Seek as BoardSeek
from dealerbot.store.db import Database
from dealerbot.store.stats import Period, PeriodKeys, VariantTotals, WinningsEntry, WinningsPage

from . import errors
from .checks import check_ids, is_int
from .refusals import store_errors_as_table_errors

MAX_SCORE = 2**62  # a seek's score: any net a board can hold, and BIGINT-safe

PERIOD_NAMES = {
    "today": Period.TODAY,
    "week": Period.WEEK,
    "month": Period.MONTH,
    "all": Period.ALL,
}
PERIOD_TITLES = {
    Period.TODAY: "today",
    Period.WEEK: "this week",
    Period.MONTH: "this month",
    Period.ALL: "all time",
}

__all__ = [
    "PERIOD_NAMES",
    "PERIOD_TITLES",
    "BestHand",
    "Period",
    "PlayerStats",
    "StatsReport",
    "WinningsEntry",
    "WinningsPage",
    "parse_period",
]


def parse_period(text: str | None) -> Period:
    """``today``, ``week``, ``month`` or ``all`` (default: all)."""
    if text is None:
        return Period.ALL
    period = PERIOD_NAMES.get(text.strip().lower())
    if period is None:
        raise errors.TableError("The period must be today, week, month or all.")
    return period


@dataclass(frozen=True, slots=True)
class BestHand:
    """The best hand a player showed in one family of games (``low``: razz's lows)."""

    name: str
    low: bool


@dataclass(frozen=True, slots=True)
class StatsReport:
    """One player's play in a period (and variant, if one was asked for).

    Percentages are of hands played, except ``won_showdown_pct`` (of showdowns); None when
    there is nothing to divide by.
    """

    user_id: int
    period: Period
    variant: Variant | None
    hands: int
    net: int
    won_hands: int
    entered_third: int
    raised_third: int
    saw_seventh: int
    showdowns: int
    won_showdowns: int
    biggest_win: int
    best_hands: tuple[BestHand, ...]

    @staticmethod
    def _pct(part: int, whole: int) -> float | None:
        return None if whole == 0 else 100.0 * part / whole

    @property
    def entered_third_pct(self) -> float | None:
        return self._pct(self.entered_third, self.hands)

    @property
    def raised_third_pct(self) -> float | None:
        return self._pct(self.raised_third, self.hands)

    @property
    def saw_seventh_pct(self) -> float | None:
        return self._pct(self.saw_seventh, self.hands)

    @property
    def showdown_pct(self) -> float | None:
        return self._pct(self.showdowns, self.hands)

    @property
    def won_showdown_pct(self) -> float | None:
        return self._pct(self.won_showdowns, self.showdowns)


def combine(
    user_id: int, period: Period, variant: Variant | None, totals: Sequence[VariantTotals]
) -> StatsReport:
    """Sum the per-variant totals; the best hand per family (high hands, razz lows)."""
    best: dict[bool, tuple[int, str]] = {}
    for t in totals:
        if t.best_rank is None or t.best_cards is None:
            continue
        try:
            variant_of = Variant.parse(t.variant)
            name = shown_hand_name(variant_of, parse_cards(t.best_cards))
        except (StakesError, CardError, ValueError):
            continue  # a game or cards this release cannot read: not shown
        low = variant_of.rules.lowball
        if low not in best or t.best_rank > best[low][0]:
            best[low] = (t.best_rank, name)
    return StatsReport(
        user_id=user_id,
        period=period,
        variant=variant,
        hands=sum(t.hands for t in totals),
        net=sum(t.net for t in totals),
        won_hands=sum(t.won_hands for t in totals),
        entered_third=sum(t.entered_third for t in totals),
        raised_third=sum(t.raised_third for t in totals),
        saw_seventh=sum(t.saw_seventh for t in totals),
        showdowns=sum(t.showdowns for t in totals),
        won_showdowns=sum(t.won_showdowns for t in totals),
        biggest_win=max((t.biggest_win for t in totals), default=0),
        best_hands=tuple(BestHand(best[low][1], low) for low in (False, True) if low in best),
    )


def check_seek(seek: BoardSeek | None) -> BoardSeek | None:
    """A board row's (score, user id), as a button carried it back: whole numbers only."""
    if seek is None:
        return None
    score, user_id = seek
    if not (is_int(score) and abs(score) <= MAX_SCORE):
        raise errors.TableError("That page is out of date; open the leaderboard again.")
    check_ids(user_id)
    return BoardSeek(score, user_id)


class PlayerStats:
    """``service.stats``: reports and the winnings board, by (guild id, user id)."""

    def __init__(self, db: Database) -> None:
        self.db = db  # its clock says what "today" is, as for the daily bonus

    async def report(
        self,
        guild_id: int,
        user_id: int,
        *,
        period: Period = Period.ALL,
        variant: Variant | None = None,
    ) -> StatsReport:
        check_ids(guild_id, user_id)
        since = PeriodKeys.at(self.db.now()).first_day(period)
        with store_errors_as_table_errors():
            totals = await stats_db.player_totals(
                self.db,
                guild_id,
                user_id,
                since_day=since,
                variant=None if variant is None else variant.value,
            )
        return combine(user_id, period, variant, totals)

    async def winnings(
        self,
        guild_id: int,
        period: Period,
        page: int = 1,
        *,
        after: BoardSeek | None = None,
        before: BoardSeek | None = None,
    ) -> WinningsPage:
        """Players ranked by net chips won at the tables in ``period``: a page by number,
        or the page after/before a row of the page shown (no walk past the rows above)."""
        check_ids(guild_id)
        if not is_int(page) or page < 1:
            raise errors.TableError("The page must be a whole number from 1.")
        with store_errors_as_table_errors():
            return await stats_db.winnings_page(
                self.db, guild_id, period, page, after=check_seek(after), before=check_seek(before)
            )

    async def winnings_rank(
        self, guild_id: int, user_id: int, period: Period
    ) -> WinningsEntry | None:
        check_ids(guild_id, user_id)
        with store_errors_as_table_errors():
            return await stats_db.winnings_rank(self.db, guild_id, user_id, period)

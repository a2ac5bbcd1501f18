"""Player statistics: each finished hand's player facts written down, and what ``/stud stats``
and ``/stud leaderboard by:winnings`` show of them.

The facts are the engine's (:func:`dealerbot.engine.seat_facts`); :func:`player_rows` only
maps seats to users and :func:`write` hands the rows to the store, in the same transaction
as the settlement's chips. Hands finished before the stats tables existed are replayed from
the hand log by :func:`backfill` (run by ``dealerbot db upgrade`` and at every start: a
migration cannot run the engine); it is idempotent, since it only takes finished hands that
have no row yet. :class:`PlayerStats` (``service.stats``) adds the house's wording: which
periods there are (UTC calendar: today, this week from Monday, this month, all time), what
each percentage is a share of, and that stud and stud/8 high hands compare with each other
but not with razz lows. It takes no table lock: those hands are over.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dealerbot.engine import (
    Action,
    ActionKind,
    CardError,
    EngineError,
    HandState,
    PlayNotes,
    SeatSpec,
    StakesError,
    Variant,
    apply,
    format_cards,
    note_events,
    parse_cards,
    parse_deck_text,
    seat_facts,
    shown_hand_name,
    start_hand,
)
from dealerbot.store import hand_actions as actions_db
from dealerbot.store import stats as stats_db
from dealerbot.store import tournament_results as results_db
from dealerbot.store.boards import Seek as BoardSeek
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord
from dealerbot.store.stats import (
    SECONDS_PER_DAY,
    Period,
    PeriodKeys,
    PlayerHandRow,
    VariantTotals,
    WinningsEntry,
    WinningsPage,
)
from dealerbot.store.tournament_results import TournamentTotals

from . import errors
from .errors import check_ids, is_int, store_errors_as_table_errors
from .settings import TableConfig

log = logging.getLogger(__name__)

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
    "TournamentBoardEntry",
    "TournamentBoardPage",
    "TournamentTotals",
    "WinningsEntry",
    "WinningsPage",
    "backfill",
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


NO_TOURNAMENTS = TournamentTotals(played=0, cashes=0, wins=0, net=0)


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
    tournament: bool = False  # these are his tournament hands (else his cash hands)
    tournaments: TournamentTotals = NO_TOURNAMENTS  # Sit & Gos played, cashed, won, net

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


@dataclass(frozen=True, slots=True)
class TournamentBoardEntry:
    rank: int
    user_id: int
    net: int
    played: int
    cashes: int
    wins: int


@dataclass(frozen=True, slots=True)
class TournamentBoardPage:
    guild_id: int
    period: Period
    page: int  # 1-based
    pages: int
    total_players: int
    entries: tuple[TournamentBoardEntry, ...]


def _seconds(day: int | None) -> float | None:
    """The first second of a UTC day (None: all time)."""
    return None if day is None else float(day * SECONDS_PER_DAY)


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
        tournament: bool = False,
    ) -> StatsReport:
        """His cash hands (``tournament``: his tournament hands, counted apart) in the
        period, and his Sit & Gos there (played, cashes, wins, net)."""
        check_ids(guild_id, user_id)
        since = PeriodKeys.at(self.db.now()).first_day(period)
        with store_errors_as_table_errors():
            totals = await stats_db.player_totals(
                self.db,
                guild_id,
                user_id,
                since_day=since,
                variant=None if variant is None else variant.value,
                tournament=tournament,
            )
            record = await results_db.player_record(
                self.db, guild_id, user_id, since=_seconds(since)
            )
        report = combine(user_id, period, variant, totals)
        return dataclasses.replace(report, tournament=tournament, tournaments=record)

    async def tournament_board(
        self, guild_id: int, period: Period, page: int = 1
    ) -> TournamentBoardPage:
        """Players ranked by net Sit & Go winnings (prizes and refunds less buy-ins) in
        ``period``, a page of them (competition ranks: equal nets share one)."""
        check_ids(guild_id)
        if not is_int(page) or page < 1:
            raise errors.TableError("The page must be a whole number from 1.")
        since = PeriodKeys.at(self.db.now()).first_day(period)
        with store_errors_as_table_errors():
            rows = await results_db.board(self.db, guild_id, since=_seconds(since))
        pages = max(1, math.ceil(len(rows) / stats_db.PAGE_SIZE))
        number = min(page, pages)
        start = (number - 1) * stats_db.PAGE_SIZE
        entries = tuple(
            TournamentBoardEntry(
                1 + sum(1 for other in rows if other.net > row.net),
                row.user_id,
                row.net,
                row.played,
                row.cashes,
                row.wins,
            )
            for row in rows[start : start + stats_db.PAGE_SIZE]
        )
        return TournamentBoardPage(guild_id, period, number, pages, len(rows), entries)

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


# --- writing the facts down -----------------------------------------------------------------

BATCH = 200
FOLD_EVERY = 16  # a table's hands between two folds of the pending stats rows


async def fold_now_and_then(db: Database, hand_number: int) -> None:
    """After a settlement's transaction (never in it): every FOLD_EVERY hands of a table,
    fold the pending stats rows into the rollups (every table's; the reads fold too, so
    this only keeps the batch a read may meet small)."""
    if hand_number % FOLD_EVERY == 0:
        await stats_db.fold_pending(db)


def player_rows(
    state: HandState, notes: PlayNotes, users: Mapping[int, int]
) -> list[PlayerHandRow]:
    """One row per dealt-in player (``users``: seat -> user id); none for a cancelled hand."""
    return [
        PlayerHandRow(
            users[f.seat],
            f.seat,
            f.put_in,
            f.won,
            f.net,
            f.last_street,
            int(f.entered_third),
            int(f.raised_third),
            int(f.showdown),
            int(f.won_showdown),
            f.shown_rank,
            None if f.shown_cards is None else format_cards(f.shown_cards, False),
        )
        for f in seat_facts(state, notes)
    ]


async def write(
    db: Database,
    hand_id: int,
    table_id: int,
    variant: Variant,
    rows: Sequence[PlayerHandRow],
    at: float | None = None,
    *,
    tournament: bool = False,
) -> None:
    """Write the hand's rows: in the settlement's transaction (one statement; the rows were
    worked out before it), or for a hand settled long ago (the backfill). ``tournament``:
    a tournament's hand, counted apart from cash hands."""
    if rows:
        await stats_db.record_hand(
            db, hand_id, table_id, variant.value, rows, at, tournament=tournament
        )


@dataclass(frozen=True, slots=True)
class Replayed:
    state: HandState
    notes: PlayNotes


def replay(record: HandRecord, kinds: list[tuple[int | None, str]]) -> Replayed | None:
    """The hand played again from its log, or None if the log no longer gives the hand that
    was settled (pruned deck or actions, or a log the engine refuses)."""
    if record.revealed_deck is None or record.result is None:
        return None
    config = TableConfig.from_row(record.config)
    try:
        deck = parse_deck_text(record.revealed_deck)
        state, events = start_hand(
            config.variant,
            config.stakes,
            [SeatSpec(s.seat_no, s.stack) for s in record.seats],
            deck,
            record.button_seat,
        )
        notes = note_events(PlayNotes(), events)
        for seat, kind in kinds:
            state, events = apply(state, Action(-1 if seat is None else seat, ActionKind(kind)))
            notes = note_events(notes, events)
    except (EngineError, ValueError):
        return None
    finals = record.result.get("final_stacks", {})
    if state.result is None or {str(k): v for k, v in state.result.final_stacks.items()} != finals:
        return None
    return Replayed(state, notes)


async def backfill(db: Database, batch: int = BATCH) -> tuple[int, int]:
    """Rows for every finished hand that has none; returns (hands recorded, hands skipped).

    Each hand is its own transaction, so an interrupted backfill resumes where it stopped.
    """
    recorded = skipped = 0
    after = 0
    while True:
        hands = await stats_db.hands_without_rows(db, after, batch)
        if not hands:
            return recorded, skipped
        for record_ in hands:
            after = record_.id
            logged = await actions_db.get_actions(db, record_.id)
            replayed = replay(record_, [(a.seat, a.action) for a in logged])
            if replayed is None or replayed.state.result is None:
                log.warning("hand %s cannot be replayed for stats; skipped", record_.id)
                skipped += 1
                continue
            if replayed.state.result.cancelled:
                skipped += 1
                continue
            users = {s.seat_no: s.user_id for s in record_.seats}
            rows = player_rows(replayed.state, replayed.notes, users)
            state = replayed.state
            async with db.transaction():
                tournament = record_.tournament_id is not None
                await write(
                    db,
                    record_.id,
                    record_.table_id,
                    state.variant,
                    rows,
                    record_.ended_at,
                    tournament=tournament,
                )
            recorded += 1
        await stats_db.fold_pending(db)  # a batch at a time, not all at the first read

"""Hand records: a player's recent hands, hand history files, the operator's export.

House policy for histories lives here: a hand is shown only once it is over and only in
the server where it was played; a player's file shows what that player could see at the
table (``view_of``: his own down cards, shown hands, every up card), whoever asks; the
operator's export may show every card (``full``), which no Discord command can ask for.
The hand id players see is the hand log's row id (``hands.id``), unique in the database.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from dealerbot.engine import ActionKind, EngineError, parse_deck_text
from dealerbot.history.describe import describe
from dealerbot.history.from_engine import (
    PlayedAction,
    PlayedHand,
    PlayedSeat,
    history_of,
    player_names,
)
from dealerbot.history.model import Hand, view_of
from dealerbot.history.phh import write_phh, write_phh_hands
from dealerbot.history.pokerstars_writer import write_hands
from dealerbot.store import history as history_db
from dealerbot.store import tournaments as tournaments_db
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord, HandStatus
from dealerbot.store.history import LoggedHand
from dealerbot.store.tournaments import TournamentRow
from dealerbot.tournament import DEFAULT_MIX, TournamentSettings, level, pokerstars_level

from .errors import TableError, check_ids, store_errors_as_table_errors
from .limits import HAND_ID, HISTORY_FILE_HANDS, HISTORY_LINES, Bound
from .settings import TableConfig

__all__ = [
    "DEFAULT_HISTORY",
    "HandRecords",
    "HistoryFile",
    "HistoryFormat",
    "HistoryLine",
    "played_hand",
]

DEFAULT_HISTORY = 10  # lines of /stud history, within limits.HISTORY_LINES
TRIPLE_STUD = "Triple Stud"  # PokerStars' name for the stud, razz and stud/8 rotation


class HistoryFormat(StrEnum):
    POKERSTARS = "pokerstars"
    PHH = "phh"

    @property
    def suffix(self) -> str:
        return ".txt" if self is HistoryFormat.POKERSTARS else ".phh"


@dataclass(frozen=True, slots=True)
class HistoryLine:
    """One of a player's hands, as a line of ``/stud history``."""

    hand_id: int
    channel_id: int
    started_at: float  # unix seconds
    game: str  # e.g. "Seven Card Stud"
    stakes: str  # e.g. "10/20, ante 2, bring-in 5"
    net: int  # the asking player's chips after the hand less before
    winners: str  # who won what, with which hand


@dataclass(frozen=True, slots=True)
class HistoryFile:
    """A history file: its name, its text, and the hands it holds (oldest first)."""

    filename: str
    text: str
    hand_ids: tuple[int, ...]


class HandRecordError(TableError):
    """A hand id that does not name a finished hand of this server, or a bad count."""


# What replaying a logged hand may raise (a log the engine no longer plays to its end), and
# what reading one back may raise (that, or no log kept).
NO_REPLAY = (EngineError, ValueError, KeyError)
UNREADABLE = (HandRecordError, *NO_REPLAY)


def played_hand(logged: LoggedHand, table_name: str) -> PlayedHand:
    """What the hand log keeps of ``logged``, in the form the history builder replays."""
    record = logged.record
    if logged.pruned or record.revealed_deck is None:
        raise HandRecordError(
            f"Hand {record.id} is older than this server keeps hand logs; only its result is left."
        )
    config = TableConfig.from_row(record.config)
    return PlayedHand(
        number=record.id,
        table=table_name,
        started=datetime.fromtimestamp(record.started_at, UTC),
        variant=config.variant,
        stakes=config.stakes,
        button=record.button_seat,
        seats=tuple(
            PlayedSeat(s.seat_no, s.user_id, s.display_name, s.stack) for s in record.seats
        ),
        deck=parse_deck_text(record.revealed_deck),
        actions=tuple(
            PlayedAction(a.seat, ActionKind(a.action), a.reason)
            for a in logged.actions
            if a.seat is not None
        ),
        max_seats=config.seats,
    )


def tournament_header(hand: Hand, record: HandRecord, row: TournamentRow | None) -> Hand:
    """A tournament hand's history names its tournament, buy-in (play chips, no fee) and
    level as PokerStars' own tournament files do, at the table '<tournament> 1'."""
    if row is None or record.tournament_level is None:
        return hand
    rules = TournamentSettings.from_dict(row.settings)
    triple = rules.mixed and set(rules.games) == set(DEFAULT_MIX)
    return dataclasses.replace(
        hand,
        tournament_id=row.id,
        tournament_buy_in=f"{row.buy_in}+0",
        tournament_level=pokerstars_level(level(record.tournament_level, rules.games)),
        tournament_mix=TRIPLE_STUD if triple else "",
        table=f"{row.id} 1",
    )


async def tournaments_of(db: Database, logged: Sequence[LoggedHand]) -> dict[int, TournamentRow]:
    """The tournaments of the tournament hands among ``logged``, by id."""
    ids = sorted({h.record.tournament_id for h in logged if h.record.tournament_id is not None})
    return {t: await tournaments_db.get_tournament(db, t) for t in ids}


def winners_text(hand: Hand) -> str:
    """Who took chips from the pots, how many, and with what (the hand shown, if any)."""
    won = hand.collected_by()
    parts = []
    for name, chips in sorted(won.items(), key=lambda item: -item[1]):
        if name in hand.showed:
            cards = list(hand.cards_of(name).known)
            if hand.community is not None:
                cards.append(hand.community)
            shown = describe(hand.game, cards) or "a shown hand"
        else:
            shown = "no showdown"
        parts.append(f"{name} won {chips:,} ({shown})")
    return "; ".join(parts) or "nobody won"


def stakes_text(config: TableConfig) -> str:
    return f"{config.small_bet}/{config.big_bet}, ante {config.ante}, bring-in {config.bring_in}"


class HandRecords:
    """Histories of finished hands, by (guild id, user id); takes no table lock (the hands
    it reads are over and never change)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def history(
        self, guild_id: int, user_id: int, count: int = DEFAULT_HISTORY
    ) -> list[HistoryLine]:
        """The player's last ``count`` finished hands in this server, newest first."""
        check_ids(guild_id, user_id)
        _check_count(count, HISTORY_LINES, "count")
        with store_errors_as_table_errors():
            ids = await history_db.player_hand_ids(self.db, guild_id, user_id, count)
            logged = await history_db.load_hands(self.db, ids)
        return [_line(hand, user_id) for hand in logged if _dealt_in(hand, user_id)]

    async def hand_files(
        self,
        guild_id: int,
        user_id: int,
        hand_id: int | None = None,
        fmt: HistoryFormat | str = HistoryFormat.POKERSTARS,
        *,
        last: int | None = None,
        table_names: Mapping[int, str] | None = None,
        max_bytes: int | None = None,
        max_files: int = 10,
    ) -> list[HistoryFile]:
        """One hand (``hand_id``), or the player's ``last`` hands, as ``user_id`` saw them.

        Anyone in the server may ask for any finished hand of its tables: a player who was
        not dealt in gets the public view. ``table_names`` maps channel ids to the names the
        files print (default: ``channel <id>``). The hands are split into files of at most
        ``max_bytes`` each (an attachment limit), at most ``max_files`` of them, or refused.
        """
        check_ids(guild_id, user_id)
        form = _format(fmt)
        if (hand_id is None) == (last is None):
            raise HandRecordError("Ask for one hand by its `id`, or for your `last` hands.")
        with store_errors_as_table_errors():
            if hand_id is not None:
                await self._check_finished(guild_id, hand_id)
                logged = await history_db.load_hands(self.db, [hand_id])
                name = f"hand-{hand_id}"
            else:
                _check_count(last, HISTORY_FILE_HANDS, "last")
                assert last is not None
                ids = await history_db.player_hand_ids(self.db, guild_id, user_id, last)
                ids.reverse()  # oldest first, as a history file runs
                logged = [
                    hand
                    for hand in await history_db.load_hands(self.db, ids)
                    if _dealt_in(hand, user_id) and not hand.pruned
                ]
                if not logged:
                    raise HandRecordError(
                        "You have no finished hand in this server whose log is still kept."
                    )
                name = f"hands-last-{len(logged)}"
        names = table_names or {}
        with store_errors_as_table_errors():
            held = await tournaments_of(self.db, logged)
        views = [
            viewer_view(
                hand,
                user_id,
                names.get(hand.channel_id, f"channel {hand.channel_id}"),
                held.get(hand.record.tournament_id or 0),
            )
            for hand in logged
        ]
        ids = [hand.record.id for hand in logged]
        return _split_files(name, form, views, ids, max_bytes, max_files)

    async def _check_finished(self, guild_id: int, hand_id: int) -> None:
        if hand_id not in HAND_ID:
            raise HandRecordError(
                "A hand id is a whole number from 1 (the result message shows it)."
            )
        record = await history_db.guild_hand(self.db, guild_id, hand_id)
        if record is None:
            raise HandRecordError(f"There is no hand {hand_id} in this server.")
        if record.status is HandStatus.IN_PROGRESS:
            raise HandRecordError(
                f"Hand {hand_id} is still being played; ask again when it is over."
            )
        if record.status is HandStatus.CANCELLED:
            raise HandRecordError(
                f"Hand {hand_id} was called off (every chip went back): it has no history."
            )

    async def export(
        self,
        guild_id: int,
        *,
        since: float | None = None,
        fmt: HistoryFormat | str = HistoryFormat.POKERSTARS,
        full: bool = False,
        table_names: Mapping[int, str] | None = None,
    ) -> tuple[list[HistoryFile], list[str]]:
        """OPERATOR ONLY: every finished hand of the guild started at or after ``since``, one
        file per table and UTC day (oldest first), and a note for each hand left out (pruned,
        or a log that does not replay).

        ``full`` writes every down card (audits, disputes); otherwise the public view. No
        Discord command reaches this method.
        """
        check_ids(guild_id)
        form = _format(fmt)
        with store_errors_as_table_errors():
            ids = await history_db.guild_hand_ids(self.db, guild_id, since)
        names = table_names or {}
        groups: dict[tuple[int, str], list[tuple[int, Hand]]] = {}
        skipped: list[str] = []
        for start in range(0, len(ids), 200):
            batch = await history_db.load_hands(self.db, ids[start : start + 200])
            with store_errors_as_table_errors():
                held = await tournaments_of(self.db, batch)
            for logged in batch:
                name = names.get(logged.channel_id, f"channel {logged.channel_id}")
                try:
                    hand = history_of(played_hand(logged, name))
                    row = held.get(logged.record.tournament_id or 0)
                    hand = tournament_header(hand, logged.record, row)
                except UNREADABLE as error:
                    skipped.append(f"hand {logged.record.id}: {error}")
                    continue
                day = datetime.fromtimestamp(logged.record.started_at, UTC).strftime("%Y-%m-%d")
                shown = hand if full else view_of(hand, None)
                groups.setdefault((logged.channel_id, day), []).append((logged.record.id, shown))
        files = []
        for (channel_id, day), hands in groups.items():
            prefix = f"{guild_id}-{channel_id}-{day}" + ("-full" if full else "")
            text = _write([hand for _, hand in hands], form, full=full)
            files.append(HistoryFile(prefix + form.suffix, text, tuple(i for i, _ in hands)))
        return files, skipped


def _split_files(
    name: str,
    form: HistoryFormat,
    views: Sequence[Hand],
    ids: Sequence[int],
    max_bytes: int | None,
    max_files: int,
) -> list[HistoryFile]:
    """The hands in as few files as the size limit allows (a hand is never cut in two)."""
    whole = _write(views, form)
    if max_bytes is None or len(whole.encode()) <= max_bytes:
        return [HistoryFile(name + form.suffix, whole, tuple(ids))]
    chunks: list[list[int]] = [[]]
    for index, view in enumerate(views):
        if len(_write([view], form).encode()) > max_bytes:
            raise HandRecordError(f"Hand {ids[index]} alone is larger than Discord accepts.")
        trial = [views[i] for i in chunks[-1]] + [view]
        if chunks[-1] and len(_write(trial, form).encode()) > max_bytes:
            chunks.append([])
        chunks[-1].append(index)
    if len(chunks) > max_files:
        raise HandRecordError(
            f"Those hands make more than {max_files} files of the size Discord accepts; "
            "ask for fewer hands."
        )
    return [
        HistoryFile(
            f"{name}-part{number}{form.suffix}",
            _write([views[i] for i in chunk], form),
            tuple(ids[i] for i in chunk),
        )
        for number, chunk in enumerate(chunks, start=1)
    ]


def _format(fmt: HistoryFormat | str) -> HistoryFormat:
    try:
        return HistoryFormat(fmt)
    except ValueError:
        raise HandRecordError(
            f"Unknown format {fmt!r}: use {' or '.join(f.value for f in HistoryFormat)}."
        ) from None


def _check_count(count: object, bound: Bound, what: str) -> None:
    if count not in bound:
        raise HandRecordError(f"`{what}` must be a whole number from {bound.low} to {bound.high}.")


def _dealt_in(logged: LoggedHand, user_id: int) -> bool:
    return any(seat.user_id == user_id for seat in logged.record.seats)


def viewer_view(
    logged: LoggedHand, user_id: int, table_name: str, tournament: TournamentRow | None = None
) -> Hand:
    """The hand as ``user_id`` saw it at the table (a spectator's view if not dealt in);
    ``tournament``: a tournament hand's, for its history's header."""
    played = played_hand(logged, table_name)
    try:
        hand = tournament_header(history_of(played), logged.record, tournament)
    except NO_REPLAY as error:  # one hand's log, not the asker's request, is at fault
        raise HandRecordError(
            f"Hand {logged.record.id}'s log cannot be read back, so it has no history file."
        ) from error
    return view_of(hand, player_names(played).get(user_id))


def _write(views: Sequence[Hand], form: HistoryFormat, *, full: bool = False) -> str:
    if form is HistoryFormat.PHH:
        return write_phh_hands(views) if len(views) > 1 else write_phh(views[0])
    return write_hands(views, full=full)


def _line(logged: LoggedHand, user_id: int) -> HistoryLine:
    record = logged.record
    config = TableConfig.from_row(record.config)
    seat = next(s for s in record.seats if s.user_id == user_id)
    result = record.result or {}
    net = int(result.get("final_stacks", {}).get(str(seat.seat_no), seat.stack)) - seat.stack
    try:
        winners = winners_text(view_of(history_of(played_hand(logged, "")), None))
    except UNREADABLE:  # pruned, or a log that no longer replays: the result row says who was paid
        names = {str(s.seat_no): s.display_name for s in record.seats}
        paid = result.get("payouts", {})
        winners = "; ".join(
            f"{names.get(seat_no, seat_no)} won {int(chips):,}"
            for seat_no, chips in paid.items()
            if int(chips) > 0
        )
    return HistoryLine(
        record.id,
        logged.channel_id,
        record.started_at,
        config.variant.title,
        stakes_text(config),
        net,
        winners,
    )

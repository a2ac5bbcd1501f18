"""The table service: seats, the hand loop, timers, locks and crash recovery.

Plain ids (guild, channel, user), no Discord: front ends call :class:`TableService` and
subscribe to its events (:mod:`dealerbot.tables.events`). Errors a user can cause are
:class:`TableError`. A front end imports only this package: every type it meets (views,
settings, wallets, leaderboard pages, cards, action kinds) is re-exported here.

Modules, by what they hold. The service and its facets: ``service`` (the facade: one lock
per table, loading tables, every command, the table message's id), ``ownership`` (shards and
table leases), ``database`` (opening the database for a front end), ``accounts`` (wallets,
daily, leaderboard, economy; a player's preferences), ``stats`` (player facts written at
settlement, and the reports), ``records`` (hand histories), ``proofs`` (proofs of a fair
deal), ``abandon`` (tables closed at once when their channel is gone). One table:
``table`` (seats, life cycle, timers, views, the event outbox), ``seating`` (seat rules and
names), ``topups`` (chips queued during a hand), ``rotation`` (mixed games, R15.1). One
hand: ``hand_loop`` (the loop as steps, and who may press what: ``click_refusal``),
``hand_log`` (the hand in memory and its writes: start, apply, settle), ``turns`` (the
clock's rules), ``timers``, ``recovery`` (replay and resume policy). What front ends see:
``views`` (the view types), ``projection`` (views from a table's snapshot), ``narration``
(engine events told as table events), ``events``. House players (issue 20): ``house_seats``
(who sits and leaves, how they act, what is said of them, the bankroll: ``service.house``).
Sit & Go tournaments (issue 18): ``tournaments`` (every command: ``service.tournaments``;
the tournament holds its channel), ``tournament_table`` (its table: entries for seats,
tournament chips, the places each hand decides; the cash table parked meanwhile).
House policy: ``settings`` (table and server settings, the stakes trackers import),
``limits`` (every bound the service accepts, for front ends too), ``errors`` (every refusal
and its wording).
"""

from dealerbot.engine import ALL_CARDS, ActionKind, Card, Variant, format_cards
from dealerbot.store.boards import Seek as BoardSeek
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord
from dealerbot.store.house import HouseBook, HouseDay
from dealerbot.store.leaderboard import LeaderboardEntry, LeaderboardPage
from dealerbot.store.wallets import DailyClaim, Wallet
from dealerbot.tournament import LEVEL_MINUTES, STARTING_CHIPS, STRUCTURES, Structure

from . import events
from .abandon import Abandoned, ClosedBecause
from .accounts import PlayerPrefs
from .database import DatabaseLock, open_database
from .errors import (
    AlreadySeatedError,
    AmountError,
    ConfigError,
    DailyNotReadyError,
    DatabaseError,
    HandInProgressError,
    IllegalMoveError,
    InsufficientFundsError,
    NoHandError,
    NoTableError,
    NotEnoughPlayersError,
    NotInHandError,
    NoTournamentError,
    NotSeatedError,
    OutOfTurnError,
    SeatPromisedError,
    StaleActionError,
    TableClosingError,
    TableElsewhereError,
    TableError,
    TableFullError,
    TournamentError,
)
from .events import AutoReason, SitOutReason
from .hand_loop import click_refusal
from .limits import (
    ADJUSTMENT,
    ANTE,
    BETWEEN_HANDS_SECONDS,
    BRING_IN,
    BUY_IN_SETTING,
    CHIPS,
    CHOICE_SECONDS,
    DAILY_COOLDOWN_SECONDS,
    HAND_ID,
    HANDS_PER_GAME,
    HISTORY_FILE_HANDS,
    HISTORY_LINES,
    HOUSE_BOOK_DAYS,
    HOUSE_FILL_TO,
    HOUSE_PLAYERS,
    SEATS,
    SMALL_BET,
    TIME_BANK_SECONDS,
    TURN_SECONDS,
    WALLET_GRANT,
    Bound,
)
from .narration import returned_text
from .proofs import ProofAnswer, ProofRefused, Proofs
from .records import (
    DEFAULT_HISTORY,
    HandRecordError,
    HandRecords,
    HistoryFile,
    HistoryFormat,
    HistoryLine,
)
from .rotation import ChoiceError, GameMode
from .seating import HOUSE_MARK, HOUSE_NAMES, house_name, is_house_user, shown_name
from .service import LeaveOutcome, Subscriber, TableService
from .settings import (
    NOTHING_CHANGED,
    SETTING_RULES,
    TRACKER_BIG_BETS,
    TRACKER_STAKES,
    GuildEconomy,
    TableConfig,
    changed_text,
    check_changes,
    imports_into_trackers,
    nearest_tracker_small_bets,
    setting_name,
    tracker_stakes_note,
)
from .stats import (
    PERIOD_TITLES,
    BestHand,
    PlayerStats,
    StatsReport,
    TournamentBoardEntry,
    TournamentBoardPage,
    TournamentTotals,
    WinningsEntry,
    WinningsPage,
    parse_period,
)
from .stats import Period as StatsPeriod
from .timers import Clock, FakeClock, SystemClock
from .tournaments import DEFAULT_BUY_IN, DEFAULT_STRUCTURE, Tournaments
from .views import (
    DEFAULT_DECK,
    ChoiceView,
    DeckStyle,
    EntryView,
    GamesView,
    LevelView,
    OptionView,
    PlayerView,
    PotView,
    SeatView,
    StakesView,
    TablePhase,
    TableView,
    TournamentPhase,
    TournamentView,
)

__all__ = [
    "ADJUSTMENT",
    "ALL_CARDS",
    "ANTE",
    "BETWEEN_HANDS_SECONDS",
    "BRING_IN",
    "BUY_IN_SETTING",
    "CHIPS",
    "CHOICE_SECONDS",
    "DAILY_COOLDOWN_SECONDS",
    "DEFAULT_BUY_IN",
    "DEFAULT_DECK",
    "DEFAULT_HISTORY",
    "DEFAULT_STRUCTURE",
    "HANDS_PER_GAME",
    "HAND_ID",
    "HISTORY_FILE_HANDS",
    "HISTORY_LINES",
    "HOUSE_BOOK_DAYS",
    "HOUSE_FILL_TO",
    "HOUSE_MARK",
    "HOUSE_NAMES",
    "HOUSE_PLAYERS",
    "LEVEL_MINUTES",
    "NOTHING_CHANGED",
    "PERIOD_TITLES",
    "SEATS",
    "SETTING_RULES",
    "SMALL_BET",
    "STARTING_CHIPS",
    "STRUCTURES",
    "TIME_BANK_SECONDS",
    "TRACKER_BIG_BETS",
    "TRACKER_STAKES",
    "TURN_SECONDS",
    "WALLET_GRANT",
    "Abandoned",
    "ActionKind",
    "AlreadySeatedError",
    "AmountError",
    "AutoReason",
    "BestHand",
    "BoardSeek",
    "Bound",
    "Card",
    "ChoiceError",
    "ChoiceView",
    "Clock",
    "ClosedBecause",
    "ConfigError",
    "DailyClaim",
    "DailyNotReadyError",
    "Database",
    "DatabaseError",
    "DatabaseLock",
    "DeckStyle",
    "EntryView",
    "FakeClock",
    "GameMode",
    "GamesView",
    "GuildEconomy",
    "HandInProgressError",
    "HandRecord",
    "HandRecordError",
    "HandRecords",
    "HistoryFile",
    "HistoryFormat",
    "HistoryLine",
    "HouseBook",
    "HouseDay",
    "IllegalMoveError",
    "InsufficientFundsError",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LeaveOutcome",
    "LevelView",
    "NoHandError",
    "NoTableError",
    "NoTournamentError",
    "NotEnoughPlayersError",
    "NotInHandError",
    "NotSeatedError",
    "NotYourTurnError",
    "OptionView",
    "OutOfTurnError",
    "PlayerPrefs",
    "PlayerStats",
    "PlayerView",
    "PotView",
    "ProofAnswer",
    "ProofRefused",
    "Proofs",
    "SeatPromisedError",
    "SeatView",
    "SitOutReason",
    "StakesView",
    "StaleActionError",
    "StatsPeriod",
    "StatsReport",
    "Structure",
    "Subscriber",
    "SystemClock",
    "TableClosingError",
    "TableConfig",
    "TableElsewhereError",
    "TableError",
    "TableFullError",
    "TablePhase",
    "TableService",
    "TableView",
    "TournamentBoardEntry",
    "TournamentBoardPage",
    "TournamentError",
    "TournamentPhase",
    "TournamentTotals",
    "TournamentView",
    "Tournaments",
    "Variant",
    "Wallet",
    "WinningsEntry",
    "WinningsPage",
    "changed_text",
    "check_changes",
    "click_refusal",
    "events",
    "format_cards",
    "house_name",
    "imports_into_trackers",
    "is_house_user",
    "nearest_tracker_small_bets",
    "open_database",
    "parse_period",
    "returned_text",
    "setting_name",
    "shown_name",
    "tracker_stakes_note",
]

# Old name, kept for front ends (the engine has its own NotYourTurnError).
NotYourTurnError = OutOfTurnError

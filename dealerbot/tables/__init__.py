"""The table service: seats, the hand loop, timers, locks and crash recovery.

Plain ids (guild, channel, user), no Discord: front ends call :class:`TableService` and
subscribe to its events (:mod:`dealerbot.tables.events`). Errors a user can cause are
:class:`TableError`. A front end imports only this package: every type it meets (views,
settings, wallets, leaderboard pages, cards, action kinds) is re-exported here.

Modules, by the time they work at: ``service`` (the facade, locks, loading tables) and
``accounts`` (wallets, daily, leaderboard, economy); ``table`` (one table: seats, life
cycle, timers) with ``outbox`` (its events) and ``seating`` (seat rules); ``hand`` (start,
apply, settle: one transaction each), ``dealer`` (the hand loop as steps) and ``turns`` (the
clock's rules); ``projection`` (views and events from values) with ``display`` (the view
types) and ``events``; ``recovery`` (replay and resume policy); ``config`` (house settings),
``limits`` (every bound the service accepts, for front ends too), ``refusals`` and
``checks`` (the wording of every refusal), ``errors``.
"""

from dealerbot.engine import ALL_CARDS, ActionKind, Card, Variant, format_cards
from dealerbot.store.boards import Seek as BoardSeek
from dealerbot.store.db import Database
from dealerbot.store.hands import HandRecord
from dealerbot.store.leaderboard import LeaderboardEntry, LeaderboardPage
from dealerbot.store.wallets import DailyClaim, Wallet

from . import events
from .closing import Abandoned, ClosedBecause
from .config import GuildEconomy, TableConfig
from .database import DatabaseLock, open_database
from .display import (
    ChoiceView,
    GamesView,
    OptionView,
    PlayerView,
    SeatView,
    StakesView,
    TablePhase,
    TableView,
)
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
    NotSeatedError,
    OutOfTurnError,
    StaleActionError,
    TableClosingError,
    TableElsewhereError,
    TableError,
    TableFullError,
)
from .events import AutoReason, SitOutReason
from .games import GameMode
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
    SEATS,
    SMALL_BET,
    TIME_BANK_SECONDS,
    TURN_SECONDS,
    WALLET_GRANT,
    Bound,
)
from .mixing import ChoiceError
from .proofs import ProofAnswer, ProofRefused, Proofs
from .records import (
    DEFAULT_HISTORY,
    HandRecordError,
    HandRecords,
    HistoryFile,
    HistoryFormat,
    HistoryLine,
)
from .service import LeaveOutcome, Subscriber, TableService
from .stats import (
    PERIOD_TITLES,
    BestHand,
    PlayerStats,
    StatsReport,
    WinningsEntry,
    WinningsPage,
    parse_period,
)
from .stats import Period as StatsPeriod
from .timers import Clock, FakeClock, SystemClock
from .tracker_stakes import (
    TRACKER_BIG_BETS,
    TRACKER_STAKES,
    imports_into_trackers,
    nearest_tracker_small_bets,
    tracker_stakes_note,
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
    "DEFAULT_HISTORY",
    "HANDS_PER_GAME",
    "HAND_ID",
    "HISTORY_FILE_HANDS",
    "HISTORY_LINES",
    "PERIOD_TITLES",
    "SEATS",
    "SMALL_BET",
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
    "IllegalMoveError",
    "InsufficientFundsError",
    "LeaderboardEntry",
    "LeaderboardPage",
    "LeaveOutcome",
    "NoHandError",
    "NoTableError",
    "NotEnoughPlayersError",
    "NotInHandError",
    "NotSeatedError",
    "NotYourTurnError",
    "OptionView",
    "OutOfTurnError",
    "PlayerStats",
    "PlayerView",
    "ProofAnswer",
    "ProofRefused",
    "Proofs",
    "SeatView",
    "SitOutReason",
    "StakesView",
    "StaleActionError",
    "StatsPeriod",
    "StatsReport",
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
    "Variant",
    "Wallet",
    "WinningsEntry",
    "WinningsPage",
    "events",
    "format_cards",
    "imports_into_trackers",
    "nearest_tracker_small_bets",
    "open_database",
    "parse_period",
    "tracker_stakes_note",
]

# Old name, kept for front ends (the engine has its own NotYourTurnError).
NotYourTurnError = OutOfTurnError

"""Sit & Go tournaments, the pure core: settings, levels, the level clock, seats, places, prizes.

Like the engine, nothing here knows Discord, the database, asyncio, the clock or global
randomness: times and the random source are passed in, and every value is immutable (a
change returns a new value), so a bad input raises and changes nothing. It imports only
:mod:`dealerbot.engine` (Variant, Stakes, the seat count, R13.1's button) and the standard
library. The table service will own registration, dealing, the ledger and all wording.

What the service will store
    * a tournament row: its id, server and channel, ``TournamentSettings.to_dict()``, its
      state (registering, running, finished, cancelled), the pool, the button and the
      times it was created, started and ended;
    * one entry per player: tournament, player, seat (a table and a seat number), the
      ledger rows of his buy-in and of any refund or prize, and, once out, his
      :class:`Finish` (place and the places his tie group shares) and prize;
    * the level clock as ``LevelClock.to_dict(now)``, saved after every deal, pause,
      resume and level move; ``LevelClock.from_dict(data, now)`` resumes after a restart
      at the same level and position;
    * the audit's figures come from the ledger and the seats (:func:`audit`).

How a multi-table tournament would use this core
    Nothing here is tied to one table. :class:`Standings` counts the whole field, so a
    bust at any table finishes in the place of the players left in the tournament; the
    :class:`LevelClock` is the tournament's, and every table asks it for the level at its
    own deals; a seat is a table's seat, and the service keeps (table, seat) per entry.
    What a second table adds is the service's: drawing tables as well as seats, breaking
    and balancing tables, and ranking busts of one hand-for-hand round at different
    tables together (:func:`bust_places` over the union of those busts). The prize table
    would need rows for bigger fields (:data:`PAYOUTS`).
"""

from .clock import LevelClock, LevelStatus
from .errors import ClockError, SettingsError, StandingsError, TournamentError
from .levels import LADDER, Level, level, level_line, pokerstars_level, roman
from .places import Finish, Standings, award, bust_places
from .prizes import PAYOUTS, audit, cancel_split, payout_percents, payouts, prize_table
from .seats import SeatDraw, Shuffler, Stack, draw_seats, seat_order
from .settings import (
    DEFAULT_MIX,
    DEFAULT_SEATS,
    DEFAULT_TURN_SECONDS,
    LEVEL_MINUTES,
    MIX,
    STARTING_CHIPS,
    STRUCTURES,
    RangeLike,
    Span,
    Structure,
    TournamentSettings,
    games_of,
)

__all__ = [
    "DEFAULT_MIX",
    "DEFAULT_SEATS",
    "DEFAULT_TURN_SECONDS",
    "LADDER",
    "LEVEL_MINUTES",
    "MIX",
    "PAYOUTS",
    "STARTING_CHIPS",
    "STRUCTURES",
    "ClockError",
    "Finish",
    "Level",
    "LevelClock",
    "LevelStatus",
    "RangeLike",
    "SeatDraw",
    "SettingsError",
    "Shuffler",
    "Span",
    "Stack",
    "Standings",
    "StandingsError",
    "Structure",
    "TournamentError",
    "TournamentSettings",
    "audit",
    "award",
    "bust_places",
    "cancel_split",
    "draw_seats",
    "games_of",
    "level",
    "level_line",
    "payout_percents",
    "payouts",
    "pokerstars_level",
    "prize_table",
    "roman",
    "seat_order",
]

"""Every bound the table service accepts, in one place, for its checks and for front ends.

Each is a :class:`Bound` (both ends included). The service checks with these values and
words its refusals from them; a front end shows them (an option's range, a hint) and may
narrow one to what it can carry (Discord's integer options stop at 2**53-1), but never
writes a number of its own. The store's bounds (an id, one chip movement) come from
:mod:`dealerbot.store.validate`, which the store enforces too; the seat count is the
engine's (R1.1); the rest is house policy decided here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dealerbot.engine import MAX_PLAYERS, MIN_PLAYERS
from dealerbot.store.validate import MAX_AMOUNT, MAX_ID


@dataclass(frozen=True, slots=True)
class Bound:
    """Whole numbers from ``low`` to ``high``, both included."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError(f"a bound from {self.low} to {self.high} holds nothing")

    def __contains__(self, value: object) -> bool:
        if isinstance(value, bool) or not isinstance(value, int):
            return False
        return self.low <= value <= self.high

    def __iter__(self) -> Iterator[int]:
        """``low, high = bound`` and ``f(*bound)``."""
        return iter((self.low, self.high))

    @property
    def text(self) -> str:
        """``"2-8"``, ``"1-1,000,000"``: for hints."""
        return f"{self.low:,}-{self.high:,}"


# --- chips and ids (the store's bounds) ---------------------------------------------------

CHIPS = Bound(1, MAX_AMOUNT)
"""One chip movement: a buy-in, a top-up, what an admin gives or takes."""
ADJUSTMENT = Bound(-CHIPS.high, CHIPS.high)
"""An admin's adjustment of a wallet: given (> 0) or taken (< 0); zero is refused."""
WALLET_GRANT = Bound(0, MAX_AMOUNT)
"""A server's starting chips and daily bonus (0: none)."""
HAND_ID = Bound(1, MAX_ID)
"""A hand's id: its row id in the hand log, what the store can hold."""

# --- hand records -------------------------------------------------------------------------

HISTORY_LINES = Bound(1, 50)
"""Lines of ``/stud history``."""
HISTORY_FILE_HANDS = Bound(1, 100)
"""Hands in one hand history file (``last``)."""

# --- a table's settings -------------------------------------------------------------------

SEATS = Bound(MIN_PLAYERS, MAX_PLAYERS)
MAX_SMALL_BET = 1_000_000
SMALL_BET = Bound(2, MAX_SMALL_BET)  # the big bet is twice this
ANTE = Bound(1, MAX_SMALL_BET)
BRING_IN = Bound(ANTE.low, SMALL_BET.high - 1)
"""What R1.2 (ante <= bring-in < small bet) leaves within the ante's and small bet's bounds."""
MIN_BUYIN_SMALL_BETS = 10  # a buy-in must cover at least ten small bets
MAX_BUYIN_SMALL_BETS = 1000
BUY_IN_SETTING = Bound(MIN_BUYIN_SMALL_BETS * SMALL_BET.low, MAX_BUYIN_SMALL_BETS * SMALL_BET.high)
"""A table's minimum or maximum buy-in, over every small bet; a table's own range is
10 to 1000 of its small bets."""
TURN_SECONDS = Bound(10, 300)
BETWEEN_HANDS_SECONDS = Bound(0, 60)
TIME_BANK_SECONDS = Bound(0, 300)
HANDS_PER_GAME = Bound(1, 50)
"""Hands of each game of a rotation before it changes (R15.1)."""
CHOICE_SECONDS = Bound(5, 120)
"""Dealer's choice: the button player's time to pick the game."""
DAILY_COOLDOWN_SECONDS = Bound(60, 7 * 86_400)

# --- house players (issue 20) -------------------------------------------------------------

HOUSE_PLAYERS = Bound(0, MAX_PLAYERS - 1)
"""The most house players at a table (0: none); at least one seat stays a member's."""
HOUSE_FILL_TO = Bound(MIN_PLAYERS, MAX_PLAYERS)
"""House players sit while fewer than this many seats are taken."""
HOUSE_BOOK_DAYS = Bound(1, 366)
"""Days of the house bankroll's result that ``/stud-admin house`` may list."""

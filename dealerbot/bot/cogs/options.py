"""The range of every integer option of the commands, from the table service's bounds,
and the choices of the deck options, from the service's deck styles.

Each range is the service's bound narrowed to what Discord's integer options carry
(:mod:`..discord_limits`): the service checks the same bound with its own words, so an
option never offers what the service refuses, nor refuses what it accepts. No range is
written here by hand; tests/test_bounds.py walks the command tree against the bounds.
"""

from __future__ import annotations

from discord import app_commands

from dealerbot.tables import (
    ADJUSTMENT,
    ANTE,
    BRING_IN,
    BUY_IN_SETTING,
    CHIPS,
    CHOICE_SECONDS,
    HAND_ID,
    HANDS_PER_GAME,
    HISTORY_FILE_HANDS,
    HISTORY_LINES,
    HOUSE_BOOK_DAYS,
    HOUSE_FILL_TO,
    HOUSE_PLAYERS,
    SEATS,
    SMALL_BET,
    TURN_SECONDS,
    WALLET_GRANT,
    Bound,
    DeckStyle,
)

from ..discord_limits import option_high, option_low

Chips = app_commands.Range[int, option_low(CHIPS.low), option_high(CHIPS.high)]
Adjustment = app_commands.Range[int, option_low(ADJUSTMENT.low), option_high(ADJUSTMENT.high)]
HandId = app_commands.Range[int, option_low(HAND_ID.low), option_high(HAND_ID.high)]
HistoryLines = app_commands.Range[
    int, option_low(HISTORY_LINES.low), option_high(HISTORY_LINES.high)
]
HistoryFileHands = app_commands.Range[
    int, option_low(HISTORY_FILE_HANDS.low), option_high(HISTORY_FILE_HANDS.high)
]

# /stud-admin config
HandsPerGame = app_commands.Range[
    int, option_low(HANDS_PER_GAME.low), option_high(HANDS_PER_GAME.high)
]
ChoiceSeconds = app_commands.Range[
    int, option_low(CHOICE_SECONDS.low), option_high(CHOICE_SECONDS.high)
]
Ante = app_commands.Range[int, option_low(ANTE.low), option_high(ANTE.high)]
BringIn = app_commands.Range[int, option_low(BRING_IN.low), option_high(BRING_IN.high)]
SmallBet = app_commands.Range[int, option_low(SMALL_BET.low), option_high(SMALL_BET.high)]
BuyInSetting = app_commands.Range[
    int, option_low(BUY_IN_SETTING.low), option_high(BUY_IN_SETTING.high)
]
Seats = app_commands.Range[int, option_low(SEATS.low), option_high(SEATS.high)]
TurnSeconds = app_commands.Range[int, option_low(TURN_SECONDS.low), option_high(TURN_SECONDS.high)]
WalletGrant = app_commands.Range[int, option_low(WALLET_GRANT.low), option_high(WALLET_GRANT.high)]
HousePlayers = app_commands.Range[
    int, option_low(HOUSE_PLAYERS.low), option_high(HOUSE_PLAYERS.high)
]
HouseFillTo = app_commands.Range[
    int, option_low(HOUSE_FILL_TO.low), option_high(HOUSE_FILL_TO.high)
]

# /stud-admin house
HouseDays = app_commands.Range[
    int, option_low(HOUSE_BOOK_DAYS.low), option_high(HOUSE_BOOK_DAYS.high)
]

CONFIG_BOUNDS: dict[str, Bound] = {
    "hands_per_game": HANDS_PER_GAME,
    "choice_seconds": CHOICE_SECONDS,
    "ante": ANTE,
    "bring_in": BRING_IN,
    "small_bet": SMALL_BET,
    "min_buyin": BUY_IN_SETTING,
    "max_buyin": BUY_IN_SETTING,
    "seats": SEATS,
    "turn_seconds": TURN_SECONDS,
    "starting_chips": WALLET_GRANT,
    "daily_chips": WALLET_GRANT,
    "house_players": HOUSE_PLAYERS,
    "house_fill_to": HOUSE_FILL_TO,
}
"""``/stud-admin config``'s numbers and their bounds: checked before any is stored (a
command list older than the bounds may send others), so one call never half-applies."""


DECK_CHOICES = [
    app_commands.Choice(name=f"{style.value}: {style.words}", value=style.value)
    for style in DeckStyle
]
"""``/stud deck style:`` and ``/stud-admin config deck:``: the service's styles, its words."""

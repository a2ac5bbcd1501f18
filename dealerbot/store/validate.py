"""The one id check and the one chip bound, shared by the store and the table service.

The predicates (:func:`is_id`, :func:`is_chips`) say yes or no; the table service words its
own refusal, the store raises a narrow :class:`InvalidId` / :class:`InvalidAmount`.

House players (issue 20) need user ids that no Discord user can have: a snowflake, like
every row id, is positive, so the house's ids are negative, a small reserved range.
:data:`HOUSE_BANK_ID` is the wallet that holds a guild's house bankroll, and
:data:`HOUSE_PLAYER_IDS` the house players' seats (one id per house name; the same id may
sit at several tables). :func:`is_id` refuses them all, so a front end (which passes
Discord ids) can never name one; only the store's seat, hand and ledger paths accept
them, through :func:`is_player_id`.
"""

from __future__ import annotations

from .errors import InvalidAmount, InvalidId

MAX_ID = 2**63 - 1
# No single movement may exceed this; keeps sums far from SQLite's 64-bit limit.
MAX_AMOUNT = 10**12


HOUSE_BANK_ID = -1
"""The house bankroll's wallet in every guild (chips only the house buys in with)."""
MAX_HOUSE_PLAYER_IDS = 8
HOUSE_PLAYER_IDS = tuple(range(-2, -2 - MAX_HOUSE_PLAYER_IDS, -1))
"""The house players' user ids, -2 to -9: one per house name."""


def is_house_player_id(value: object) -> bool:
    """One of the house players' reserved ids (never a Discord id)."""
    return isinstance(value, int) and not isinstance(value, bool) and value in HOUSE_PLAYER_IDS


def is_player_id(value: object) -> bool:
    """Who may hold a seat, a stack and hand results: a member (:func:`is_id`) or a house
    player."""
    return is_id(value) or is_house_player_id(value)


def is_id(value: object) -> bool:
    """A Discord snowflake or a row id: a positive 64-bit integer (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID


def is_chips(value: object) -> bool:
    """A chip amount: a whole number from 1 to MAX_AMOUNT."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_AMOUNT


def check_id(value: object, what: str) -> int:
    if not is_id(value):
        raise InvalidId(what, value)
    return value  # type: ignore[return-value]


def check_player_id(value: object, what: str = "user id") -> int:
    if not is_player_id(value):
        raise InvalidId(what, value)
    return value  # type: ignore[return-value]


def check_amount(value: object, what: str = "amount") -> int:
    if not is_chips(value):
        raise InvalidAmount(what, value)
    return value  # type: ignore[return-value]

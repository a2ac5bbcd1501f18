"""The one id check and the one chip bound, shared by the store and the table service.

The predicates (:func:`is_id`, :func:`is_chips`) say yes or no; the table service words its
own refusal, the store raises a narrow :class:`InvalidId` / :class:`InvalidAmount`.
"""

from __future__ import annotations

from .errors import InvalidAmount, InvalidId

MAX_ID = 2**63 - 1
# No single movement may exceed this; keeps sums far from SQLite's 64-bit limit.
MAX_AMOUNT = 10**12


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


def check_amount(value: object, what: str = "amount") -> int:
    if not is_chips(value):
        raise InvalidAmount(what, value)
    return value  # type: ignore[return-value]

"""Checks on values that come from users or front ends, before anything is written."""

from __future__ import annotations

from .errors import InvalidAmount, InvalidId

MAX_ID = 2**63 - 1
# No single movement may exceed this; keeps sums far from SQLite's 64-bit limit.
MAX_AMOUNT = 10**12


def check_id(value: object, what: str) -> int:
    """A Discord snowflake or a row id: a positive 64-bit integer."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_ID:
        raise InvalidId(f"{what} must be a positive 64-bit integer id, not {value!r}")
    return value


def check_amount(value: object, what: str = "amount") -> int:
    """A chip amount: a whole number from 1 to MAX_AMOUNT."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAmount(f"the {what} must be a whole number of chips, not {value!r}")
    if value <= 0:
        raise InvalidAmount(f"the {what} must be at least 1 chip (got {value:,})")
    if value > MAX_AMOUNT:
        raise InvalidAmount(f"the {what} may be at most {MAX_AMOUNT:,} chips (got {value:,})")
    return value

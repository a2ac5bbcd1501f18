"""The service's checks on ids and chip amounts from front ends, worded for the player.

The bounds themselves are the store's (:data:`~dealerbot.store.validate.MAX_ID`,
:data:`~dealerbot.store.validate.MAX_AMOUNT`), as :data:`.limits.CHIPS` for front ends:
one id check and one chip bound for the whole program, so the service never accepts what
the store would refuse.
"""

from __future__ import annotations

from dealerbot.store.validate import is_chips, is_id

from . import errors
from .limits import CHIPS
from .names import clean_name, fallback_name


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_ids(*ids: object) -> None:
    for value in ids:
        if not is_id(value):
            raise errors.TableError(f"{value!r} is not a valid id.")


def check_user(user_id: object) -> None:
    if not is_id(user_id):
        raise errors.NotSeatedError("That is not a valid player.")


def check_chips(value: object, what: str) -> int:
    """A whole number of chips within :data:`.limits.CHIPS`, or :class:`AmountError`."""
    if is_chips(value):
        return value  # type: ignore[return-value]
    if not is_int(value):
        raise errors.AmountError(f"The {what} must be a whole number of chips, not {value!r}.")
    if value <= 0:  # type: ignore[operator]
        raise errors.AmountError(f"The {what} must be at least 1 chip (got {value:,}).")
    raise errors.AmountError(f"The {what} may be at most {CHIPS.high:,} chips (got {value:,}).")


def check_name(name: object, user_id: int) -> str:
    """The display name cleaned for every view (:func:`~.names.clean_name`), never empty."""
    if not isinstance(name, str) or not name.strip():
        raise errors.TableError("Your name must not be empty.")
    return clean_name(name) or fallback_name(user_id)  # only invisible characters

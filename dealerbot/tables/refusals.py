"""The service's wording of the store's refusals: one family (TableError) for front ends.

The store raises narrow facts with their values as fields and no prose; this module picks
the matching :class:`~dealerbot.tables.errors.TableError` and words it for the player.
Facts a player cannot cause (a service bug, a broken log) come out as a plain
:class:`TableError` that says so without detail.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from dealerbot.store import errors as store

from . import errors
from .checks import check_chips, check_ids


def sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def wait_text(seconds: float) -> str:
    """A short "1 h 5 min" / "3 min" / "20 s" for a wait."""
    wait = max(1, math.ceil(seconds))
    hours, rest = divmod(wait, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes} min"
    return f"{minutes} min" if minutes else f"{secs} s"


def as_table_error(error: store.StoreError) -> errors.TableError:
    """The refusal a player sees for the store's ``error``."""
    if isinstance(error, store.InsufficientChips):
        return errors.InsufficientFundsError(
            f"You need {error.needed:,} chips but your wallet holds {error.available:,}."
        )
    if isinstance(error, store.InvalidAmount):
        try:
            check_chips(error.value, error.what)
        except errors.TableError as worded:
            return worded
    if isinstance(error, store.InvalidId):
        try:
            check_ids(error.value)
        except errors.TableError as worded:
            return worded
    if isinstance(error, store.DailyNotReady):
        wait = wait_text(error.retry_at - error.now)
        return errors.DailyNotReadyError(
            f"You already claimed your daily chips; come back in {wait}.", error.retry_at
        )
    if isinstance(error, store.SeatTaken):
        return errors.TableFullError(f"Seat {error.seat_no + 1} is taken.")
    if isinstance(error, store.InvalidSeat):
        return errors.TableError(f"There is no seat {error.seat_no!r}.")
    if isinstance(error, store.HandInProgress):
        return errors.HandInProgressError("That has to wait until the current hand ends.")
    if isinstance(error, store.NoWallet):
        return errors.TableError("That player has no wallet in this server.")
    for fact, refusal in _PLAIN:
        if isinstance(error, fact):
            return refusal()
    return errors.TableError("That could not be done; nothing was changed.")


# Facts whose refusal needs no values: the TableError's own wording.
_PLAIN: tuple[tuple[type[store.StoreError], type[errors.TableError]], ...] = (
    (store.AlreadySeated, errors.AlreadySeatedError),
    (store.NotSeated, errors.NotSeatedError),
    (store.UnknownTable, errors.NoTableError),
    (store.TableNotOpen, errors.TableClosingError),
    (store.StaleAction, errors.StaleActionError),
)


@contextmanager
def store_errors_as_table_errors() -> Iterator[None]:
    try:
        yield
    except store.StoreError as error:
        raise as_table_error(error) from error

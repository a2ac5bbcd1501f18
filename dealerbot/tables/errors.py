"""Every refusal a player (or an admin) can get from the table service, and its wording.

:class:`TableError` and its kinds, each message fit to show as is (the Discord layer shows
``str(error)``; anything else is a bug and is logged with the hand id). The checks on ids
and chip amounts from front ends (:func:`check_ids`, :func:`check_chips`), whose bounds are
the store's (:data:`~dealerbot.store.validate.MAX_ID`, :data:`~dealerbot.store.validate.MAX_AMOUNT`,
as :data:`.limits.CHIPS` for front ends: one id check and one chip bound for the whole
program, so the service never accepts what the store would refuse). And the wording of the
store's refusals (:func:`as_table_error`): the store raises narrow facts with their values
as fields and no prose; facts a player cannot cause (a service bug, a broken log) come out
as a plain :class:`TableError` that says so without detail.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager

from dealerbot.store import errors as store
from dealerbot.store.validate import is_chips, is_id

from .limits import CHIPS


class TableError(Exception):
    """Base class of every refusal the table service gives a user."""


class NoTableError(TableError):
    """No table in this channel (or it was closed)."""

    def __init__(self, message: str = "There is no table in this channel.") -> None:
        super().__init__(message)


class NotSeatedError(TableError):
    def __init__(self, message: str = "You are not seated at this table.") -> None:
        super().__init__(message)


class AlreadySeatedError(TableError):
    def __init__(self, message: str = "You are already seated at this table.") -> None:
        super().__init__(message)


class TableFullError(TableError):
    def __init__(self, message: str = "This table is full.") -> None:
        super().__init__(message)


class SeatPromisedError(TableError):
    """Not a refusal: every seat is taken, and a house player gives this member its seat
    when the hand being played ends (he sits then, with the buy-in he asked for)."""


class AmountError(TableError):
    """A chip amount that is not a whole positive number in the allowed range."""


class InsufficientFundsError(TableError):
    """The wallet cannot cover the buy-in or the chips asked for."""


class NotInHandError(TableError):
    def __init__(self, message: str = "You are not in this hand.") -> None:
        super().__init__(message)


class OutOfTurnError(TableError):
    def __init__(self, message: str = "It is not your turn.") -> None:
        super().__init__(message)


class StaleActionError(TableError):
    """A button or command for an old hand or an action already taken."""

    def __init__(self, message: str = "That button is from an old hand.") -> None:
        super().__init__(message)


class IllegalMoveError(TableError):
    """The action is not among the player's options now."""


class HandInProgressError(TableError):
    """Something allowed only between hands."""


class NoHandError(TableError):
    def __init__(self, message: str = "No hand is being played at this table.") -> None:
        super().__init__(message)


class NotEnoughPlayersError(TableError):
    def __init__(
        self, message: str = "A hand needs at least two seated players with chips."
    ) -> None:
        super().__init__(message)


class TableClosingError(TableError):
    def __init__(
        self, message: str = "This table is closing; no one can sit down or start a hand."
    ) -> None:
        super().__init__(message)


class ConfigError(TableError):
    """A table setting the store refused; the message says what is allowed."""


class DailyNotReadyError(TableError):
    """The daily bonus was already claimed; ``retry_at`` says when it can be claimed again."""

    def __init__(self, message: str, retry_at: float | None = None) -> None:
        super().__init__(message)
        self.retry_at = retry_at


class DatabaseError(TableError):
    """The database cannot be used (written by a newer dealerbot, a migration failed)."""


class TournamentError(TableError):
    """A Sit & Go command refused: the message says why, and what can be done instead."""


class NoTournamentError(TournamentError):
    def __init__(self, message: str = "There is no Sit & Go in this channel.") -> None:
        super().__init__(message)


class TableElsewhereError(TableError):
    """Another dealerbot process runs this table (sharding): this one must not answer."""

    def __init__(
        self, message: str = "This table is run by another dealerbot process right now."
    ) -> None:
        super().__init__(message)


# --- checks on what front ends pass in -----------------------------------------------------


def is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_ids(*ids: object) -> None:
    for value in ids:
        if not is_id(value):
            raise TableError(f"{value!r} is not a valid id.")


def check_user(user_id: object) -> None:
    if not is_id(user_id):
        raise NotSeatedError("That is not a valid player.")


def check_chips(value: object, what: str) -> int:
    """A whole number of chips within :data:`.limits.CHIPS`, or :class:`AmountError`."""
    if is_chips(value):
        return value  # type: ignore[return-value]
    if not is_int(value):
        raise AmountError(f"The {what} must be a whole number of chips, not {value!r}.")
    if value <= 0:  # type: ignore[operator]
        raise AmountError(f"The {what} must be at least 1 chip (got {value:,}).")
    raise AmountError(f"The {what} may be at most {CHIPS.high:,} chips (got {value:,}).")


# --- the wording of the store's refusals -----------------------------------------------------


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


def as_table_error(error: store.StoreError) -> TableError:
    """The refusal a player sees for the store's ``error``."""
    if isinstance(error, store.InsufficientChips):
        return InsufficientFundsError(
            f"You need {error.needed:,} chips but your wallet holds {error.available:,}."
        )
    if isinstance(error, store.InvalidAmount):
        try:
            check_chips(error.value, error.what)
        except TableError as worded:
            return worded
    if isinstance(error, store.InvalidId):
        try:
            check_ids(error.value)
        except TableError as worded:
            return worded
    if isinstance(error, store.DailyNotReady):
        wait = wait_text(error.retry_at - error.now)
        return DailyNotReadyError(
            f"You already claimed your daily chips; come back in {wait}.", error.retry_at
        )
    if isinstance(error, store.SeatTaken):
        return TableFullError(f"Seat {error.seat_no + 1} is taken.")
    if isinstance(error, store.InvalidSeat):
        return TableError(f"There is no seat {error.seat_no!r}.")
    if isinstance(error, store.HandInProgress):
        return HandInProgressError("That has to wait until the current hand ends.")
    if isinstance(error, store.NoWallet):
        return TableError("That player has no wallet in this server.")
    if isinstance(error, store.TournamentNotOpen):
        return TournamentError(f"The Sit & Go is {error.status}: that cannot be done now.")
    for fact, refusal in _PLAIN:
        if isinstance(error, fact):
            return refusal()
    for fact, text in _TOURNAMENT:
        if isinstance(error, fact):
            return TournamentError(text)
    return TableError("That could not be done; nothing was changed.")


# Facts whose refusal needs no values: the TableError's own wording.
_PLAIN: tuple[tuple[type[store.StoreError], type[TableError]], ...] = (
    (store.AlreadySeated, AlreadySeatedError),
    (store.NotSeated, NotSeatedError),
    (store.UnknownTable, NoTableError),
    (store.TableNotOpen, TableClosingError),
    (store.StaleAction, StaleActionError),
    (store.UnknownTournament, NoTournamentError),
    (store.LeaseLost, TableElsewhereError),  # another process took the table: silent
)
_TOURNAMENT: tuple[tuple[type[store.StoreError], str], ...] = (
    (store.LiveTournament, "This channel has a Sit & Go already."),
    (store.AlreadyRegistered, "You are registered for this Sit & Go already."),
    (store.NotRegistered, "You are not registered for this Sit & Go."),
    (store.TournamentFull, "Every seat of this Sit & Go is taken."),
)


@contextmanager
def store_errors_as_table_errors() -> Iterator[None]:
    try:
        yield
    except store.StoreError as error:
        raise as_table_error(error) from error

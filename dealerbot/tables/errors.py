"""Errors a player (or an admin) can cause; every message is fit to show them as is.

The Discord layer catches :class:`TableError` and shows ``str(error)`` to the user;
anything else is a bug and is logged with the hand id.
"""

from __future__ import annotations


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


class TableElsewhereError(TableError):
    """Another dealerbot process runs this table (sharding): this one must not answer."""

    def __init__(
        self, message: str = "This table is run by another dealerbot process right now."
    ) -> None:
        super().__init__(message)

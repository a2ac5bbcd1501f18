"""Errors the store raises; each ``message`` is fit to show the user who caused it.

Whenever one of these is raised, the transaction it came from was rolled back: nothing changed.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class for everything a user (or an operator) can cause in the store."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidAmount(StoreError):
    """A chip amount that is not a positive whole number within bounds."""


class InvalidId(StoreError):
    """A guild, channel, user, table or hand id that is not a positive 64-bit integer."""


class InsufficientChips(StoreError):
    """The wallet (or stack) holds fewer chips than asked for."""

    def __init__(self, needed: int, available: int, where: str = "your wallet") -> None:
        super().__init__(f"you need {needed:,} chips but {where} holds {available:,}")
        self.needed = needed
        self.available = available


class AlreadySeated(StoreError):
    """The player already has a seat at this table."""


class NotSeated(StoreError):
    """The player has no seat at this table."""


class SeatTaken(StoreError):
    """The requested seat is occupied."""


class UnknownTable(StoreError):
    """No table with that id (or in that channel)."""


class TableNotOpen(StoreError):
    """The table is closing or closed: nobody can sit down or add chips."""


class DailyNotReady(StoreError):
    """The daily bonus was claimed too recently."""

    def __init__(self, message: str, retry_at: float) -> None:
        super().__init__(message)
        self.retry_at = retry_at


class HandInProgress(StoreError):
    """The operation must wait until the table's current hand ends."""


class HandNotInProgress(StoreError):
    """The hand has already finished or been cancelled."""


class UnknownHand(StoreError):
    """No hand with that id."""


class StaleAction(StoreError):
    """An action whose sequence number is not the next one: repeated, stale or concurrent."""


class DatabaseTooNewError(StoreError):
    """The database was written by a newer dealerbot; refusing to touch it."""


class MigrationError(StoreError):
    """A migration file is missing, misnumbered or failed to apply."""


class InvalidSeat(StoreError):
    """A seat number the table does not have."""


class InvalidSettlement(StoreError):
    """Hand results that do not balance or name players not in the hand (a service bug)."""

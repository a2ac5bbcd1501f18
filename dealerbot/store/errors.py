"""Errors the store raises: narrow facts, with the values that describe them as fields.

``message`` is a detail for logs and operators (the command line prints it), never a
sentence for a player: the table service words every refusal itself
(:mod:`dealerbot.tables.errors`). Whenever one of these is raised, the transaction it
came from was rolled back: nothing changed.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class for everything a user (or an operator) can cause in the store."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidAmount(StoreError):
    """A chip amount (``what``) that is not a whole number from 1 to the bound."""

    def __init__(self, what: str, value: object) -> None:
        super().__init__(f"invalid {what}: {value!r}")
        self.what = what
        self.value = value


class InvalidId(StoreError):
    """A guild, channel, user, table or hand id that is not a positive 64-bit integer."""

    def __init__(self, what: str, value: object) -> None:
        super().__init__(f"invalid {what}: {value!r}")
        self.what = what
        self.value = value


class InsufficientChips(StoreError):
    """The wallet holds ``available`` chips, fewer than the ``needed`` ones."""

    def __init__(self, needed: int, available: int) -> None:
        super().__init__(f"needed {needed}, available {available}")
        self.needed = needed
        self.available = available


class AlreadySeated(StoreError):
    """The player already has a seat at this table."""


class NotSeated(StoreError):
    """The player has no seat at this table."""


class SeatTaken(StoreError):
    """The requested seat is occupied."""

    def __init__(self, seat_no: int) -> None:
        super().__init__(f"seat {seat_no} is taken")
        self.seat_no = seat_no


class UnknownTable(StoreError):
    """No table with that id (or in that channel)."""


class TableNotOpen(StoreError):
    """The table is closing or closed: nobody can sit down or add chips."""


class DailyNotReady(StoreError):
    """The daily bonus was claimed too recently: it is ready again at ``retry_at``."""

    def __init__(self, retry_at: float, now: float) -> None:
        super().__init__(f"daily bonus ready at {retry_at}")
        self.retry_at = retry_at
        self.now = now


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

    def __init__(self, seat_no: object) -> None:
        super().__init__(f"no seat {seat_no!r}")
        self.seat_no = seat_no


class InvalidSettlement(StoreError):
    """Hand results that do not balance or name players not in the hand (a service bug)."""


class NoWallet(StoreError):
    """The player has no wallet in this guild (chips cannot be credited to nobody)."""


class DatabaseUnavailable(StoreError):
    """The database server cannot be reached or refuses the login (nothing was written)."""


class UnknownTournament(StoreError):
    """No tournament with that id (or none live in that channel)."""


class LiveTournament(StoreError):
    """The channel already has a tournament registering or being played."""


class TournamentNotOpen(StoreError):
    """The tournament is not in the state the change needs (``status``: the one it is in)."""

    def __init__(self, status: str) -> None:
        super().__init__(f"the tournament is {status}")
        self.status = status


class AlreadyRegistered(StoreError):
    """The player is registered for this tournament already."""


class NotRegistered(StoreError):
    """The player is not registered for this tournament."""


class TournamentFull(StoreError):
    """Every seat of the tournament is taken."""


class LeaseLost(StoreError):
    """A table write whose process no longer holds the table's lease (another process took
    it: its epoch is newer): the write was rolled back, nothing of it stands."""

    def __init__(self, key: int) -> None:
        super().__init__(f"the lease of the table in channel {key} is no longer this process's")
        self.key = key

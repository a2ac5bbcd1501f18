"""The table service: seats, the hand loop, timers, locks and crash recovery.

Plain ids (guild, channel, user), no Discord: front ends call
:class:`~dealerbot.tables.service.TableService` and subscribe to its events
(:mod:`dealerbot.tables.events`). Errors a user can cause are
:class:`~dealerbot.tables.errors.TableError`.
"""

from .errors import TableError
from .service import LeaveOutcome, TableService
from .timers import FakeClock, SystemClock

__all__ = ["FakeClock", "LeaveOutcome", "SystemClock", "TableError", "TableService"]

"""Persistence: one SQLite file through aiosqlite (wallets, ledger, tables, hand log).

Modules, one concern each: db (connection, transactions), migrate, config, wallets, ledger,
tables, hands, leaderboard, audit, errors. The API is described in each module and in the
team notes; everything user-causable raises :class:`errors.StoreError`.
"""

from .db import Database, open_database
from .errors import StoreError

__all__ = ["Database", "StoreError", "open_database"]

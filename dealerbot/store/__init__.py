"""Persistence: one SQLite file through aiosqlite (wallets, ledger, tables, hand log).

Modules, one concern each: db (connection, transactions), migrate, config (settings rows),
wallets, ledger, tables (table rows), seats (buy-ins, cash-outs), hands and hand_actions
(the hand log), leaderboard, audit, validate (the one id check and chip bound), errors. The
store keeps rows and what SQL can state; its errors are facts with fields
(:class:`errors.StoreError`), worded for players by the table service.
"""

from .db import Database, open_database
from .errors import StoreError

__all__ = ["Database", "StoreError", "open_database"]

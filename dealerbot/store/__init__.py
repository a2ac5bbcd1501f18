"""Persistence: SQLite through aiosqlite, or PostgreSQL through asyncpg (wallets, ledger,
tables, hand log), chosen by the database's URL; the store's SQL is written once for both.

Modules, one concern each: db (the handle, transactions: the contract; sqlite_db and
postgres_db its two backends, opening the one that picks and opens them, dburl the URL),
migrate, leases (which process runs a table, and its writes' fence), claims (which
process answers an interaction), config (settings rows), wallets, ledger,
tables (table rows), seats (buy-ins, cash-outs), hands and hand_actions (the hand log),
leaderboard, audit, catalog and copy (``db copy``), validate (the one id check and chip
bound), errors; and the features' own (stats and rollups, proofs, history, player_prefs
...). The store keeps rows and what SQL can state; its errors are facts with
fields (:class:`errors.StoreError`), worded for players by the table service.
"""

from .db import Database
from .errors import StoreError
from .opening import open_database

__all__ = ["Database", "StoreError", "open_database"]

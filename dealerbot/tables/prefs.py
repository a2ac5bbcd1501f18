"""Players' own settings as the front end asks for them: turn alerts on or off.

A small facet over the store (no table lock: nothing here touches a table). The bot
keeps the answers in memory; :meth:`PlayerPrefs.alerts_off` is asked once per player.
"""

from __future__ import annotations

from collections.abc import Iterable

from dealerbot.store import player_prefs as prefs_db
from dealerbot.store.db import Database

from .checks import check_ids
from .refusals import store_errors_as_table_errors


class PlayerPrefs:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def alerts_off(self, user_ids: Iterable[int]) -> set[int]:
        """Which of these players turned turn alerts off (the default is on)."""
        with store_errors_as_table_errors():
            return await prefs_db.alerts_off(self.db, user_ids)

    async def set_turn_alerts(self, user_id: int, on: bool) -> None:
        check_ids(user_id)
        with store_errors_as_table_errors():
            await prefs_db.set_turn_alerts(self.db, user_id, on)

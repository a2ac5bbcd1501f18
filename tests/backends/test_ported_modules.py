"""Store modules other features added, on both backends (their SQL is written once)."""

from __future__ import annotations

from dealerbot.store import player_prefs
from dealerbot.store.opening import open_database


async def test_turn_alert_preferences(db_url: str) -> None:
    async with await open_database(db_url) as db:
        assert await player_prefs.alerts_off(db, [1, 2, 3]) == set()
        await player_prefs.set_turn_alerts(db, 2, False)
        await player_prefs.set_turn_alerts(db, 3, False)
        await player_prefs.set_turn_alerts(db, 3, True)  # the upsert changes the row
        assert await player_prefs.alerts_off(db, [1, 2, 3, 2**63 - 1]) == {2}
        assert await player_prefs.alerts_off(db, []) == set()

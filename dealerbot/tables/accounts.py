"""A player's account in a server and his own preferences: wallets, the daily bonus, the
chip leaderboard, each server's economy (:class:`Accounts`, ``service.accounts``) and turn
alerts on or off and the deck of his private views (:class:`PlayerPrefs`, ``service.prefs``).

Nothing here touches a table, so none of it takes a table lock; every store refusal comes
out as a :class:`~dealerbot.tables.errors.TableError` worded by the service. The bot keeps
the preferences in memory; :meth:`PlayerPrefs.alerts_off` is asked once per player.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from dealerbot.store import leaderboard as leaderboard_db
from dealerbot.store import player_prefs as prefs_db
from dealerbot.store import wallets as wallets_db
from dealerbot.store.boards import Seek as BoardSeek
from dealerbot.store.db import Database
from dealerbot.store.errors import InsufficientChips
from dealerbot.store.leaderboard import LeaderboardEntry, LeaderboardPage
from dealerbot.store.wallets import DailyClaim, Wallet

from . import errors, settings
from .errors import check_chips, check_ids, is_int, store_errors_as_table_errors
from .settings import GuildEconomy, parse_deck
from .stats import check_seek
from .views import DEFAULT_DECK, DeckStyle


class Accounts:
    """A server's wallets and economy, by (guild id, user id)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def economy_get(self, guild_id: int) -> GuildEconomy:
        """The server's starting and daily chips."""
        check_ids(guild_id)
        with store_errors_as_table_errors():
            return await settings.economy(self.db, guild_id)

    async def economy_set(self, guild_id: int, **changes: Any) -> GuildEconomy:
        """Change the server's starting or daily chips (validated by the store)."""
        check_ids(guild_id)
        with store_errors_as_table_errors():
            return await settings.change_economy(self.db, guild_id, **changes)

    async def rank_of(self, guild_id: int, user_id: int) -> LeaderboardEntry | None:
        """A player's place on the leaderboard (None before he has a wallet)."""
        check_ids(guild_id, user_id)
        with store_errors_as_table_errors():
            return await leaderboard_db.rank_of(self.db, guild_id, user_id)

    async def balance(self, guild_id: int, user_id: int) -> Wallet:
        check_ids(guild_id, user_id)
        with store_errors_as_table_errors():
            return await wallets_db.get_wallet(self.db, guild_id, user_id)

    async def daily(self, guild_id: int, user_id: int) -> DailyClaim:
        check_ids(guild_id, user_id)
        with store_errors_as_table_errors():
            return await wallets_db.claim_daily(self.db, guild_id, user_id)

    async def leaderboard(
        self,
        guild_id: int,
        page: int = 1,
        *,
        after: BoardSeek | None = None,
        before: BoardSeek | None = None,
    ) -> LeaderboardPage:
        """A page by number, or the page after/before a row of the page shown (no walk)."""
        check_ids(guild_id)
        if not is_int(page) or page < 1:
            raise errors.TableError("The page must be a whole number from 1.")
        with store_errors_as_table_errors():
            return await leaderboard_db.page(
                self.db, guild_id, page, after=check_seek(after), before=check_seek(before)
            )

    async def admin_adjust(
        self, guild_id: int, user_id: int, amount: int, note: str = ""
    ) -> Wallet:
        """Give (amount > 0) or take (amount < 0) wallet chips; the caller checks permissions."""
        check_ids(guild_id, user_id)
        if not is_int(amount) or amount == 0:
            raise errors.AmountError("The adjustment must be a whole number of chips, not zero.")
        check_chips(abs(amount), "adjustment")
        with store_errors_as_table_errors():
            if amount > 0:
                return await wallets_db.admin_give(self.db, guild_id, user_id, amount, note=note)
            try:
                return await wallets_db.admin_take(self.db, guild_id, user_id, -amount, note=note)
            except InsufficientChips as short:
                raise errors.InsufficientFundsError(
                    f"You need {short.needed:,} chips but that player's wallet holds "
                    f"{short.available:,}."
                ) from short


class PlayerPrefs:
    """A player's own preferences, by user id (the same in every server)."""

    # The mark on the seat of a player whose cards reach him only by the private panel
    # (his DMs are closed): the front end's words for it.
    CARDS_BY_PANEL: ClassVar[str] = "cards: My cards"

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

    async def deck(self, user_id: int) -> DeckStyle:
        """The deck the player's private views draw cards with (the default: classic)."""
        check_ids(user_id)
        with store_errors_as_table_errors():
            stored = await prefs_db.deck_of(self.db, user_id)
        return DEFAULT_DECK if stored is None else parse_deck(stored)

    async def set_deck(self, user_id: int, deck: DeckStyle | str) -> DeckStyle:
        """Choose the player's private deck; a name not a deck is refused (ConfigError)."""
        check_ids(user_id)
        style = parse_deck(deck)
        with store_errors_as_table_errors():
            await prefs_db.set_deck(self.db, user_id, style.value)
        return style

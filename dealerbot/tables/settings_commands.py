"""The table service's settings commands: a channel's table settings, a guild's defaults,
and the front end's live table message id (kept across restarts).

A mixin of :class:`~dealerbot.tables.service.TableService` (like
:class:`~dealerbot.tables.accounts.Accounts`): a change to a loaded table runs under its lock
(``_command``) and applies from its next hand.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from dealerbot.store import tables as tables_db
from dealerbot.store.db import Database

from . import config as settings
from .checks import check_ids
from .config import TableConfig
from .errors import NoTableError
from .refusals import store_errors_as_table_errors

if TYPE_CHECKING:
    from .table import Table


class SettingsCommands:
    """config_get/config_set, guild_defaults_get/guild_defaults_set, table messages."""

    db: Database
    _tables: dict[tuple[int, int], Table]

    if TYPE_CHECKING:  # TableService's: the table's lock, lease and events

        def _command(self, guild_id: int, channel_id: int) -> AbstractAsyncContextManager[Any]: ...

    async def config_get(self, guild_id: int, channel_id: int) -> TableConfig:
        check_ids(guild_id, channel_id)
        with store_errors_as_table_errors():
            return await settings.table_config(self.db, guild_id, channel_id)

    async def config_set(self, guild_id: int, channel_id: int, **changes: Any) -> TableConfig:
        """Change this channel's settings (validated by the store); applies from the next hand."""
        async with self._command(guild_id, channel_id) as ref:
            with store_errors_as_table_errors():
                config = await settings.change_table_config(
                    self.db, guild_id, channel_id, **changes
                )
                if ref.table is not None:  # a new game or list restarts the rotation
                    await ref.table.games.settings_changed(
                        self.db, ref.table.id, ref.table.config, config
                    )
            if ref.table is not None:
                ref.table.config = config
                ref.table.touch()
            return config

    async def guild_defaults_set(self, guild_id: int, **changes: Any) -> TableConfig:
        """Change the guild's default settings; tables without their own pick them up."""
        check_ids(guild_id)
        with store_errors_as_table_errors():
            config = await settings.change_guild_defaults(self.db, guild_id, **changes)
        for (guild, channel), table in list(self._tables.items()):
            if guild == guild_id:
                async with self._command(guild, channel) as ref:
                    if ref.table is table:
                        new = await settings.table_config(self.db, guild, channel)
                        await table.games.settings_changed(self.db, table.id, table.config, new)
                        table.config = new
                        table.touch()
        return config

    async def guild_defaults_get(self, guild_id: int) -> TableConfig:
        check_ids(guild_id)
        with store_errors_as_table_errors():
            return await settings.guild_defaults(self.db, guild_id)

    async def choose_game(self, guild_id: int, channel_id: int, user_id: int, game: str) -> None:
        """Dealer's choice: the button player's pick of the next game (anyone else is
        refused); the hand is dealt at once in that game."""
        async with self._command(guild_id, channel_id) as ref:
            if ref.table is None:
                raise NoTableError()
            await ref.table.choose_game(user_id, game)

    async def table_message(self, table_id: int) -> int | None:
        """The id of the front end's live table message, kept across restarts."""
        check_ids(table_id)
        with store_errors_as_table_errors():
            return (await tables_db.get_table(self.db, table_id)).message_id

    async def set_table_message(self, table_id: int, message_id: int | None) -> None:
        check_ids(table_id)
        with store_errors_as_table_errors():
            await tables_db.set_table_message(self.db, table_id, message_id)

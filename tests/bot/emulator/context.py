"""Shared state handed to the REST route modules: config, world, gateway, records."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from .gateway import Gateway
from .interactions import InteractionRecord
from .models import JSON
from .recording import ChangeNotifier
from .snowflake import SnowflakeFactory
from .world import World


@dataclass
class Config:
    """Knobs tests may change at any time."""

    token: str
    application_id: int
    application_name: str
    application_flags: int = 0
    interaction_timeout: float = 3.0
    """Seconds within which the first callback must arrive (Discord: 3)."""
    followup_ttl: float = 15 * 60.0
    """Seconds the interaction token works for follow-ups and edits (Discord: 15 min)."""
    strict_commands: bool = True
    """Refuse to inject commands the bot never registered (Discord would not show them)."""
    attachment_size_limit: int = 10 * 1024 * 1024
    """Largest file the bot may upload to a channel (413 40005 above; Discord: 10 MiB)."""


@dataclass
class CommandStore:
    """Registered application commands, global and per guild.

    Bulk overwrites keep a command's id when a command of the same name and type
    already existed, as Discord does.
    """

    ids: SnowflakeFactory
    application_id: int
    global_commands: list[JSON] = field(default_factory=list)
    guild_commands: dict[int, list[JSON]] = field(default_factory=dict)

    def listing(self, guild_id: int | None) -> list[JSON]:
        """The live list for global (None) or one guild."""
        if guild_id is None:
            return self.global_commands
        return self.guild_commands.setdefault(guild_id, [])

    def normalise(self, body: JSON, guild_id: int | None, old: JSON | None) -> JSON:
        """A stored command object built from a request body."""
        kind = int(body.get("type") or 1)
        cmd: JSON = {
            "id": old["id"] if old else str(self.ids.next()),
            "application_id": str(self.application_id),
            "version": str(self.ids.next()),
            "type": kind,
            "name": body.get("name"),
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", "") if kind == 1 else "",
            "description_localizations": body.get("description_localizations"),
            "options": copy.deepcopy(body.get("options") or []),
            "default_member_permissions": body.get("default_member_permissions"),
            "dm_permission": body.get("dm_permission", True),
            "nsfw": bool(body.get("nsfw", False)),
            "integration_types": body.get("integration_types") or [0],
            "contexts": body.get("contexts"),
        }
        if guild_id is not None:
            cmd["guild_id"] = str(guild_id)
        return cmd

    def overwrite(self, guild_id: int | None, bodies: list[JSON]) -> list[JSON]:
        """Replace all commands of a scope, keeping ids of same-named ones."""
        current = {(int(c.get("type") or 1), c["name"]): c for c in self.listing(guild_id)}
        fresh = []
        for body in bodies:
            key = (int(body.get("type") or 1), str(body.get("name")))
            fresh.append(self.normalise(body, guild_id, current.get(key)))
        if guild_id is None:
            self.global_commands = fresh
        else:
            self.guild_commands[guild_id] = fresh
        return copy.deepcopy(fresh)

    def upsert(self, guild_id: int | None, body: JSON) -> tuple[JSON, bool]:
        """Create or replace one command; returns (command, created)."""
        listing = self.listing(guild_id)
        key = (int(body.get("type") or 1), str(body.get("name")))
        for index, cmd in enumerate(listing):
            if (int(cmd.get("type") or 1), cmd["name"]) == key:
                listing[index] = self.normalise(body, guild_id, cmd)
                return copy.deepcopy(listing[index]), False
        cmd = self.normalise(body, guild_id, None)
        listing.append(cmd)
        return copy.deepcopy(cmd), True


@dataclass
class Context:
    """Everything the route handlers share."""

    config: Config
    ids: SnowflakeFactory
    world: World
    gateway: Gateway
    notifier: ChangeNotifier
    commands: CommandStore
    interactions: dict[int, InteractionRecord] = field(default_factory=dict)
    interactions_by_token: dict[str, InteractionRecord] = field(default_factory=dict)

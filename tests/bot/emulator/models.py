"""The emulated world's entities: users, guilds, roles, channels, members, messages.

Plain mutable dataclasses; `payloads.py` turns them into the JSON Discord would send.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from .permissions import Overwrite

JSON = dict[str, Any]

TEXT_CHANNEL = 0
DM_CHANNEL = 1

EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2
IS_COMPONENTS_V2 = 1 << 15


@dataclass
class User:
    """A Discord account. `dm_blocked` makes DMs from the bot fail with 50007."""

    id: int
    name: str
    bot: bool = False
    dm_blocked: bool = False
    global_name: str | None = None


@dataclass
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None


@dataclass
class Channel:
    """A guild text channel or a DM channel (then `recipient_id` is set)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    position: int = 0
    overwrites: list[Overwrite] = field(default_factory=list)
    recipient_id: int | None = None
    last_message_id: int | None = None
    topic: str | None = None


@dataclass
class Member:
    """A user's membership of one guild."""

    user: User
    guild_id: int
    role_ids: list[int]
    joined_at: str
    nick: str | None = None

    @property
    def id(self) -> int:
        """The member's user id (what Discord calls the member's id)."""
        return self.user.id

    @property
    def name(self) -> str:
        """The account name."""
        return self.user.name


@dataclass
class Guild:
    """A guild with its roles, channels (ids, in order) and members."""

    id: int
    name: str
    owner_id: int
    joined_at: str
    roles: dict[int, Role] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)


@dataclass
class StoredMessage:
    """A message as the emulator keeps it: current fields plus the edit history."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    timestamp: str
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[JSON] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    edited_timestamp: str | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_id: int | None = None
    interaction_metadata: JSON | None = None
    interaction_legacy: JSON | None = None
    ephemeral_for: int | None = None
    deleted: bool = False
    deleted_by: str | None = None
    history: list[JSON] = field(default_factory=list)

    @property
    def ephemeral(self) -> bool:
        """Whether only one user can see it (flag 64)."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether it is a "thinking…" placeholder left by a deferred response."""
        return bool(self.flags & LOADING)

    def snapshot(self) -> JSON:
        """The editable fields, for the edit history."""
        return copy.deepcopy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "attachments": self.attachments,
                "flags": self.flags,
                "edited_timestamp": self.edited_timestamp,
            }
        )

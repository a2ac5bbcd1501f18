"""Permission bits and Discord's channel permission algorithm.

The emulator computes permissions the way Discord does (roles, then @everyone, role and
member overwrites) so that the bot's own checks, `member.permissions` and
`app_permissions` in interactions, and the 403s the REST API returns all agree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
USE_VAD = 1 << 25
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
USE_EXTERNAL_STICKERS = 1 << 37

ALL = (1 << 51) - 1

DEFAULT_EVERYONE = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | USE_VAD
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | USE_EXTERNAL_STICKERS
    | SEND_MESSAGES_IN_THREADS
)
"""What a fresh guild's @everyone role may do."""

DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_EXTERNAL_EMOJIS
    | MENTION_EVERYONE
    | USE_APPLICATION_COMMANDS
)
"""Permissions Discord reports inside a DM channel."""

ROLE_OVERWRITE = 0
MEMBER_OVERWRITE = 1


@dataclass
class Overwrite:
    """A channel permission overwrite for a role (type 0) or a member (type 1)."""

    target_id: int
    type: int
    allow: int = 0
    deny: int = 0


def base_permissions(everyone: int, role_permissions: Iterable[int], is_owner: bool) -> int:
    """Guild-level permissions: @everyone plus the member's roles."""
    if is_owner:
        return ALL
    perms = everyone
    for value in role_permissions:
        perms |= value
    if perms & ADMINISTRATOR:
        return ALL
    return perms


def apply_overwrites(
    base: int,
    overwrites: Iterable[Overwrite],
    guild_id: int,
    role_ids: Iterable[int],
    member_id: int,
) -> int:
    """Channel-level permissions from guild-level ones, in Discord's order."""
    if base & ADMINISTRATOR:
        return ALL
    listed = list(overwrites)
    roles = set(role_ids)
    perms = base
    for ow in listed:
        if ow.type == ROLE_OVERWRITE and ow.target_id == guild_id:
            perms = (perms & ~ow.deny) | ow.allow
    allow = deny = 0
    for ow in listed:
        if ow.type == ROLE_OVERWRITE and ow.target_id in roles:
            allow |= ow.allow
            deny |= ow.deny
    perms = (perms & ~deny) | allow
    for ow in listed:
        if ow.type == MEMBER_OVERWRITE and ow.target_id == member_id:
            perms = (perms & ~ow.deny) | ow.allow
    if not perms & VIEW_CHANNEL:
        return 0
    return perms

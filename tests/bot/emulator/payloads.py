"""JSON payloads in the shapes Discord sends (and discord.py parses)."""

from __future__ import annotations

import copy
from collections.abc import Iterable

from .models import DM_CHANNEL, JSON, Channel, Guild, Member, Role, StoredMessage, User
from .permissions import Overwrite


def user_payload(user: User) -> JSON:
    """A user object."""
    data: JSON = {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
        "primary_guild": None,
        "collectibles": None,
    }
    if user.bot:
        data["bot"] = True
    return data


def bot_user_payload(user: User) -> JSON:
    """The bot's own user object, as in READY and GET /users/@me."""
    data = user_payload(user)
    data.update(verified=True, mfa_enabled=False, email=None, locale="en-US", bot=True)
    return data


def role_payload(role: Role) -> JSON:
    """A role object."""
    data: JSON = {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed,
        "mentionable": False,
        "flags": 0,
    }
    if role.bot_id is not None:
        data["tags"] = {"bot_id": str(role.bot_id)}
    return data


def overwrite_payload(ow: Overwrite) -> JSON:
    """A permission overwrite object."""
    return {
        "id": str(ow.target_id),
        "type": ow.type,
        "allow": str(ow.allow),
        "deny": str(ow.deny),
    }


def channel_payload(channel: Channel, recipients: Iterable[User] = ()) -> JSON:
    """A guild text channel or DM channel object."""
    last = str(channel.last_message_id) if channel.last_message_id else None
    if channel.type == DM_CHANNEL:
        return {
            "id": str(channel.id),
            "type": DM_CHANNEL,
            "last_message_id": last,
            "flags": 0,
            "recipients": [user_payload(u) for u in recipients],
        }
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": [overwrite_payload(ow) for ow in channel.overwrites],
        "nsfw": False,
        "topic": channel.topic,
        "last_message_id": last,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }


def member_payload(member: Member, permissions: int | None = None) -> JSON:
    """A guild member object; `permissions` is added as interactions carry it."""
    data: JSON = {
        "user": user_payload(member.user),
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in member.role_ids],
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def guild_payload(guild: Guild, channels: Iterable[Channel]) -> JSON:
    """The full guild object of GUILD_CREATE (member_count equals the members sent)."""
    members = [member_payload(m) for m in guild.members.values()]
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "region": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "preferred_locale": "en-US",
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "vanity_url_code": None,
        "application_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "features": [],
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "joined_at": guild.joined_at,
        "large": False,
        "unavailable": False,
        "lazy": True,
        "member_count": len(members),
        "members": members,
        "channels": [channel_payload(c) for c in channels],
        "threads": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def message_payload(msg: StoredMessage, author: User) -> JSON:
    """A full message object (what REST returns and MESSAGE_CREATE carries)."""
    data: JSON = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "author": user_payload(author),
        "content": msg.content,
        "timestamp": msg.timestamp,
        "edited_timestamp": msg.edited_timestamp,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "mention_channels": [],
        "attachments": copy.deepcopy(msg.attachments),
        "embeds": copy.deepcopy(msg.embeds),
        "components": copy.deepcopy(msg.components),
        "reactions": [],
        "pinned": False,
        "type": msg.type,
        "flags": msg.flags,
        "nonce": None,
    }
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
    if msg.application_id is not None:
        data["application_id"] = str(msg.application_id)
    if msg.interaction_metadata is not None:
        data["interaction_metadata"] = copy.deepcopy(msg.interaction_metadata)
    if msg.interaction_legacy is not None:
        data["interaction"] = copy.deepcopy(msg.interaction_legacy)
    return data

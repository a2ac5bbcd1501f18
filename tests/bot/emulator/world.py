"""The emulated world: who exists, which channels and messages, and what changes.

Every mutation notifies waiters (`ChangeNotifier`) and, where Discord would, queues a
gateway dispatch (subject to the bot's intents) through the `dispatch` callback.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import permissions as perm
from .errors import missing_access, unknown_channel, unknown_message
from .models import (
    DM_CHANNEL,
    EPHEMERAL,
    JSON,
    LOADING,
    SUPPRESS_EMBEDS,
    TEXT_CHANNEL,
    Channel,
    Guild,
    Member,
    Role,
    StoredMessage,
    User,
)
from .payloads import (
    channel_payload,
    guild_payload,
    member_payload,
    message_payload,
    role_payload,
)
from .recording import ChangeNotifier
from .snowflake import SnowflakeFactory, iso_now

GUILDS_INTENT = 1 << 0
GUILD_MEMBERS_INTENT = 1 << 1
GUILD_MESSAGES_INTENT = 1 << 9
DIRECT_MESSAGES_INTENT = 1 << 12

Dispatch = Callable[[str, JSON, int | None], object]
UserRef = User | Member | int
GuildRef = Guild | int
ChannelRef = Channel | int


@dataclass
class AppEmoji:
    """One of the application's own emoji (routes_emoji.py serves them)."""

    id: int
    name: str
    image: bytes = b""  # the decoded upload (empty for one a test put there directly)
    content_type: str = "image/png"
    user_id: int | None = None  # who uploaded it: the bot user through the API


class World:
    """Entities and message state shared by REST, gateway and test helpers."""

    def __init__(
        self,
        ids: SnowflakeFactory,
        bot_user: User,
        notifier: ChangeNotifier,
        bot_permissions: int,
    ) -> None:
        self.ids = ids
        self.bot_user = bot_user
        self.notifier = notifier
        self.bot_permissions = bot_permissions
        self.dispatch: Dispatch = lambda t, d, intent: None
        self.app_owner = User(id=ids.next(), name="app-owner")
        self.users: dict[int, User] = {bot_user.id: bot_user, self.app_owner.id: self.app_owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.dm_channels: dict[int, int] = {}
        self.attachment_data: dict[int, bytes] = {}
        self.left_channels: set[int] = set()  # channels of guilds that removed the bot
        # The application's own emoji by id: the one application here (config.application_id)
        # owns them; a message may later use only these as custom emoji.
        self.application_emojis: dict[int, AppEmoji] = {}

    # ----- lookups -------------------------------------------------------------
    def user(self, ref: UserRef) -> User:
        """The user behind a User, Member or id."""
        if isinstance(ref, User):
            return ref
        if isinstance(ref, Member):
            return ref.user
        return self.users[int(ref)]

    def guild(self, ref: GuildRef) -> Guild:
        """The guild behind a Guild or id."""
        return ref if isinstance(ref, Guild) else self.guilds[int(ref)]

    def channel(self, ref: ChannelRef | str) -> Channel:
        """The channel behind a Channel or id; ApiError 10003 if unknown."""
        if isinstance(ref, Channel):
            return ref
        try:
            return self.channels[int(ref)]
        except (KeyError, ValueError):
            if str(ref).isdigit() and int(ref) in self.left_channels:
                raise missing_access() from None
            raise unknown_channel() from None

    def message(self, message_id: int | str) -> StoredMessage:
        """A live message; ApiError 10008 if unknown or deleted."""
        try:
            msg = self.messages[int(message_id)]
        except (KeyError, ValueError):
            raise unknown_message() from None
        if msg.deleted:
            raise unknown_message()
        return msg

    def application_emoji(self, emoji_id: int | str) -> AppEmoji | None:
        """The application's emoji with this id, or None (unknown, or not the application's)."""
        return self.application_emojis.get(int(emoji_id)) if str(emoji_id).isdigit() else None

    def can_use_emoji(self, emoji_id: str) -> bool:
        """Whether the bot may show this custom emoji on a component: the application's own
        (the emulator's guilds have no emoji of their own)."""
        return self.application_emoji(emoji_id) is not None

    def add_application_emoji(self, name: str, image: bytes = b"") -> AppEmoji:
        """An emoji the application already owns (as if uploaded in the Developer Portal)."""
        if any(e.name == name for e in self.application_emojis.values()):
            raise ValueError(f"the application already has an emoji named {name!r}")
        emoji = AppEmoji(id=self.ids.next(), name=name, image=image, user_id=self.app_owner.id)
        self.application_emojis[emoji.id] = emoji
        self.notifier.notify()
        return emoji

    def bot_member(self, guild: Guild) -> Member:
        """The bot's own membership of a guild."""
        return guild.members[self.bot_user.id]

    # ----- building the world ----------------------------------------------------
    def add_guild(self, name: str) -> Guild:
        """A guild with @everyone, an Admin role and the bot as a member."""
        guild_id = self.ids.next()
        owner = User(id=self.ids.next(), name=f"{name}-owner")
        self.users[owner.id] = owner
        guild = Guild(id=guild_id, name=name, owner_id=owner.id, joined_at=iso_now())
        guild.roles[guild_id] = Role(
            id=guild_id, name="@everyone", permissions=perm.DEFAULT_EVERYONE
        )
        admin = Role(
            id=self.ids.next(),
            name="Admin",
            permissions=perm.ADMINISTRATOR | perm.MANAGE_GUILD,
            position=2,
        )
        guild.roles[admin.id] = admin
        bot_role = Role(
            id=self.ids.next(),
            name=self.bot_user.name,
            permissions=self.bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(
            user=self.bot_user, guild_id=guild_id, role_ids=[bot_role.id], joined_at=iso_now()
        )
        self.guilds[guild_id] = guild
        self.dispatch("GUILD_CREATE", self.guild_create_payload(guild), None)
        self.notifier.notify()
        return guild

    def admin_role(self, guild: Guild) -> Role:
        """The Admin role every emulated guild has."""
        return next(r for r in guild.roles.values() if r.name == "Admin" and not r.managed)

    def add_member(
        self,
        guild_ref: GuildRef,
        name: str | None = None,
        *,
        user: User | None = None,
        admin: bool = False,
        dm_blocked: bool = False,
        bot: bool = False,
        extra_permissions: int = 0,
    ) -> Member:
        """Add a member (a new user, or an existing `user` joining another guild)."""
        guild = self.guild(guild_ref)
        if user is None:
            if name is None:
                raise ValueError("add_member needs a name or an existing user")
            user = User(id=self.ids.next(), name=name, bot=bot, dm_blocked=dm_blocked)
            self.users[user.id] = user
        roles: list[int] = []
        if admin:
            roles.append(self.admin_role(guild).id)
        if extra_permissions:
            role = Role(
                id=self.ids.next(),
                name=f"{user.name}-perms",
                permissions=extra_permissions,
                position=1,
            )
            guild.roles[role.id] = role
            self.dispatch(
                "GUILD_ROLE_CREATE",
                {"guild_id": str(guild.id), "role": role_payload(role)},
                GUILDS_INTENT,
            )
            roles.append(role.id)
        member = Member(user=user, guild_id=guild.id, role_ids=roles, joined_at=iso_now())
        guild.members[user.id] = member
        data = member_payload(member)
        data["guild_id"] = str(guild.id)
        self.dispatch("GUILD_MEMBER_ADD", data, GUILD_MEMBERS_INTENT)
        self.notifier.notify()
        return member

    def add_text_channel(
        self,
        guild_ref: GuildRef,
        name: str,
        *,
        bot_can_send: bool = True,
        bot_can_view: bool = True,
    ) -> Channel:
        """A text channel; the bot's access is expressed as a member overwrite."""
        guild = self.guild(guild_ref)
        channel = Channel(
            id=self.ids.next(),
            type=TEXT_CHANNEL,
            name=name,
            guild_id=guild.id,
            position=len(guild.channel_ids),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._set_bot_overwrite(channel, can_send=bot_can_send, can_view=bot_can_view)
        self.dispatch("CHANNEL_CREATE", channel_payload(channel), GUILDS_INTENT)
        self.notifier.notify()
        return channel

    def set_bot_channel_access(
        self, channel_ref: ChannelRef, *, can_send: bool = True, can_view: bool = True
    ) -> None:
        """Change what the bot may do in a channel (dispatches CHANNEL_UPDATE)."""
        channel = self.channel(channel_ref)
        self._set_bot_overwrite(channel, can_send=can_send, can_view=can_view)
        self.dispatch("CHANNEL_UPDATE", channel_payload(channel), GUILDS_INTENT)
        self.notifier.notify()

    def delete_channel(self, channel_ref: ChannelRef) -> None:
        """Delete a guild channel (dispatches CHANNEL_DELETE); its routes answer 10003."""
        channel = self.channel(channel_ref)
        if channel.guild_id is None:
            raise ValueError("only guild channels can be deleted")
        del self.channels[channel.id]
        self.guilds[channel.guild_id].channel_ids.remove(channel.id)
        self.dispatch("CHANNEL_DELETE", channel_payload(channel), GUILDS_INTENT)
        self.notifier.notify()

    def remove_bot(self, guild_ref: GuildRef) -> None:
        """The guild kicks the bot (dispatches GUILD_DELETE without ``unavailable``).

        The guild and its channels vanish for the bot: their routes answer 403 50001.
        """
        guild = self.guild(guild_ref)
        del self.guilds[guild.id]
        for channel_id in guild.channel_ids:
            self.channels.pop(channel_id, None)
            self.left_channels.add(channel_id)
        self.dispatch("GUILD_DELETE", {"id": str(guild.id)}, GUILDS_INTENT)
        self.notifier.notify()

    def _set_bot_overwrite(self, channel: Channel, *, can_send: bool, can_view: bool) -> None:
        channel.overwrites = [ow for ow in channel.overwrites if ow.target_id != self.bot_user.id]
        deny = (0 if can_send else perm.SEND_MESSAGES) | (0 if can_view else perm.VIEW_CHANNEL)
        if deny:
            channel.overwrites.append(
                perm.Overwrite(target_id=self.bot_user.id, type=perm.MEMBER_OVERWRITE, deny=deny)
            )

    def dm_channel_for(self, user_ref: UserRef) -> Channel:
        """The DM channel between the bot and a user (created on first use)."""
        user = self.user(user_ref)
        channel_id = self.dm_channels.get(user.id)
        if channel_id is not None:
            return self.channels[channel_id]
        channel = Channel(id=self.ids.next(), type=DM_CHANNEL, recipient_id=user.id)
        self.channels[channel.id] = channel
        self.dm_channels[user.id] = channel.id
        self.notifier.notify()
        return channel

    # ----- permissions ---------------------------------------------------------
    def guild_permissions(self, guild: Guild, member: Member) -> int:
        """Guild-wide permissions of a member."""
        everyone = guild.roles[guild.id].permissions
        roles = [guild.roles[r].permissions for r in member.role_ids if r in guild.roles]
        return perm.base_permissions(everyone, roles, member.id == guild.owner_id)

    def channel_permissions(self, channel: Channel, member: Member | None) -> int:
        """A member's permissions in a channel (DM channels: Discord's fixed DM set)."""
        if channel.guild_id is None or member is None:
            return perm.DM_PERMISSIONS
        guild = self.guilds[channel.guild_id]
        base = self.guild_permissions(guild, member)
        return perm.apply_overwrites(base, channel.overwrites, guild.id, member.role_ids, member.id)

    def bot_channel_permissions(self, channel: Channel) -> int:
        """What the bot may do in a channel."""
        if channel.guild_id is None:
            return perm.DM_PERMISSIONS
        return self.channel_permissions(channel, self.bot_member(self.guilds[channel.guild_id]))

    # ----- payloads ------------------------------------------------------------
    def guild_create_payload(self, guild: Guild) -> JSON:
        """GUILD_CREATE data for a guild."""
        return guild_payload(guild, [self.channels[c] for c in guild.channel_ids])

    def channel_json(self, channel: Channel) -> JSON:
        """A channel object (DMs include the recipient)."""
        recipients = []
        if channel.recipient_id is not None:
            recipients.append(self.users[channel.recipient_id])
        return channel_payload(channel, recipients)

    def message_json(self, msg: StoredMessage) -> JSON:
        """A full message object."""
        return message_payload(msg, self.users[msg.author_id])

    # ----- messages ------------------------------------------------------------
    def create_message(
        self,
        channel: Channel,
        body: JSON,
        *,
        files: list[JSON] | None = None,
        msg_type: int = 0,
        ephemeral_for: int | None = None,
        extra_flags: int = 0,
        interaction: JSON | None = None,
    ) -> StoredMessage:
        """Store a new bot message (ephemeral ones are kept but never broadcast)."""
        flags = int(body.get("flags") or 0) & (SUPPRESS_EMBEDS | EPHEMERAL | 1 << 12 | 1 << 15)
        flags |= extra_flags
        if ephemeral_for is None:
            flags &= ~EPHEMERAL
        msg = StoredMessage(
            id=self.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.bot_user.id,
            timestamp=iso_now(),
            content=str(body.get("content") or ""),
            embeds=_normalise_embeds(body.get("embeds")),
            components=copy.deepcopy(body.get("components") or []),
            attachments=self._attachments(body, files or [], []),
            flags=flags,
            type=msg_type,
            ephemeral_for=ephemeral_for if flags & EPHEMERAL else None,
        )
        if interaction is not None:
            msg.webhook_id = int(interaction["application_id"])
            msg.application_id = int(interaction["application_id"])
            msg.interaction_id = int(interaction["id"])
            msg.interaction_metadata = interaction_metadata(interaction)
            msg.interaction_legacy = _legacy_interaction(interaction)
        self.messages[msg.id] = msg
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            self.dispatch("MESSAGE_CREATE", self._event_payload(msg), _message_intent(msg))
        self.notifier.notify()
        return msg

    def edit_message(
        self, msg: StoredMessage, body: JSON, *, files: list[JSON] | None = None
    ) -> None:
        """Apply an edit body (fields present replace, null clears)."""
        msg.history.append(msg.snapshot())
        if "content" in body:
            msg.content = str(body["content"] or "")
        if "embeds" in body:
            msg.embeds = _normalise_embeds(body["embeds"])
        if "components" in body:
            msg.components = copy.deepcopy(body["components"] or [])
        if "attachments" in body or files:
            keep = body.get("attachments")
            msg.attachments = self._attachments(body, files or [], msg.attachments, keep)
        if "flags" in body and body["flags"] is not None:
            wanted = int(body["flags"]) & SUPPRESS_EMBEDS
            msg.flags = (msg.flags & ~SUPPRESS_EMBEDS) | wanted
        msg.flags &= ~LOADING
        msg.edited_timestamp = iso_now()
        if not msg.ephemeral:
            self.dispatch("MESSAGE_UPDATE", self._event_payload(msg), _message_intent(msg))
        self.notifier.notify()

    def delete_message(self, msg: StoredMessage, by: str) -> None:
        """Mark a message deleted (it stays visible to `include_deleted` queries)."""
        msg.deleted = True
        msg.deleted_by = by
        if not msg.ephemeral:
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id is not None:
                data["guild_id"] = str(msg.guild_id)
            self.dispatch("MESSAGE_DELETE", data, _message_intent(msg))
        self.notifier.notify()

    def _attachments(
        self,
        body: JSON,
        files: list[JSON],
        existing: list[JSON],
        keep: list[JSON] | None = None,
    ) -> list[JSON]:
        kept_ids = {str(a.get("id")) for a in keep or []}
        result = [a for a in existing if str(a["id"]) in kept_ids]
        for index, file in enumerate(files):
            attachment_id = self.ids.next()
            self.attachment_data[attachment_id] = file.get("data", b"")
            filename = file["filename"]
            meta: JSON = next(
                (a for a in body.get("attachments") or [] if str(a.get("id")) == str(index)),
                {},
            )
            result.append(
                {
                    "id": str(attachment_id),
                    "filename": filename,
                    "size": file["size"],
                    "url": f"{file['base_url']}/attachments/{attachment_id}/{filename}",
                    "proxy_url": f"{file['base_url']}/attachments/{attachment_id}/{filename}",
                    "content_type": file.get("content_type"),
                    "description": meta.get("description"),
                }
            )
        return result

    def _event_payload(self, msg: StoredMessage) -> JSON:
        data = self.message_json(msg)
        if msg.guild_id is not None:
            guild = self.guilds[msg.guild_id]
            data["guild_id"] = str(guild.id)
            member = member_payload(self.bot_member(guild))
            member.pop("user")
            data["member"] = member
        return data


def interaction_metadata(interaction: JSON) -> JSON:
    """The `interaction_metadata` a response message carries."""
    user = interaction.get("user") or interaction["member"]["user"]
    data: JSON = {
        "id": str(interaction["id"]),
        "type": interaction["type"],
        "user": user,
        "authorizing_integration_owners": interaction.get("authorizing_integration_owners", {}),
    }
    if interaction.get("message"):
        data["interacted_message_id"] = interaction["message"]["id"]
    if interaction["type"] == 2:
        data["name"] = interaction["data"]["name"]
        data["command_type"] = interaction["data"].get("type", 1)
    return data


def _legacy_interaction(interaction: JSON) -> JSON:
    user = interaction.get("user") or interaction["member"]["user"]
    name = interaction["data"].get("name") or interaction["data"].get("custom_id", "")
    return {"id": str(interaction["id"]), "type": interaction["type"], "name": name, "user": user}


def _message_intent(msg: StoredMessage) -> int:
    return DIRECT_MESSAGES_INTENT if msg.guild_id is None else GUILD_MESSAGES_INTENT


def _normalise_embeds(embeds: Any) -> list[JSON]:
    result = []
    for embed in embeds or []:
        item = copy.deepcopy(embed)
        item.setdefault("type", "rich")
        result.append(item)
    return result

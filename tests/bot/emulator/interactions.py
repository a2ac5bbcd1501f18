"""Interactions the tests inject, and what the bot answered to each of them.

`InteractionRecord` is what `slash_command()` and `click()` return: the test awaits
`record.response()` for the callback, and reads follow-ups and edits made later with the
interaction token from the same record.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from .models import EPHEMERAL, JSON, StoredMessage
from .payloads import member_payload, user_payload
from .recording import ChangeNotifier
from .world import World

PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5

PONG = 1
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9


@dataclass
class CallbackRecord:
    """The bot's accepted answer to an interaction."""

    type: int
    data: JSON
    elapsed: float
    """Seconds between the interaction's creation and the callback."""

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.data.get("content")

    @property
    def embeds(self) -> list[JSON]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[JSON]:
        return list(self.data.get("components") or [])


@dataclass
class RejectedCall:
    """A callback or webhook call the emulator refused (expired, doubled, …)."""

    method: str
    path: str
    status: int
    code: int
    body: Any


@dataclass
class InteractionRecord:
    """One injected interaction and everything the bot did with its token."""

    id: int
    token: str
    type: int
    payload: JSON
    user_id: int
    channel_id: int
    guild_id: int | None
    world: World
    notifier: ChangeNotifier
    message_id: int | None = None
    created_at: float = field(default_factory=time.monotonic)
    callback: CallbackRecord | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    events: list[tuple[str, JSON]] = field(default_factory=list)
    rejected: list[RejectedCall] = field(default_factory=list)
    modal_submitted: bool = False

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    @property
    def age(self) -> float:
        """Seconds since the interaction was created."""
        return time.monotonic() - self.created_at

    def expire(self, seconds: float = 3600.0) -> None:
        """Pretend the interaction is `seconds` older (kills the token without sleeping)."""
        self.created_at -= seconds

    async def response(self, timeout: float = 5.0) -> CallbackRecord:  # noqa: ASYNC109
        """Wait for the bot's callback (type 4/5/6/7/9…)."""
        await self.notifier.wait_for(lambda: self.callback is not None, timeout)
        assert self.callback is not None
        return self.callback

    def original(self) -> JSON | None:
        """Current state of the message the response created or updated (None if none/deleted)."""
        if self.original_message_id is None:
            return None
        msg = self.world.messages.get(self.original_message_id)
        if msg is None or msg.deleted:
            return None
        return self.world.message_json(msg)

    def followups(self) -> list[JSON]:
        """Current state of each message returned by a follow-up (live ones only).

        After a "thinking" defer the first follow-up edits the placeholder, so its entry
        is the original message.
        """
        result = []
        for mid in self.followup_ids:
            msg = self.world.messages.get(mid)
            if msg is not None and not msg.deleted:
                result.append(self.world.message_json(msg))
        return result

    async def wait_followups(
        self,
        count: int = 1,
        timeout: float = 5.0,  # noqa: ASYNC109 - one deadline per wait, like response()
    ) -> list[JSON]:
        """Wait until at least `count` follow-ups were sent."""
        await self.notifier.wait_for(lambda: len(self.followup_ids) >= count, timeout)
        return self.followups()

    def owns_message(self, message_id: int) -> bool:
        """Whether the interaction token may touch this message."""
        return message_id == self.original_message_id or message_id in self.followup_ids


def base_payload(
    world: World,
    *,
    interaction_id: int,
    token: str,
    application_id: int,
    kind: int,
    channel_id: int,
    user_id: int,
    data: JSON,
    locale: str,
) -> JSON:
    """Fields every interaction carries, for a guild channel or a DM."""
    channel = world.channel(channel_id)
    user = world.users[user_id]
    payload: JSON = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": kind,
        "data": data,
        "channel_id": str(channel.id),
        "channel": world.channel_json(channel),
        "token": token,
        "version": 1,
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "attachment_size_limit": 10 * 1024 * 1024,
        "app_permissions": str(world.bot_channel_permissions(channel)),
    }
    if channel.guild_id is not None:
        guild = world.guilds[channel.guild_id]
        member = guild.members.get(user_id)
        if member is None:
            raise ValueError(f"user {user.name!r} is not a member of guild {guild.name!r}")
        payload.update(
            guild_id=str(guild.id),
            guild={"id": str(guild.id), "locale": "en-US", "features": []},
            guild_locale="en-US",
            member=member_payload(member, world.channel_permissions(channel, member)),
            authorizing_integration_owners={"0": str(guild.id)},
            context=0,
        )
        payload["channel"]["permissions"] = payload["member"]["permissions"]
    else:
        payload.update(
            user=user_payload(user),
            authorizing_integration_owners={"0": "0"},
            context=1,
        )
    return payload


def find_component(components: list[JSON], custom_id: str) -> JSON | None:
    """The component with this custom_id anywhere in a message's component tree."""
    for comp in components:
        if comp.get("custom_id") == custom_id:
            return comp
        for key in ("components", "accessory", "component"):
            nested = comp.get(key)
            children = [nested] if isinstance(nested, dict) else nested or []
            found = find_component(children, custom_id)
            if found is not None:
                return found
    return None


def visible_to(msg: StoredMessage, user_id: int) -> bool:
    """Whether a user can see (and click on) a message."""
    return msg.ephemeral_for is None or msg.ephemeral_for == user_id

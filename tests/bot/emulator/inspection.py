"""`Inspection`: what tests read back from the emulator (requests, refusals, messages).

A mixin of `DiscordEmulator`, kept apart so the facade stays small.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .context import CommandStore
from .models import JSON, Channel, StoredMessage
from .recording import ChangeNotifier, RecordedRequest, RefusedRequest
from .rest import RestPipeline
from .world import ChannelRef, GuildRef, UserRef, World

T = TypeVar("T")


class Inspection:
    """Read-only views over what the bot did; needs `rest`, `world`, `commands_store`."""

    rest: RestPipeline
    world: World
    commands_store: CommandStore
    notifier: ChangeNotifier

    def requests(
        self,
        method: str | None = None,
        path_contains: str | None = None,
        *,
        status: int | None = None,
    ) -> list[RecordedRequest]:
        """Recorded REST requests, oldest first, optionally filtered."""
        return [
            r
            for r in self.rest.requests
            if (method is None or r.method == method.upper())
            and (path_contains is None or path_contains in r.path)
            and (status is None or r.status == status)
        ]

    def refused_requests(
        self,
        *,
        include_injected: bool = False,
        status: int | None = None,
        code: int | None = None,
    ) -> list[RefusedRequest]:
        """Requests answered with an error (4xx/5xx), oldest first.

        Failures planted with `fail_next` are left out unless `include_injected`; what
        remains is what the bot sent and Discord would have refused (bad bodies, 10062,
        40060, 50007 DMs to blocked users, real 429s...).
        """
        return [
            r
            for r in self.rest.refused
            if (include_injected or not r.injected)
            and (status is None or r.status == status)
            and (code is None or r.code == code)
        ]

    @property
    def refused(self) -> list[RefusedRequest]:
        """`refused_requests()` with the defaults: every refusal not planted by the test."""
        return self.refused_requests()

    def assert_nothing_refused(self, *, ignore_codes: frozenset[int] = frozenset()) -> None:
        """AssertionError listing every refused request (except `ignore_codes`)."""
        bad = [r for r in self.refused if r.code not in ignore_codes]
        if bad:
            lines = "\n".join(r.describe() for r in bad)
            raise AssertionError(f"{len(bad)} request(s) refused by the emulator:\n{lines}")

    @property
    def unknown_routes(self) -> list[tuple[str, str]]:
        """(method, path) of requests no route matched (answered 404/405)."""
        return list(self.rest.unknown_routes)

    @property
    def invalid_request_count(self) -> int:
        """401/403/429 answers so far (Discord bans IPs at 10,000 per 10 minutes)."""
        return self.rest.invalid_requests

    def channel_messages(
        self,
        channel: ChannelRef,
        *,
        include_deleted: bool = False,
        include_ephemeral: bool = False,
    ) -> list[JSON]:
        """Current state of a channel's messages, oldest first."""
        channel_id = channel.id if isinstance(channel, Channel) else int(channel)
        return [
            self.world.message_json(m)
            for m in sorted(self.world.messages.values(), key=lambda m: m.id)
            if m.channel_id == channel_id
            and (include_deleted or not m.deleted)
            and (include_ephemeral or not m.ephemeral)
        ]

    def dm_messages(self, user: UserRef) -> list[JSON]:
        """Messages the bot delivered to a user's DMs, oldest first."""
        channel_id = self.world.dm_channels.get(self.world.user(user).id)
        return [] if channel_id is None else self.channel_messages(channel_id)

    def ephemeral_messages(self, user: UserRef) -> list[JSON]:
        """Live ephemeral messages shown to a user, oldest first."""
        uid = self.world.user(user).id
        return [
            self.world.message_json(m)
            for m in sorted(self.world.messages.values(), key=lambda m: m.id)
            if m.ephemeral_for == uid and not m.deleted
        ]

    def message(self, message_id: int | str) -> JSON:
        """Current payload of any stored message (deleted ones too)."""
        return self.world.message_json(self.stored_message(message_id))

    def stored_message(self, message_id: int | str) -> StoredMessage:
        """The emulator's record of a message: flags, deletion, edit history."""
        return self.world.messages[int(message_id)]

    def commands(self, guild: GuildRef | None = None) -> list[JSON]:
        """Registered commands: global (guild=None) or of one guild."""
        guild_id = None if guild is None else self.world.guild(guild).id
        return [dict(c) for c in self.commands_store.listing(guild_id)]

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = 5.0,  # noqa: ASYNC109 - the brief's API: one deadline per wait
    ) -> T:
        """Wait until `predicate()` is truthy (re-checked on every change); return its value."""
        return await self.notifier.wait_for(predicate, timeout)

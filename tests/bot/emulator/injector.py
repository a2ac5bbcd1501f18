"""Building and sending the interactions tests inject (slash commands, clicks, selects).

Mirrors what Discord's client allows a user to do: only registered commands, only
options the schema has, only components that exist, are enabled, and are visible to
that user. The payloads carry everything discord.py reads.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any

from . import permissions as perm
from .command_options import CHANNEL, MENTIONABLE, ROLE, USER, build_options, find_command
from .context import Context
from .interactions import (
    APPLICATION_COMMAND,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    InteractionRecord,
    base_payload,
    find_component,
    visible_to,
)
from .modal_submit import Answers, modal_submission
from .models import JSON, Channel, Guild, Member, Role, StoredMessage, User
from .payloads import channel_payload, member_payload, role_payload, user_payload
from .validation import SELECT_TYPES
from .world import ChannelRef, GuildRef, UserRef


class Injector:
    """Creates InteractionRecords and dispatches INTERACTION_CREATE for them."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.config = ctx.config
        self.ids = ctx.ids
        self.world = ctx.world
        self.gateway = ctx.gateway
        self.notifier = ctx.notifier
        self.commands_store = ctx.commands

    async def slash_command(
        self,
        guild: GuildRef | None,
        channel: ChannelRef | None,
        user: UserRef,
        name: str,
        *,
        subcommand: str | None = None,
        subgroup: str | None = None,
        options: dict[str, Any] | None = None,
        locale: str = "en-US",
        force: bool = False,
        unchecked: bool = False,
    ) -> InteractionRecord:
        """A user runs /name [subgroup] [subcommand] with options (guild=None: in DMs).

        Like Discord's client, refuses commands the bot never registered (unless
        `strict_commands` is off), unknown options, missing required ones, and commands
        whose `default_member_permissions`/contexts hide them from this user (unless
        `force=True`, to test the bot's own run-time checks). `unchecked=True` sends the
        subcommand and options as a stale or modified client would: not checked against the
        registered schema, option types guessed from the Python values.
        """
        the_user = self.world.user(user)
        if guild is None:
            the_guild: Guild | None = None
            the_channel = self.world.dm_channel_for(the_user)
        else:
            the_guild = self.world.guild(guild)
            if channel is None:
                raise ValueError("a guild command needs a channel")
            the_channel = self.world.channel(channel)
            if the_channel.guild_id != the_guild.id:
                raise ValueError("channel is not in that guild")
        command, command_guild = self._registered_command(name, the_guild)
        if command is None and self.config.strict_commands:
            raise LookupError(
                f"/{name} is not registered (sync the command tree first, "
                "or set emulator.strict_commands = False)"
            )
        if command is not None and not force:
            self._check_visible(command, the_guild, the_user)
        resolved: JSON = {}
        data: JSON = {
            "id": command["id"] if command else str(self.ids.next()),
            "name": name,
            "type": 1,
            "options": build_options(
                None if unchecked else command,
                subgroup=subgroup,
                subcommand=subcommand,
                values=dict(options or {}),
                resolve=self._resolver(resolved, the_guild, the_channel),
            ),
        }
        if command_guild is not None:
            data["guild_id"] = str(command_guild)
        if resolved:
            data["resolved"] = resolved
        return await self._launch(APPLICATION_COMMAND, the_channel, the_user, data, locale, None)

    async def click(
        self,
        message_id: int | str,
        custom_id: str,
        user: UserRef,
        *,
        values: list[str] | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """A user clicks a button (or picks `values` in a select) on a message."""
        msg = self.world.messages.get(int(message_id))
        if msg is None or msg.deleted:
            raise LookupError(f"message {message_id} does not exist (or was deleted)")
        the_user = self.world.user(user)
        if not visible_to(msg, the_user.id):
            raise PermissionError("that ephemeral message belongs to someone else")
        component = find_component(msg.components, custom_id)
        if component is None:
            raise ValueError(f"no component with custom_id {custom_id!r} on message {msg.id}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled")
        kind = int(component["type"])
        data: JSON = {"custom_id": custom_id, "component_type": kind}
        if kind in SELECT_TYPES:
            chosen = list(values or [])
            low = int(component.get("min_values", 1))
            high = int(component.get("max_values", 1))
            if not low <= len(chosen) <= high:
                raise ValueError(f"select needs between {low} and {high} values")
            if kind == 3:
                allowed = {o["value"] for o in component.get("options") or []}
                if not set(chosen) <= allowed:
                    raise ValueError(f"values {chosen} not among the options {sorted(allowed)}")
            data["values"] = chosen
        elif values is not None:
            raise ValueError("values only make sense for select menus")
        channel = self.world.channel(msg.channel_id)
        return await self._launch(MESSAGE_COMPONENT, channel, the_user, data, locale, msg)

    async def forge_click(
        self, message_id: int | str, custom_id: str, user: UserRef
    ) -> InteractionRecord:
        """A button click with any ``custom_id`` on any message the user can see."""
        msg = self.world.message(message_id)
        the_user = self.world.user(user)
        data: JSON = {"custom_id": custom_id, "component_type": 2}
        channel = self.world.channel(msg.channel_id)
        return await self._launch(MESSAGE_COMPONENT, channel, the_user, data, "en-US", msg)

    async def submit_modal(
        self, shown_by: InteractionRecord, answers: Answers, *, locale: str = "en-US"
    ) -> InteractionRecord:
        """The user who got a modal (callback type 9 to `shown_by`) submits it, once."""
        callback = shown_by.callback
        if callback is None or callback.type != MODAL:
            raise ValueError("that interaction was not answered with a modal")
        if shown_by.modal_submitted:
            raise ValueError("that modal was already submitted (Discord closes it)")
        data = modal_submission(callback.data, answers)
        shown_by.modal_submitted = True
        channel = self.world.channel(shown_by.channel_id)
        user = self.world.user(shown_by.user_id)
        message = self.world.messages.get(shown_by.message_id or 0)
        return await self._launch(MODAL_SUBMIT, channel, user, data, locale, message)

    async def _launch(
        self,
        kind: int,
        channel: Channel,
        user: User,
        data: JSON,
        locale: str,
        message: StoredMessage | None,
    ) -> InteractionRecord:
        if self.gateway.current is None:
            raise RuntimeError("the bot has no gateway session yet (wait for it to be ready)")
        interaction_id = self.ids.next()
        token = "emu." + secrets.token_urlsafe(48)
        payload = base_payload(
            self.world,
            interaction_id=interaction_id,
            token=token,
            application_id=self.config.application_id,
            kind=kind,
            channel_id=channel.id,
            user_id=user.id,
            data=data,
            locale=locale,
        )
        if message is not None:
            payload["message"] = self.world.message_json(message)
        rec = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            payload=payload,
            user_id=user.id,
            channel_id=channel.id,
            guild_id=channel.guild_id,
            world=self.world,
            notifier=self.notifier,
            message_id=message.id if message else None,
        )
        self.ctx.interactions[rec.id] = rec
        self.ctx.interactions_by_token[token] = rec
        written = self.gateway.dispatch("INTERACTION_CREATE", payload)
        self.notifier.notify()
        if written is not None:
            await asyncio.wait_for(asyncio.shield(written), timeout=5.0)
        return rec

    def _registered_command(self, name: str, guild: Guild | None) -> tuple[JSON | None, int | None]:
        if guild is not None:
            cmd = find_command(self.commands_store.listing(guild.id), name)
            if cmd is not None:
                return cmd, guild.id
        return find_command(self.commands_store.global_commands, name), None

    def _check_visible(self, command: JSON, guild: Guild | None, user: User) -> None:
        contexts = command.get("contexts")
        context = 1 if guild is None else 0
        if contexts is not None and context not in contexts:
            raise PermissionError(f"/{command['name']} is not offered in this context")
        if guild is None:
            if command.get("dm_permission") is False:
                raise PermissionError(f"/{command['name']} is not offered in DMs")
            return
        required = command.get("default_member_permissions")
        if required is None:
            return
        member = guild.members.get(user.id)
        if member is None:
            raise ValueError(f"{user.name} is not a member of {guild.name}")
        granted = self.world.guild_permissions(guild, member)
        needed = int(required)
        if granted & perm.ADMINISTRATOR:
            return
        if needed == 0 or granted & needed != needed:
            raise PermissionError(
                f"/{command['name']} is hidden from {user.name} (default_member_permissions="
                f"{required}); pass force=True to send it anyway"
            )

    def _resolver(
        self, resolved: JSON, guild: Guild | None, channel: Channel
    ) -> Callable[[Any, int], tuple[str, int]]:
        def resolve(value: Any, kind: int) -> tuple[str, int]:
            target: Any = value
            if isinstance(value, int | str) and str(value).isdigit():
                key = int(value)
                target = (
                    self.world.users.get(key)
                    or self.world.channels.get(key)
                    or (guild.roles.get(key) if guild else None)
                )
                if target is None:
                    raise ValueError(f"nothing with id {value}")
            if isinstance(target, Member):
                target = target.user
            if isinstance(target, User) and kind in (USER, MENTIONABLE):
                resolved.setdefault("users", {})[str(target.id)] = user_payload(target)
                member = guild.members.get(target.id) if guild else None
                if member is not None:
                    data = member_payload(member, self.world.channel_permissions(channel, member))
                    data.pop("user")
                    resolved.setdefault("members", {})[str(target.id)] = data
                return str(target.id), USER
            if isinstance(target, Role) and kind in (ROLE, MENTIONABLE):
                resolved.setdefault("roles", {})[str(target.id)] = role_payload(target)
                return str(target.id), ROLE
            if isinstance(target, Channel) and kind == CHANNEL:
                data = channel_payload(target)
                data["permissions"] = str(self.world.bot_channel_permissions(target))
                resolved.setdefault("channels", {})[str(target.id)] = data
                return str(target.id), CHANNEL
            raise ValueError(f"{value!r} does not fit an option of type {kind}")

        return resolve

"""`DiscordEmulator`: the facade tests use (server lifecycle, world building, injection)."""

from __future__ import annotations

import secrets
import socket
from types import TracebackType
from typing import Any, TypeVar

from aiohttp import web

from . import permissions as perm
from . import routes_basic, routes_channels, routes_commands, routes_emoji, routes_interactions
from .context import CommandStore, Config, Context
from .faults import FaultInjector, FaultRule
from .gateway import Gateway
from .injector import Injector
from .inspection import Inspection
from .interactions import InteractionRecord
from .models import JSON, Channel, Guild, Member, User
from .ratelimit import Limit, RateLimiter
from .recording import ChangeNotifier, GatewayFrame
from .rest import API_PREFIX, RestPipeline
from .routes_basic import application_payload
from .snowflake import SnowflakeFactory
from .world import ChannelRef, GuildRef, UserRef, World

T = TypeVar("T")


class DiscordEmulator(Inspection):
    """A loopback Discord (REST /api/v10 + gateway) for end-to-end tests of a bot."""

    def __init__(
        self,
        *,
        bot_name: str = "dealerbot",
        token: str | None = None,
        interaction_timeout: float = 3.0,
        followup_ttl: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        bot_permissions: int = perm.DEFAULT_EVERYONE,
        route_limit: Limit | None = None,
        global_rate_limit: int | None = 50,
        strict_commands: bool = True,
    ) -> None:
        self.ids = SnowflakeFactory()
        self.notifier = ChangeNotifier()
        self.bot_user = User(id=self.ids.next(), name=bot_name, bot=True)
        self.config = Config(
            token=token or f"emulator.{secrets.token_urlsafe(24)}",
            application_id=self.bot_user.id,
            application_name=bot_name,
            interaction_timeout=interaction_timeout,
            followup_ttl=followup_ttl,
            strict_commands=strict_commands,
        )
        self.world = World(self.ids, self.bot_user, self.notifier, bot_permissions)
        self.gateway = Gateway(
            world=self.world,
            notifier=self.notifier,
            token=lambda: self.config.token,
            application=lambda: {
                "id": str(self.config.application_id),
                "flags": self.config.application_flags,
            },
            resume_url=lambda: self.resume_gateway_url,
            heartbeat_interval_ms=heartbeat_interval_ms,
        )
        self.world.dispatch = self.gateway.dispatch
        self.limiter = RateLimiter(route_limit, global_rate_limit)
        self.faults = FaultInjector()
        self.rest = RestPipeline(
            token=lambda: self.config.token,
            limiter=self.limiter,
            faults=self.faults,
            notifier=self.notifier,
        )
        self.commands_store = CommandStore(self.ids, self.config.application_id)
        self.ctx = Context(
            config=self.config,
            ids=self.ids,
            world=self.world,
            gateway=self.gateway,
            notifier=self.notifier,
            commands=self.commands_store,
        )
        self.injector = Injector(self.ctx)
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # ----- lifecycle -------------------------------------------------------------
    async def start(self) -> None:
        """Listen on 127.0.0.1 at a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "{tail:.*}", self.rest.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/resume", self.gateway.handle)
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._attachment)
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self._port = int(sock.getsockname()[1])
        routes_basic.register(self.rest, self.ctx, self.gateway_url)
        routes_channels.register(self.rest, self.ctx)
        routes_commands.register(self.rest, self.ctx)
        routes_interactions.register(self.rest, self.ctx)
        routes_emoji.register(self.rest, self.ctx)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        await web.SockSite(self._runner, sock).start()

    async def stop(self) -> None:
        """Close gateway connections and stop listening."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordEmulator:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    async def _attachment(self, request: web.Request) -> web.Response:
        data = self.world.attachment_data.get(int(request.match_info["attachment_id"]))
        if data is None:
            return web.Response(status=404)
        return web.Response(body=data, content_type="application/octet-stream")

    # ----- addresses and identity ------------------------------------------------
    @property
    def url(self) -> str:
        """http://127.0.0.1:PORT"""
        if self._port is None:
            raise RuntimeError("emulator not started")
        return f"http://127.0.0.1:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for discord.http.Route.BASE."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for DiscordWebSocket.DEFAULT_GATEWAY (as a yarl.URL)."""
        return self.url.replace("http://", "ws://") + "/gateway"

    @property
    def resume_gateway_url(self) -> str:
        """Where READY tells the client to resume."""
        return self.gateway_url + "/resume"

    @property
    def token(self) -> str:
        return self.config.token

    @property
    def application_id(self) -> int:
        return self.config.application_id

    @property
    def interaction_timeout(self) -> float:
        return self.config.interaction_timeout

    @interaction_timeout.setter
    def interaction_timeout(self, value: float) -> None:
        self.config.interaction_timeout = value

    @property
    def followup_ttl(self) -> float:
        return self.config.followup_ttl

    @followup_ttl.setter
    def followup_ttl(self, value: float) -> None:
        self.config.followup_ttl = value

    @property
    def strict_commands(self) -> bool:
        return self.config.strict_commands

    @strict_commands.setter
    def strict_commands(self, value: bool) -> None:
        self.config.strict_commands = value

    def application(self) -> JSON:
        """The application object the bot sees."""
        return application_payload(self.ctx)

    # ----- building the world ------------------------------------------------------
    def add_guild(self, name: str = "Test Guild") -> Guild:
        """A guild with @everyone, an Admin role, and the bot as a member."""
        return self.world.add_guild(name)

    def add_member(
        self,
        guild: GuildRef,
        name: str | None = None,
        *,
        admin: bool = False,
        dm_blocked: bool = False,
        bot: bool = False,
        extra_permissions: int = 0,
        user: User | Member | None = None,
    ) -> Member:
        """A member; `admin` gives the Admin role (ADMINISTRATOR | MANAGE_GUILD)."""
        existing = user.user if isinstance(user, Member) else user
        return self.world.add_member(
            guild,
            name,
            user=existing,
            admin=admin,
            dm_blocked=dm_blocked,
            bot=bot,
            extra_permissions=extra_permissions,
        )

    def add_text_channel(
        self,
        guild: GuildRef,
        name: str,
        *,
        bot_can_send: bool = True,
        bot_can_view: bool = True,
    ) -> Channel:
        """A text channel; `bot_can_send=False` makes the bot's posts 403 50013."""
        return self.world.add_text_channel(
            guild, name, bot_can_send=bot_can_send, bot_can_view=bot_can_view
        )

    def set_bot_channel_access(
        self, channel: ChannelRef, *, can_send: bool = True, can_view: bool = True
    ) -> None:
        """Change the bot's access to a channel later (dispatches CHANNEL_UPDATE)."""
        self.world.set_bot_channel_access(channel, can_send=can_send, can_view=can_view)

    def delete_channel(self, channel: ChannelRef) -> None:
        """Delete a guild channel as an admin would (CHANNEL_DELETE; later requests 10003)."""
        self.world.delete_channel(channel)

    def remove_bot(self, guild: GuildRef) -> None:
        """Remove the bot from a guild (GUILD_DELETE; its channels answer 403 50001)."""
        self.world.remove_bot(guild)

    def set_dm_blocked(self, user: UserRef, blocked: bool = True) -> None:
        """Make DMs to a user fail (50007) or work again."""
        self.world.user(user).dm_blocked = blocked
        self.notifier.notify()

    def dm_channel(self, user: UserRef) -> Channel:
        """The bot's DM channel with a user (created if needed)."""
        return self.world.dm_channel_for(user)

    # ----- injecting interactions ----------------------------------------------------
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

        Refuses what Discord's client would not send: unregistered commands (unless
        `strict_commands` is off), unknown or missing options, and commands hidden from
        this user by default_member_permissions/contexts (unless `force=True`).
        """
        return await self.injector.slash_command(
            guild,
            channel,
            user,
            name,
            subcommand=subcommand,
            subgroup=subgroup,
            options=options,
            locale=locale,
            force=force,
            unchecked=unchecked,
        )

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
        return await self.injector.click(message_id, custom_id, user, values=values, locale=locale)

    async def forge_click(
        self, message_id: int | str, custom_id: str, user: UserRef
    ) -> InteractionRecord:
        """A button click a modified client sends: ``custom_id`` need not be on the message."""
        return await self.injector.forge_click(message_id, custom_id, user)

    async def select(
        self, message_id: int | str, custom_id: str, user: UserRef, values: list[str]
    ) -> InteractionRecord:
        """A user picks values in a select menu."""
        return await self.injector.click(message_id, custom_id, user, values=values)

    async def submit_modal(
        self,
        shown_by: InteractionRecord,
        answers: dict[str, str | list[str]],
        *,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """The user submits the modal the bot answered `shown_by` with (callback type 9).

        `answers` maps input custom_ids to typed text (or picked values); the client's own
        rules apply first (required inputs, min/max length), as ValueError.
        """
        return await self.injector.submit_modal(shown_by, answers, locale=locale)

    def interaction(self, interaction_id: int) -> InteractionRecord:
        """The record of an injected interaction."""
        return self.ctx.interactions[int(interaction_id)]

    @property
    def interactions(self) -> list[InteractionRecord]:
        """Every injected interaction, oldest first."""
        return list(self.ctx.interactions.values())

    # ----- faults, limits, moderation ----------------------------------------------
    def fail_next(
        self,
        method: str,
        route_pattern: str,
        status: int = 429,
        retry_after: float = 0.05,
        *,
        code: int | None = None,
        message: str | None = None,
        is_global: bool = False,
        body: JSON | None = None,
        headers: dict[str, str] | None = None,
        times: int = 1,
        via: bool = True,
    ) -> FaultRule:
        """Fail the next `times` requests matching method and glob (path after /api/v10).

        A 429 carries `Via`, `Retry-After`, X-RateLimit-* headers and
        {message, retry_after, global}, so discord.py waits and retries; `via=False`
        imitates a Cloudflare block, which discord.py does not retry.
        """
        return self.faults.add(
            FaultRule(
                method=method,
                pattern=route_pattern,
                status=status,
                retry_after=retry_after,
                code=code,
                message=message,
                is_global=is_global,
                body=body,
                headers=dict(headers or {}),
                times=times,
                via=via,
            )
        )

    def set_route_limit(self, method: str, template: str, limit: int, window: float) -> None:
        """A tighter bucket for one route template, e.g. "/channels/{channel_id}/messages"."""
        self.limiter.set_route_limit(method, template, limit, window)

    def delete_message(self, message_id: int | str) -> None:
        """Delete a message as a moderator would (the bot's next edit gets 10008)."""
        msg = self.world.messages.get(int(message_id))
        if msg is None or msg.deleted:
            raise LookupError(f"message {message_id} does not exist (or was deleted)")
        self.world.delete_message(msg, by="moderator")

    # ----- gateway control ---------------------------------------------------------------
    async def drop_connection(self, code: int = 4000, *, abrupt: bool = False) -> None:
        """Close the bot's gateway connection; it should reconnect and RESUME."""
        await self.gateway.drop_connection(code, abrupt=abrupt)

    def hold_reconnects(self) -> None:
        """Make IDENTIFY/RESUME wait until `release_reconnects()` (events keep buffering)."""
        self.gateway.reconnect_gate.clear()

    def release_reconnects(self) -> None:
        """Let held IDENTIFY/RESUME through."""
        self.gateway.reconnect_gate.set()

    def send_reconnect(self) -> None:
        """Send op 7 RECONNECT."""
        self.gateway.send_reconnect()

    def invalidate_session(self, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION."""
        self.gateway.invalidate_session(resumable)

    @property
    def gateway_frames(self) -> list[GatewayFrame]:
        """Every gateway payload sent and received, in order."""
        return list(self.gateway.frames)

    @property
    def allowed_privileged_intents(self) -> int:
        """Privileged intents the application may use (others: close 4014)."""
        return self.gateway.allowed_privileged_intents

    @allowed_privileged_intents.setter
    def allowed_privileged_intents(self, value: int) -> None:
        self.gateway.allowed_privileged_intents = value

"""REST routes about identity and lookups: users, application, gateway, guilds, DMs."""

from __future__ import annotations

from .context import Context
from .errors import unknown_guild, unknown_member, unknown_user
from .models import JSON
from .payloads import bot_user_payload, member_payload, role_payload, user_payload
from .rest import Reply, Req, RestPipeline


def application_payload(ctx: Context) -> JSON:
    """The application object of GET /oauth2/applications/@me."""
    bot = ctx.world.bot_user
    return {
        "id": str(ctx.config.application_id),
        "name": ctx.config.application_name,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": "0" * 64,
        "flags": ctx.config.application_flags,
        "owner": user_payload(ctx.world.app_owner),
        "team": None,
        "bot": user_payload(bot),
        "rpc_origins": [],
        "tags": [],
        "install_params": None,
        "integration_types_config": {"0": {}},
        "approximate_guild_count": len(ctx.world.guilds),
        "redirect_uris": [],
        "interactions_endpoint_url": None,
    }


def register(pipe: RestPipeline, ctx: Context, gateway_url: str) -> None:
    """Add the routes of this module."""
    world = ctx.world

    async def get_me(req: Req) -> Reply:
        return Reply(bot_user_payload(world.bot_user))

    async def get_user(req: Req) -> Reply:
        user = world.users.get(int(req.params["user_id"]) if req.params["user_id"].isdigit() else 0)
        if user is None:
            raise unknown_user()
        return Reply(user_payload(user))

    async def get_application(req: Req) -> Reply:
        return Reply(application_payload(ctx))

    async def get_gateway(req: Req) -> Reply:
        return Reply({"url": gateway_url})

    async def get_gateway_bot(req: Req) -> Reply:
        return Reply(
            {
                "url": gateway_url,
                "shards": ctx.gateway.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 86_400_000,
                    "max_concurrency": 1,
                },
            }
        )

    def guild_of(req: Req) -> int:
        raw = req.params["guild_id"]
        if not raw.isdigit() or int(raw) not in world.guilds:
            raise unknown_guild()
        return int(raw)

    async def get_guild(req: Req) -> Reply:
        guild = world.guilds[guild_of(req)]
        data = world.guild_create_payload(guild)
        for key in ("members", "channels", "threads", "presences", "voice_states", "joined_at"):
            data.pop(key, None)
        data["approximate_member_count"] = len(guild.members)
        return Reply(data)

    async def get_guild_channels(req: Req) -> Reply:
        guild = world.guilds[guild_of(req)]
        return Reply([world.channel_json(world.channels[c]) for c in guild.channel_ids])

    async def get_guild_roles(req: Req) -> Reply:
        guild = world.guilds[guild_of(req)]
        return Reply([role_payload(r) for r in guild.roles.values()])

    async def get_member(req: Req) -> Reply:
        guild = world.guilds[guild_of(req)]
        raw = req.params["user_id"]
        member = guild.members.get(int(raw)) if raw.isdigit() else None
        if member is None:
            raise unknown_member()
        return Reply(member_payload(member))

    async def create_dm(req: Req) -> Reply:
        raw = str(req.body.get("recipient_id", ""))
        if not raw.isdigit() or int(raw) not in world.users:
            raise unknown_user()
        channel = world.dm_channel_for(int(raw))
        return Reply(world.channel_json(channel))

    pipe.add("GET", "/users/@me", get_me)
    pipe.add("GET", "/users/{user_id}", get_user)
    pipe.add("GET", "/oauth2/applications/@me", get_application)
    pipe.add("GET", "/applications/@me", get_application)
    pipe.add("GET", "/gateway", get_gateway, needs_bot_token=False)
    pipe.add("GET", "/gateway/bot", get_gateway_bot)
    pipe.add("GET", "/guilds/{guild_id}", get_guild)
    pipe.add("GET", "/guilds/{guild_id}/channels", get_guild_channels)
    pipe.add("GET", "/guilds/{guild_id}/roles", get_guild_roles)
    pipe.add("GET", "/guilds/{guild_id}/members/{user_id}", get_member)
    pipe.add("POST", "/users/@me/channels", create_dm)

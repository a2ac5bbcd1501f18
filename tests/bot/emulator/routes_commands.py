"""REST routes for application commands (global and per guild)."""

from __future__ import annotations

import copy

from .context import Context
from .errors import invalid_form, missing_access, unknown_command
from .models import JSON
from .rest import Reply, Req, RestPipeline
from .validation import validate_commands


def register(pipe: RestPipeline, ctx: Context) -> None:
    """Add the routes of this module."""
    store = ctx.commands

    def scope(req: Req) -> int | None:
        if req.params["application_id"] != str(ctx.config.application_id):
            raise missing_access()
        raw = req.params.get("guild_id")
        if raw is None:
            return None
        if not raw.isdigit() or int(raw) not in ctx.world.guilds:
            raise missing_access()
        return int(raw)

    def find(req: Req) -> tuple[list[JSON], int]:
        listing = store.listing(scope(req))
        for index, cmd in enumerate(listing):
            if cmd["id"] == req.params["command_id"]:
                return listing, index
        raise unknown_command()

    async def list_commands(req: Req) -> Reply:
        return Reply(copy.deepcopy(store.listing(scope(req))))

    async def bulk_overwrite(req: Req) -> Reply:
        guild_id = scope(req)
        if not isinstance(req.json, list):
            raise invalid_form(
                {"_errors": [{"code": "BASE_TYPE_ARRAY", "message": "Must be an array."}]}
            )
        validate_commands(req.json)
        return Reply(store.overwrite(guild_id, req.json))

    async def create_command(req: Req) -> Reply:
        guild_id = scope(req)
        validate_commands([req.body])
        cmd, created = store.upsert(guild_id, req.body)
        return Reply(cmd, 201 if created else 200)

    async def get_command(req: Req) -> Reply:
        listing, index = find(req)
        return Reply(copy.deepcopy(listing[index]))

    async def edit_command(req: Req) -> Reply:
        listing, index = find(req)
        merged = {**listing[index], **req.body}
        validate_commands([merged])
        guild_id = scope(req)
        listing[index] = store.normalise(merged, guild_id, listing[index])
        return Reply(copy.deepcopy(listing[index]))

    async def delete_command(req: Req) -> Reply:
        listing, index = find(req)
        del listing[index]
        return Reply(None, 204)

    async def command_permissions(req: Req) -> Reply:
        scope(req)
        return Reply([])

    for base in (
        "/applications/{application_id}/commands",
        "/applications/{application_id}/guilds/{guild_id}/commands",
    ):
        pipe.add("GET", base, list_commands)
        pipe.add("PUT", base, bulk_overwrite)
        pipe.add("POST", base, create_command)
        if "guild_id" in base:
            pipe.add("GET", f"{base}/permissions", command_permissions)
        pipe.add("GET", f"{base}/{{command_id}}", get_command)
        pipe.add("PATCH", f"{base}/{{command_id}}", edit_command)
        pipe.add("DELETE", f"{base}/{{command_id}}", delete_command)

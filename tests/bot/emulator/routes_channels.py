"""REST routes on channels and their messages (guild text channels and DMs)."""

from __future__ import annotations

from . import permissions as perm
from .context import Context
from .errors import (
    cannot_dm,
    cannot_edit_others,
    missing_access,
    missing_permissions,
    unknown_message,
)
from .models import Channel, StoredMessage
from .rest import Reply, Req, RestPipeline
from .validation import validate_edit_result, validate_message


def register(pipe: RestPipeline, ctx: Context) -> None:
    """Add the routes of this module."""
    world = ctx.world

    def visible_channel(req: Req) -> Channel:
        channel = world.channel(req.params["channel_id"])
        if channel.guild_id is not None and not (
            world.bot_channel_permissions(channel) & perm.VIEW_CHANNEL
        ):
            raise missing_access()
        return channel

    def channel_message(req: Req) -> tuple[Channel, StoredMessage]:
        channel = visible_channel(req)
        msg = world.message(req.params["message_id"])
        if msg.channel_id != channel.id or msg.ephemeral:
            raise unknown_message()
        return channel, msg

    async def get_channel(req: Req) -> Reply:
        return Reply(world.channel_json(visible_channel(req)))

    async def list_messages(req: Req) -> Reply:
        channel = visible_channel(req)
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        live = sorted(
            (
                m
                for m in world.messages.values()
                if m.channel_id == channel.id and not m.deleted and not m.ephemeral
            ),
            key=lambda m: m.id,
            reverse=True,
        )
        if "before" in req.query:
            live = [m for m in live if m.id < int(req.query["before"])]
        if "after" in req.query:
            live = [m for m in live if m.id > int(req.query["after"])][-limit:]
        if "around" in req.query:
            pivot = int(req.query["around"])
            older = [m for m in live if m.id <= pivot][: (limit + 1) // 2]
            newer = [m for m in live if m.id > pivot][-(limit // 2) :] if limit > 1 else []
            live = newer + older
        return Reply([world.message_json(m) for m in live[:limit]])

    async def create_message(req: Req) -> Reply:
        channel = visible_channel(req)
        if channel.guild_id is not None:
            if not world.bot_channel_permissions(channel) & perm.SEND_MESSAGES:
                raise missing_permissions()
        else:
            recipient = world.users.get(channel.recipient_id or 0)
            if recipient is None or recipient.dm_blocked or recipient.bot:
                raise cannot_dm()
        validate_message(
            req.body,
            partial=False,
            files=req.files,
            size_limit=ctx.config.attachment_size_limit,
            usable_emoji=world.can_use_emoji,
        )
        msg = world.create_message(channel, req.body, files=req.files)
        return Reply(world.message_json(msg))

    async def get_message(req: Req) -> Reply:
        _, msg = channel_message(req)
        return Reply(world.message_json(msg))

    async def edit_message(req: Req) -> Reply:
        _, msg = channel_message(req)
        if msg.author_id != world.bot_user.id:
            raise cannot_edit_others()
        validate_message(
            req.body,
            partial=True,
            files=req.files,
            size_limit=ctx.config.attachment_size_limit,
            usable_emoji=world.can_use_emoji,
        )
        validate_edit_result(msg, req.body, has_files=bool(req.files))
        world.edit_message(msg, req.body, files=req.files)
        return Reply(world.message_json(msg))

    async def delete_message(req: Req) -> Reply:
        _, msg = channel_message(req)
        world.delete_message(msg, by="bot")
        return Reply(None, 204)

    async def typing(req: Req) -> Reply:
        visible_channel(req)
        return Reply(None, 204)

    async def add_reaction(req: Req) -> Reply:
        channel_message(req)
        return Reply(None, 204)

    base = "/channels/{channel_id}"
    pipe.add("GET", base, get_channel)
    pipe.add("GET", f"{base}/messages", list_messages)
    pipe.add("POST", f"{base}/messages", create_message)
    pipe.add("GET", f"{base}/messages/{{message_id}}", get_message)
    pipe.add("PATCH", f"{base}/messages/{{message_id}}", edit_message)
    pipe.add("DELETE", f"{base}/messages/{{message_id}}", delete_message)
    pipe.add("POST", f"{base}/typing", typing)
    pipe.add("PUT", f"{base}/messages/{{message_id}}/reactions/{{emoji}}/@me", add_reaction)

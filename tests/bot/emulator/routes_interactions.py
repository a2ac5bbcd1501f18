"""Interaction callbacks and the interaction webhook (follow-ups, @original edits).

Discord's timing rules live here: the first callback must come within
`config.interaction_timeout` (10062 after), only one callback per interaction (40060),
and the token serves follow-ups and edits for `config.followup_ttl`.
"""

from __future__ import annotations

from .context import Context
from .errors import (
    ApiError,
    already_acknowledged,
    form_error_tree,
    invalid_form,
    invalid_webhook_token,
    unknown_interaction,
    unknown_message,
    unknown_webhook,
)
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    PING,
    PONG,
    UPDATE_MESSAGE,
    CallbackRecord,
    InteractionRecord,
    RejectedCall,
)
from .models import EPHEMERAL, JSON, LOADING, StoredMessage
from .rest import Reply, Req, RestPipeline
from .validation import (
    DEFAULT_ATTACHMENT_SIZE_LIMIT,
    check_modal,
    validate_edit_result,
    validate_message,
)

CHAT_INPUT_COMMAND_MESSAGE = 20

ALLOWED: dict[int, frozenset[int]] = {
    PONG: frozenset({PING}),
    CHANNEL_MESSAGE: frozenset({APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT}),
    DEFERRED_CHANNEL_MESSAGE: frozenset({APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT}),
    DEFERRED_UPDATE_MESSAGE: frozenset({MESSAGE_COMPONENT, MODAL_SUBMIT}),
    UPDATE_MESSAGE: frozenset({MESSAGE_COMPONENT, MODAL_SUBMIT}),
    AUTOCOMPLETE_RESULT: frozenset({AUTOCOMPLETE}),
    MODAL: frozenset({APPLICATION_COMMAND, MESSAGE_COMPONENT}),
}


def _under_data(error: ApiError) -> ApiError:
    """Callback bodies nest the message in `data`, and so do Discord's field errors."""
    if error.errors:
        return ApiError(error.status, error.code, error.message, errors={"data": error.errors})
    return error


def _size_limit(rec: InteractionRecord) -> int:
    return int(rec.payload.get("attachment_size_limit") or DEFAULT_ATTACHMENT_SIZE_LIMIT)


def _truthy(value: str | None) -> bool:
    return value is not None and value.lower() in ("1", "true")


def register(pipe: RestPipeline, ctx: Context) -> None:
    """Add the routes of this module."""
    world = ctx.world

    def reject(rec: InteractionRecord | None, req: Req, error: ApiError) -> ApiError:
        if rec is not None:
            rec.rejected.append(
                RejectedCall(req.method, req.path, error.status, error.code, req.json)
            )
            ctx.notifier.notify()
        return error

    def message_type(rec: InteractionRecord) -> int:
        return CHAT_INPUT_COMMAND_MESSAGE if rec.type == APPLICATION_COMMAND else 0

    def new_message(
        rec: InteractionRecord, data: JSON, req: Req, extra_flags: int = 0
    ) -> StoredMessage:
        flags = int(data.get("flags") or 0) | extra_flags
        return world.create_message(
            world.channel(rec.channel_id),
            {**data, "flags": flags},
            files=req.files,
            msg_type=message_type(rec),
            ephemeral_for=rec.user_id if flags & EPHEMERAL else None,
            extra_flags=extra_flags,
            interaction=rec.payload,
        )

    def answer_with(
        rec: InteractionRecord, req: Req, kind: int, data: JSON
    ) -> StoredMessage | None:
        """Validate and apply a callback; the message it created or edited, if any.

        The spec has checked the body already (autocomplete choices entirely); what is
        checked here are the rules it does not carry.
        """
        msg: StoredMessage | None = None
        if kind == CHANNEL_MESSAGE:
            validate_message(
                data,
                partial=False,
                files=req.files,
                interaction=True,
                size_limit=_size_limit(rec),
                usable_emoji=world.can_use_emoji,
            )
            msg = new_message(rec, data, req)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            msg = new_message(rec, {"content": "", "flags": data.get("flags")}, req, LOADING)
        elif kind == MODAL:
            check_modal(data)
        elif kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and rec.message_id is not None:
            msg = world.messages.get(rec.message_id)
            if msg is not None and msg.deleted:
                raise unknown_message()
            if kind == UPDATE_MESSAGE and msg is not None:
                validate_message(
                    data,
                    partial=True,
                    files=req.files,
                    size_limit=_size_limit(rec),
                    usable_emoji=world.can_use_emoji,
                )
                validate_edit_result(msg, data, has_files=bool(req.files))
                world.edit_message(msg, data, files=req.files)
        return msg

    async def callback(req: Req) -> Reply:
        raw_id = req.params["interaction_id"]
        rec = ctx.interactions.get(int(raw_id)) if raw_id.isdigit() else None
        if rec is None or rec.token != req.params["interaction_token"]:
            raise reject(rec, req, unknown_interaction())
        if rec.age > ctx.config.interaction_timeout:
            raise reject(rec, req, unknown_interaction())
        if rec.acknowledged:
            raise reject(rec, req, already_acknowledged())
        kind = int(req.body.get("type") or 0)
        data: JSON = dict(req.body.get("data") or {})
        if rec.type not in ALLOWED.get(kind, frozenset()):
            raise reject(
                rec,
                req,
                invalid_form(
                    form_error_tree(
                        ["type"],
                        "INTERACTION_RESPONSE_TYPE_INVALID",
                        "Interaction response type is invalid for this interaction type",
                    )
                ),
            )
        try:
            msg = answer_with(rec, req, kind, data)
        except ApiError as error:
            raise reject(rec, req, _under_data(error)) from None
        rec.callback = CallbackRecord(type=kind, data=data, elapsed=rec.age)
        rec.events.append(("callback", dict(req.body)))
        if msg is not None:
            rec.original_message_id = msg.id
        ctx.notifier.notify()
        if not _truthy(req.query.get("with_response")):
            return Reply(None, 204)
        answer: JSON = {"id": str(rec.id), "type": rec.type}
        body: JSON = {"interaction": answer}
        if msg is not None and kind != DEFERRED_UPDATE_MESSAGE:
            answer["response_message_id"] = str(msg.id)
            answer["response_message_loading"] = msg.loading
            answer["response_message_ephemeral"] = msg.ephemeral
            body["resource"] = {"type": kind, "message": world.message_json(msg)}
        elif kind in (AUTOCOMPLETE_RESULT, MODAL):
            body["resource"] = {"type": kind}
        return Reply(body)

    def webhook_record(req: Req) -> InteractionRecord:
        rec = ctx.interactions_by_token.get(req.params["webhook_token"])
        if req.params["webhook_id"] != str(ctx.config.application_id) or rec is None:
            raise unknown_webhook()
        if rec.age > ctx.config.followup_ttl:
            raise reject(rec, req, invalid_webhook_token())
        if not rec.acknowledged:
            raise reject(rec, req, unknown_webhook())
        return rec

    def owned_message(rec: InteractionRecord, req: Req) -> StoredMessage:
        raw = req.params["message_id"]
        if raw == "@original":
            if rec.original_message_id is None:
                raise reject(rec, req, unknown_message())
            message_id = rec.original_message_id
        elif raw.isdigit() and rec.owns_message(int(raw)):
            message_id = int(raw)
        else:
            raise reject(rec, req, unknown_message())
        msg = world.messages.get(message_id)
        if msg is None or msg.deleted:
            raise reject(rec, req, unknown_message())
        return msg

    async def execute(req: Req) -> Reply:
        rec = webhook_record(req)
        data = req.body
        try:
            validate_message(
                data,
                partial=False,
                files=req.files,
                interaction=True,
                size_limit=_size_limit(rec),
                usable_emoji=world.can_use_emoji,
            )
        except ApiError as error:
            raise reject(rec, req, error) from None
        original = world.messages.get(rec.original_message_id or 0)
        if original is not None and original.loading and not original.deleted:
            world.edit_message(original, data, files=req.files)
            msg = original
        else:
            msg = new_message(rec, data, req)
        rec.followup_ids.append(msg.id)
        rec.events.append(("followup", dict(data)))
        ctx.notifier.notify()
        if not _truthy(req.query.get("wait")):
            return Reply(None, 204)
        return Reply(world.message_json(msg))

    async def get_webhook_message(req: Req) -> Reply:
        rec = webhook_record(req)
        return Reply(world.message_json(owned_message(rec, req)))

    async def edit_webhook_message(req: Req) -> Reply:
        rec = webhook_record(req)
        msg = owned_message(rec, req)
        try:
            validate_message(
                req.body,
                partial=True,
                files=req.files,
                size_limit=_size_limit(rec),
                usable_emoji=world.can_use_emoji,
            )
            validate_edit_result(msg, req.body, has_files=bool(req.files))
        except ApiError as error:
            raise reject(rec, req, error) from None
        world.edit_message(msg, req.body, files=req.files)
        rec.events.append(("edit", {"message_id": str(msg.id), **req.body}))
        ctx.notifier.notify()
        return Reply(world.message_json(msg))

    async def delete_webhook_message(req: Req) -> Reply:
        rec = webhook_record(req)
        msg = owned_message(rec, req)
        world.delete_message(msg, by="bot")
        rec.events.append(("delete", {"message_id": str(msg.id)}))
        ctx.notifier.notify()
        return Reply(None, 204)

    def refused_body(req: Req, error: ApiError) -> None:
        """A body the spec refused before any handler ran: recorded on its interaction."""
        if "webhook_token" in req.params:
            rec = ctx.interactions_by_token.get(req.params["webhook_token"])
        else:
            raw_id = req.params["interaction_id"]
            rec = ctx.interactions.get(int(raw_id)) if raw_id.isdigit() else None
        reject(rec, req, error)

    pipe.add(
        "POST",
        "/interactions/{interaction_id}/{interaction_token}/callback",
        callback,
        needs_bot_token=False,
        interaction=True,
        on_invalid_body=refused_body,
    )
    hook = "/webhooks/{webhook_id}/{webhook_token}"
    for method, template, handler in (
        ("POST", hook, execute),
        ("GET", f"{hook}/messages/{{message_id}}", get_webhook_message),
        ("PATCH", f"{hook}/messages/{{message_id}}", edit_webhook_message),
        ("DELETE", f"{hook}/messages/{{message_id}}", delete_webhook_message),
    ):
        pipe.add(
            method,
            template,
            handler,
            needs_bot_token=False,
            interaction=True,
            on_invalid_body=refused_body,
        )

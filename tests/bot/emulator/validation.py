"""Discord's limits on what a bot sends, enforced as the errors Discord answers.

The point is to catch bot bugs the real API would reject (an emoji outside Discord's
set, a sixth button in a row, a 2001-character message, a 6001-character set of embeds)
before they reach production. Component, embed, modal and command rules live in the
`validation_*` modules; this one checks a whole message body: content, flags,
allowed_mentions, attachments and emptiness.
"""

from __future__ import annotations

from typing import Any

from .errors import ApiError, empty_message
from .form_errors import FormErrors, is_snowflake
from .models import IS_COMPONENTS_V2, JSON, StoredMessage
from .validation_commands import validate_commands
from .validation_components import SELECT_TYPES, check_components
from .validation_embeds import check_embeds
from .validation_modal import check_modal

__all__ = [
    "DEFAULT_ATTACHMENT_SIZE_LIMIT",
    "SELECT_TYPES",
    "check_modal",
    "ensure",
    "too_large",
    "validate_autocomplete",
    "validate_commands",
    "validate_edit_result",
    "validate_message",
]

MAX_CONTENT = 2000
MAX_FILES = 10
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
MENTION_TYPES = ("everyone", "roles", "users")
MAX_MENTION_IDS = 100

SUPPRESS_EMBEDS = 1 << 2
EPHEMERAL = 1 << 6
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_VOICE_MESSAGE = 1 << 13
CHANNEL_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_VOICE_MESSAGE | IS_COMPONENTS_V2
INTERACTION_FLAGS = CHANNEL_FLAGS | EPHEMERAL


def too_large() -> ApiError:
    """413 40005: a file over the upload limit (10 MiB for bots by default)."""
    return ApiError(413, 40005, "Request entity too large")


def validate_message(
    body: JSON,
    *,
    has_files: bool = False,
    partial: bool,
    files: list[JSON] | None = None,
    interaction: bool = False,
    size_limit: int = DEFAULT_ATTACHMENT_SIZE_LIMIT,
) -> None:
    """Check a message create (partial=False) or edit (partial=True) body.

    `interaction` marks interaction responses and follow-ups, the only messages that may
    be ephemeral; `files` are the multipart uploads (their `size` is checked against
    `size_limit`, Discord's 413 40005).
    """
    files = files or []
    for upload in files:
        if int(upload.get("size") or 0) > size_limit:
            raise too_large()
    errs = FormErrors()
    content = body.get("content")
    if content is not None and errs.string(["content"], content):
        errs.max_len(["content"], content, MAX_CONTENT)
    if body.get("embeds") is not None:
        check_embeds(errs, body["embeds"])
    flags = _flags(errs, body.get("flags"), partial=partial, interaction=interaction)
    if body.get("components") is not None:
        check_components(errs, body["components"], v2=bool(flags & IS_COMPONENTS_V2))
    if body.get("allowed_mentions") is not None:
        _check_allowed_mentions(errs, body["allowed_mentions"])
    if len(files) > MAX_FILES:
        errs.add(["files"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
    attachments = body.get("attachments")
    if isinstance(attachments, list) and len(attachments) > MAX_FILES:
        errs.add(
            ["attachments"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
        )
    errs.raise_if_any()
    if partial:
        return
    has_poll = body.get("poll") is not None
    has_stickers = bool(body.get("sticker_ids"))
    text = content.strip() if isinstance(content, str) else ""
    if not (
        text
        or body.get("embeds")
        or body.get("components")
        or has_files
        or files
        or has_poll
        or has_stickers
    ):
        raise empty_message()


def validate_edit_result(msg: StoredMessage, body: JSON, *, has_files: bool) -> None:
    """50006 when an edit would leave the message with nothing to show."""
    content = body.get("content", msg.content)
    embeds = body.get("embeds", msg.embeds)
    components = body.get("components", msg.components)
    attachments = body.get("attachments", msg.attachments)
    text = content.strip() if isinstance(content, str) else ""
    if not (text or embeds or components or attachments or has_files):
        raise empty_message()


def _flags(errs: FormErrors, value: Any, *, partial: bool, interaction: bool) -> int:
    if value is None:
        return 0
    if isinstance(value, bool) or not isinstance(value, int):
        errs.add(["flags"], "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')
        return 0
    if partial:
        # Edits ignore flags they cannot change (discord.py echoes the message's flags).
        return value
    allowed = INTERACTION_FLAGS if interaction else CHANNEL_FLAGS
    if value & ~allowed:
        # Unconfirmed code; EPHEMERAL outside an interaction answer lands here.
        errs.add(["flags"], "MESSAGE_FLAGS_INVALID", "Invalid flags for this message")
    return value


def _check_allowed_mentions(errs: FormErrors, value: Any) -> None:
    path: list[str | int] = ["allowed_mentions"]
    if not isinstance(value, dict):
        errs.add(path, "MODEL_TYPE_CONVERT", "Only dictionaries may be used in a ModelType")
        return
    parse = value.get("parse") or []
    if not isinstance(parse, list):
        errs.add([*path, "parse"], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        parse = []
    for k, kind in enumerate(parse):
        if kind not in MENTION_TYPES:
            errs.add(
                [*path, "parse", k],
                "BASE_TYPE_CHOICES",
                f"Value must be one of {MENTION_TYPES}.",
            )
    for key in ("users", "roles"):
        ids = value.get(key)
        if not ids:
            continue
        if not isinstance(ids, list):
            errs.add([*path, key], "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
            continue
        if key in parse:
            errs.add(
                path,
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{key}"] and {key}: [ids...] are mutually exclusive.',
            )
        if len(ids) > MAX_MENTION_IDS:
            errs.add(
                [*path, key],
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_MENTION_IDS} or fewer in length.",
            )
        for k, snowflake in enumerate(ids):
            if not is_snowflake(snowflake):
                errs.add(
                    [*path, key, k], "NUMBER_TYPE_COERCE", f'Value "{snowflake}" is not snowflake.'
                )
    replied = value.get("replied_user")
    if replied is not None and not isinstance(replied, bool):
        errs.add([*path, "replied_user"], "BOOLEAN_TYPE_CONVERT", "Must be either true or false.")


def validate_autocomplete(data: JSON) -> None:
    """Autocomplete result: at most 25 choices, each named 1-100 characters."""
    errs = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list) or len(choices) > 25:
        errs.add(["choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    else:
        for i, choice in enumerate(choices):
            name = choice.get("name") if isinstance(choice, dict) else None
            errs.bad_len(["choices", i, "name"], name, 1, 100)
            if not isinstance(choice, dict) or "value" not in choice:
                errs.required(["choices", i, "value"])
    errs.raise_if_any()


def ensure(condition: bool, error: ApiError) -> None:
    """Raise `error` unless `condition` holds."""
    if not condition:
        raise error

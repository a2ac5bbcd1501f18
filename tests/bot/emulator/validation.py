"""Discord's rules on what a bot sends that its OpenAPI spec does not carry.

The REST pipeline first checks every body against Discord's published spec (`spec.py`:
types, lengths, ranges, enums, required fields); what is left here is what the spec does
not say or says looser than Discord applies to a bot (an emoji outside Discord's set, a
2001-character message, a 6001-character set of embeds, components v2 totals). Each rule
names its source. Component, embed, modal and command rules live in the `validation_*`
modules; this one checks a whole message body: content, flags, allowed_mentions, files
and emptiness.
"""

from __future__ import annotations

from typing import Any

from .errors import ApiError, empty_message
from .form_errors import FormErrors
from .models import IS_COMPONENTS_V2, JSON, StoredMessage
from .validation_commands import validate_commands
from .validation_components import SELECT_TYPES, check_components, check_components_v2
from .validation_embeds import check_embeds
from .validation_emoji import Usable
from .validation_modal import check_modal

__all__ = [
    "DEFAULT_ATTACHMENT_SIZE_LIMIT",
    "SELECT_TYPES",
    "check_modal",
    "ensure",
    "too_large",
    "validate_commands",
    "validate_edit_result",
    "validate_message",
]

MAX_CONTENT = 2000
"""A bot's message content (the spec says 4000, a Nitro user's limit).

https://discord.com/developers/docs/resources/message#create-message ("up to 2000 characters").
"""
MAX_FILES = 10
"""Files in one message; the spec bounds `attachments` but cannot see multipart parts.

https://discord.com/developers/docs/reference#uploading-files ("up to 10 files").
"""
DEFAULT_ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

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
    usable_emoji: Usable | None = None,
) -> None:
    """Check a message create (partial=False) or edit (partial=True) body.

    `interaction` marks interaction responses and follow-ups, the only messages that may
    be ephemeral; `files` are the multipart uploads (their `size` is checked against
    `size_limit`, Discord's 413 40005); `usable_emoji` says which custom emoji a component
    may show (the world's answer; None: not checked).
    """
    files = files or []
    for upload in files:
        if int(upload.get("size") or 0) > size_limit:
            raise too_large()
    errs = FormErrors()
    content = body.get("content")
    errs.max_len(["content"], content, MAX_CONTENT)
    if isinstance(body.get("embeds"), list):
        check_embeds(errs, body["embeds"])
    flags = _flags(errs, body.get("flags"), partial=partial, interaction=interaction)
    v2 = bool(flags & IS_COMPONENTS_V2)
    if isinstance(body.get("components"), list):
        check_components(errs, body["components"], v2=v2, usable=usable_emoji)
    if v2:
        check_components_v2(errs, body)
    if isinstance(body.get("allowed_mentions"), dict):
        _check_allowed_mentions(errs, body["allowed_mentions"])
    if len(files) > MAX_FILES:
        errs.add(["files"], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length.")
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
    """Which flags a bot may set; the spec types `flags` as any integer.

    https://discord.com/developers/docs/resources/message#create-message (flags:
    SUPPRESS_EMBEDS, SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, IS_COMPONENTS_V2) and
    https://discord.com/developers/docs/interactions/receiving-and-responding#create-followup-message
    (EPHEMERAL, only on interaction answers).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        return 0
    if partial:
        # Edits ignore flags they cannot change (discord.py echoes the message's flags).
        return value
    allowed = INTERACTION_FLAGS if interaction else CHANNEL_FLAGS
    if value & ~allowed:
        # Unconfirmed code; EPHEMERAL outside an interaction answer lands here.
        errs.add(["flags"], "MESSAGE_FLAGS_INVALID", "Invalid flags for this message")
    return value


def _check_allowed_mentions(errs: FormErrors, value: JSON) -> None:
    """`parse: ["users"]` and a `users` list exclude each other (likewise roles).

    https://discord.com/developers/docs/resources/message#allowed-mentions-object
    ("mutually exclusive"); shapes, values and the 100-id bound are the spec's.
    """
    parse = value.get("parse")
    if not isinstance(parse, list):
        return
    for key in ("users", "roles"):
        if key in parse and value.get(key):
            errs.add(
                ["allowed_mentions"],
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                f'parse:["{key}"] and {key}: [ids...] are mutually exclusive.',
            )


def ensure(condition: bool, error: ApiError) -> None:
    """Raise `error` unless `condition` holds."""
    if not condition:
        raise error

"""Discord's limits on messages and application commands, enforced as 400 errors.

The point is to catch bot bugs the real API would reject (a sixth button in a row, a
101-character custom_id, a 2001-character message) before they reach production.
"""

from __future__ import annotations

from typing import Any

from .errors import ApiError, empty_message, form_error_tree, invalid_form
from .models import IS_COMPONENTS_V2, JSON

ACTION_ROW = 1
BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2


class _Errors:
    """Accumulates field errors into Discord's nested `errors` tree."""

    def __init__(self) -> None:
        self.tree: JSON = {}

    def add(self, path: list[str | int], code: str, message: str) -> None:
        _merge(self.tree, form_error_tree(path, code, message))

    def raise_if_any(self) -> None:
        if self.tree:
            raise invalid_form(self.tree)


def _merge(into: JSON, other: JSON) -> None:
    for key, value in other.items():
        if key in into and isinstance(into[key], dict) and isinstance(value, dict):
            _merge(into[key], value)
        elif key in into and isinstance(into[key], list) and isinstance(value, list):
            into[key].extend(value)
        else:
            into[key] = value


def _max_len(errs: _Errors, path: list[str | int], value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def validate_message(body: JSON, *, has_files: bool, partial: bool) -> None:
    """Check a message create (partial=False) or edit (partial=True) body."""
    errs = _Errors()
    content = body.get("content")
    if content is not None and not isinstance(content, str):
        errs.add(["content"], "STRING_TYPE_CONVERT", "Could not interpret value as string.")
    _max_len(errs, ["content"], content, 2000)
    embeds = body.get("embeds") or []
    _validate_embeds(errs, embeds)
    components = body.get("components") or []
    flags = int(body.get("flags") or 0)
    _validate_components(errs, components, v2=bool(flags & IS_COMPONENTS_V2))
    errs.raise_if_any()
    if partial:
        return
    has_poll = body.get("poll") is not None
    has_stickers = bool(body.get("sticker_ids"))
    if not (content or embeds or components or has_files or has_poll or has_stickers):
        raise empty_message()


def _validate_embeds(errs: _Errors, embeds: list[JSON]) -> None:
    if len(embeds) > 10:
        errs.add(["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for i, embed in enumerate(embeds):
        title = embed.get("title") or ""
        description = embed.get("description") or ""
        _max_len(errs, ["embeds", i, "title"], title, 256)
        _max_len(errs, ["embeds", i, "description"], description, 4096)
        total += len(title) + len(description)
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        _max_len(errs, ["embeds", i, "footer", "text"], footer, 2048)
        _max_len(errs, ["embeds", i, "author", "name"], author, 256)
        total += len(footer) + len(author)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errs.add(["embeds", i, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer.")
        for j, fld in enumerate(fields):
            name, value = fld.get("name"), fld.get("value")
            for key, text, limit in (("name", name, 256), ("value", value, 1024)):
                if not text:
                    errs.add(["embeds", i, "fields", j, key], "BASE_TYPE_REQUIRED", "Required.")
                _max_len(errs, ["embeds", i, "fields", j, key], text, limit)
            total += len(name or "") + len(value or "")
    if total > 6000:
        errs.add(["embeds"], "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")


def _validate_components(errs: _Errors, rows: list[JSON], *, v2: bool) -> None:
    if not v2 and len(rows) > 5:
        errs.add(["components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        path: list[str | int] = ["components", i]
        if not v2 and row.get("type") != ACTION_ROW:
            errs.add([*path, "type"], "UNION_TYPE_CHOICES", "Value must be an action row.")
            continue
        _validate_component(errs, row, path, seen)


def _validate_component(errs: _Errors, comp: JSON, path: list[str | int], seen: set[str]) -> None:
    kind = comp.get("type")
    if "type" not in comp:
        errs.add([*path, "type"], "BASE_TYPE_REQUIRED", "This field is required")
        return
    if kind == ACTION_ROW:
        children = comp.get("components") or []
        if not 1 <= len(children) <= 5:
            errs.add(
                [*path, "components"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
        if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
            errs.add(
                [*path, "components"],
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
    if kind == BUTTON:
        _max_len(errs, [*path, "label"], comp.get("label"), 80)
        style = comp.get("style")
        if style == LINK_STYLE:
            if not comp.get("url"):
                errs.add([*path, "url"], "BASE_TYPE_REQUIRED", "This field is required")
            return
        if style == PREMIUM_STYLE:
            return
    custom_id = comp.get("custom_id")
    if kind == BUTTON or kind in SELECT_TYPES or custom_id is not None:
        _check_custom_id(errs, custom_id, [*path, "custom_id"], seen)
    for key in ("components", "accessory", "component"):
        nested = comp.get(key)
        if isinstance(nested, dict):
            _validate_component(errs, nested, [*path, key], seen)
        elif isinstance(nested, list):
            for j, child in enumerate(nested):
                _validate_component(errs, child, [*path, key, j], seen)


def _check_custom_id(errs: _Errors, custom_id: Any, path: list[str | int], seen: set[str]) -> None:
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        errs.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        return
    if custom_id in seen:
        errs.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(custom_id)


def _valid_name(name: Any) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    return name == name.lower() and all(ch.isalnum() or ch in "-_'" for ch in name)


def validate_commands(commands: list[JSON]) -> None:
    """Check a bulk-overwrite body of application commands."""
    errs = _Errors()
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        kind = int(cmd.get("type") or CHAT_INPUT)
        name = cmd.get("name")
        if kind == CHAT_INPUT:
            _check_named(errs, cmd, [i])
        elif not isinstance(name, str) or not 1 <= len(name) <= 32:
            errs.add([i, "name"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 32 in length.")
        key = (kind, str(name))
        if key in names:
            errs.add(
                [i, "name"],
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        names.add(key)
        _check_options(errs, cmd.get("options") or [], [i, "options"], depth=0)
    if len(commands) > 100:
        errs.add([], "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
    errs.raise_if_any()


def _check_named(errs: _Errors, item: JSON, path: list[str | int]) -> None:
    if not _valid_name(item.get("name")):
        errs.add([*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = item.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        errs.add(
            [*path, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )


def _check_options(errs: _Errors, options: list[JSON], path: list[str | int], depth: int) -> None:
    if len(options) > 25:
        errs.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    optional_seen = False
    for j, opt in enumerate(options):
        opath: list[str | int] = [*path, j]
        _check_named(errs, opt, opath)
        kind = opt.get("type")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if kind == SUB_COMMAND_GROUP and depth > 0:
                errs.add(
                    [*opath, "type"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Bad nesting"
                )
            if kind == SUB_COMMAND and depth > 1:
                errs.add(
                    [*opath, "type"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Bad nesting"
                )
            _check_options(errs, opt.get("options") or [], [*opath, "options"], depth + 1)
            continue
        if opt.get("required"):
            if optional_seen:
                errs.add(
                    opath,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            optional_seen = True
        if len(opt.get("choices") or []) > 25:
            errs.add([*opath, "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")


def ensure(condition: bool, error: ApiError) -> None:
    """Raise `error` unless `condition` holds."""
    if not condition:
        raise error

"""Discord's checks on a bulk overwrite of application commands (names, options, nesting)."""

from __future__ import annotations

from typing import Any

from .form_errors import FormErrors
from .models import JSON

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2


def _valid_name(name: Any) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    return name == name.lower() and all(ch.isalnum() or ch in "-_'" for ch in name)


def validate_commands(commands: list[JSON]) -> None:
    """Check a bulk-overwrite body of application commands."""
    errs = FormErrors()
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


def _check_named(errs: FormErrors, item: JSON, path: list[str | int]) -> None:
    if not _valid_name(item.get("name")):
        errs.add([*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    description = item.get("description")
    if not isinstance(description, str) or not 1 <= len(description) <= 100:
        errs.add(
            [*path, "description"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )


def _check_options(
    errs: FormErrors, options: list[JSON], path: list[str | int], depth: int
) -> None:
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

"""Discord's checks on application commands that its OpenAPI spec does not carry.

The spec (`spec.py`) checks types and bounds: names 1-32 characters, option descriptions
1-100, 25 options, 25 choices, integer bounds within +-(2**53-1), 130 commands. What stays
here, from https://discord.com/developers/docs/interactions/application-commands:
- names of chat-input commands and of options match Discord's naming regex
  (`^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`) in lower case: the spec has only the
  length ("Application Command Naming");
- a chat-input command has a description of 1-100 characters (the spec lets it be
  absent; "description ... for CHAT_INPUT commands");
- names are unique per command type ("Registering a Command": duplicates are refused);
- at most 100 chat-input commands (the spec's 130 counts user and message commands too);
- subcommand nesting: a group only at the top, a subcommand at most one group deep;
- required options before optional ones;
- `autocomplete` is not set on an option with `choices`;
- option names are unique among their siblings;
- a command's name, description and value characters, with those of its options,
  subcommands and choices, add up to at most 4000 ("Application Command Naming" /
  limits; some newer third-party tables say 8000: the stricter figure is kept, so a
  command list that grows past 4000 gets looked at; localizations are not counted).
"""

from __future__ import annotations

from typing import Any

from .form_errors import FormErrors
from .models import JSON

CHAT_INPUT = 1
SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
MAX_CHAT_INPUT = 100
MAX_COMMAND_CHARACTERS = 4000


def _valid_name(name: Any) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    return name == name.lower() and all(ch.isalnum() or ch in "-_'" for ch in name)


def validate_commands(commands: list[JSON]) -> None:
    """Check a bulk-overwrite body of application commands."""
    errs = FormErrors()
    names: set[tuple[int, str]] = set()
    chat_input = 0
    for i, cmd in enumerate(commands):
        if not isinstance(cmd, dict):
            continue
        kind = cmd.get("type") or CHAT_INPUT
        name = cmd.get("name")
        if kind == CHAT_INPUT:
            chat_input += 1
            _check_name(errs, cmd, [i])
            description = cmd.get("description")
            if not isinstance(description, str) or not description:
                errs.bad_len([i, "description"], description, 1, 100)
        key = (kind, str(name))
        if key in names:
            errs.add(
                [i, "name"],
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                "Application command names must be unique",
            )
        names.add(key)
        options = cmd.get("options")
        if isinstance(options, list):
            _check_options(errs, options, [i, "options"], depth=0)
        if command_characters(cmd) > MAX_COMMAND_CHARACTERS:
            # Unconfirmed code.
            errs.add(
                [i],
                "APPLICATION_COMMAND_TOO_LARGE",
                f"Command exceeds maximum size ({MAX_COMMAND_CHARACTERS})",
            )
    if chat_input > MAX_CHAT_INPUT:
        errs.add([], "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHAT_INPUT} or fewer in length.")
    errs.raise_if_any()


def command_characters(item: JSON) -> int:
    """Characters of name, description and choice values, the item's and all it holds."""
    total = sum(len(item[k]) for k in ("name", "description") if isinstance(item.get(k), str))
    for choice in item.get("choices") or []:
        if isinstance(choice, dict):
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for option in item.get("options") or []:
        if isinstance(option, dict):
            total += command_characters(option)
    return total


def _check_name(errs: FormErrors, item: JSON, path: list[str | int]) -> None:
    if not _valid_name(item.get("name")):
        errs.add([*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def _check_options(errs: FormErrors, options: list[Any], path: list[str | int], depth: int) -> None:
    optional_seen = False
    seen: set[str] = set()
    for j, opt in enumerate(options):
        if not isinstance(opt, dict):
            continue
        opath: list[str | int] = [*path, j]
        _check_name(errs, opt, opath)
        name = opt.get("name")
        if isinstance(name, str):
            if name in seen:
                # Unconfirmed code.
                errs.add(
                    [*opath, "name"],
                    "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
                    "Option names must be unique",
                )
            seen.add(name)
        kind = opt.get("type")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            if (kind == SUB_COMMAND_GROUP and depth > 0) or (kind == SUB_COMMAND and depth > 1):
                errs.add(
                    [*opath, "type"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Bad nesting"
                )
            nested = opt.get("options")
            if isinstance(nested, list):
                _check_options(errs, nested, [*opath, "options"], depth + 1)
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
        if opt.get("autocomplete") and opt.get("choices"):
            # Unconfirmed code; the docs: "autocomplete may not be set to true if choices
            # are present" (application command option structure).
            errs.add(
                [*opath, "autocomplete"],
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_WITH_CHOICES",
                "Autocomplete cannot be enabled on an option with choices",
            )

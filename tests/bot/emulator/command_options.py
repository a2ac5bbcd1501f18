"""Turn a test's `options={"buy_in": 200}` into the option tree Discord sends.

With the registered command schema the option types, required options, choices and
bounds are checked the way Discord's client enforces them before anything is sent.
Without a schema (non-strict mode) the types are guessed from the Python values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .models import JSON

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ENTITY_TYPES = frozenset({USER, CHANNEL, ROLE, MENTIONABLE})

Resolver = Callable[[Any, int], tuple[str, int]]
"""Maps an entity option value to (snowflake string, concrete option type) and records it."""


def find_command(commands: list[JSON], name: str, kind: int = 1) -> JSON | None:
    """The registered command with this name and type."""
    for cmd in commands:
        if cmd.get("name") == name and int(cmd.get("type") or 1) == kind:
            return cmd
    return None


def build_options(
    command: JSON | None,
    *,
    subgroup: str | None,
    subcommand: str | None,
    values: dict[str, Any],
    resolve: Resolver,
) -> list[JSON]:
    """The `data.options` list for a chat-input interaction."""
    schema: list[JSON] | None = None if command is None else list(command.get("options") or [])
    path = [(n, SUB_COMMAND_GROUP) for n in [subgroup] if n] + [
        (n, SUB_COMMAND) for n in [subcommand] if n
    ]
    for name, kind in path:
        if schema is not None:
            node = next((o for o in schema if o.get("name") == name), None)
            if node is None or node.get("type") != kind:
                what = "subcommand group" if kind == SUB_COMMAND_GROUP else "subcommand"
                raise ValueError(f"command has no {what} {name!r}")
            schema = list(node.get("options") or [])
    if schema is not None and any(
        o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema
    ):
        raise ValueError("this command needs a subcommand (and maybe a subgroup)")
    leaf = _leaf_options(schema, values, resolve)
    for name, kind in reversed(path):
        leaf = [{"name": name, "type": kind, "options": leaf}]
    return leaf


def _leaf_options(
    schema: list[JSON] | None, values: dict[str, Any], resolve: Resolver
) -> list[JSON]:
    if schema is None:
        return [_guessed(name, value, resolve) for name, value in values.items()]
    known = {o["name"] for o in schema}
    unknown = set(values) - known
    if unknown:
        raise ValueError(f"unknown option(s) {sorted(unknown)}; the command has {sorted(known)}")
    result = []
    for opt in schema:
        name = opt["name"]
        if name not in values:
            if opt.get("required"):
                raise ValueError(f"required option {name!r} missing")
            continue
        result.append(_typed(opt, values[name], resolve))
    return result


def _typed(opt: JSON, value: Any, resolve: Resolver) -> JSON:
    kind = int(opt["type"])
    name = opt["name"]
    if kind in ENTITY_TYPES:
        snowflake, _ = resolve(value, kind)
        return {"name": name, "type": kind, "value": snowflake}
    if kind == STRING and not isinstance(value, str):
        raise ValueError(f"option {name!r} takes a string")
    if kind == INTEGER and (isinstance(value, bool) or not isinstance(value, int)):
        raise ValueError(f"option {name!r} takes an integer")
    if kind == BOOLEAN and not isinstance(value, bool):
        raise ValueError(f"option {name!r} takes a boolean")
    if kind == NUMBER and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise ValueError(f"option {name!r} takes a number")
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise ValueError(f"option {name!r} must be one of the choices {choices}")
    if kind in (INTEGER, NUMBER):
        low, high = opt.get("min_value"), opt.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise ValueError(f"option {name!r} out of range [{low}, {high}]")
    if kind == STRING:
        low_len, high_len = opt.get("min_length"), opt.get("max_length")
        if (low_len is not None and len(value) < low_len) or (
            high_len is not None and len(value) > high_len
        ):
            raise ValueError(f"option {name!r} length out of range")
    return {"name": name, "type": kind, "value": value}


def _guessed(name: str, value: Any, resolve: Resolver) -> JSON:
    if isinstance(value, bool):
        return {"name": name, "type": BOOLEAN, "value": value}
    if isinstance(value, int):
        return {"name": name, "type": INTEGER, "value": value}
    if isinstance(value, float):
        return {"name": name, "type": NUMBER, "value": value}
    if isinstance(value, str):
        return {"name": name, "type": STRING, "value": value}
    snowflake, kind = resolve(value, MENTIONABLE)
    return {"name": name, "type": kind, "value": snowflake}

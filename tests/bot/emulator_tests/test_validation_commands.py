"""Command sync bodies: the rules Discord's spec does not carry, at the limit and past it."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.emulator.validation import validate_commands
from tests.bot.emulator.validation_commands import command_characters

from .helpers import codes_at, refusal, through_spec

COMMANDS = "/applications/{application_id}/commands"


def sync(*commands: dict[str, Any]) -> None:
    """A bulk overwrite as the pipeline checks it: the spec, then the hand-written rules."""
    body = list(commands)
    through_spec("PUT", COMMANDS, body)
    validate_commands(body)


def command(name: str = "stud", **extra: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "Seven card stud", **extra}


def option(name: str = "amount", kind: int = 4, **extra: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": "How much", **extra}


@pytest.mark.parametrize("name", ["stud", "stud-admin", "buy_in", "n" * 32, "ставка", "l'as"])
def test_valid_names(name: str) -> None:
    sync(command(name, options=[option(name)]))


@pytest.mark.parametrize("name", ["Stud", "two words", "stud!", "n" * 33, ""])
def test_command_and_option_names_follow_discords_naming_rule(name: str) -> None:
    error = refusal(lambda: sync(command(name)))
    assert codes_at(error, 0, "name") != []
    error = refusal(lambda: sync(command(options=[option(name)])))
    assert codes_at(error, 0, "options", 0, "name") != []


def test_uppercase_and_spaces_are_the_hand_written_rule() -> None:
    # Within 1-32 the spec takes any string: the lowercase rule is ours (Discord's docs).
    through_spec("PUT", COMMANDS, [command("Stud")])
    error = refusal(lambda: sync(command("Stud")))
    assert codes_at(error, 0, "name") == ["APPLICATION_COMMAND_INVALID_NAME"]
    error = refusal(lambda: sync(command(options=[option("two words")])))
    assert codes_at(error, 0, "options", 0, "name") == ["APPLICATION_COMMAND_INVALID_NAME"]


def test_a_chat_input_command_needs_a_description() -> None:
    sync(command(description="d" * 100))
    error = refusal(lambda: sync(command(description="")))
    assert codes_at(error, 0, "description") == ["BASE_TYPE_BAD_LENGTH"]
    error = refusal(lambda: sync(command(description="d" * 101)))  # the spec's bound
    assert codes_at(error, 0, "description") == ["BASE_TYPE_MAX_LENGTH"]
    sync({"type": 2, "name": "Show Stats", "description": ""})  # user commands have none


def test_names_are_unique_per_type() -> None:
    sync(command("stud"), {"type": 2, "name": "stud"})
    error = refusal(lambda: sync(command("stud"), command("stud")))
    assert codes_at(error, 1, "name") == ["APPLICATION_COMMANDS_DUPLICATE_NAME"]


def test_at_most_100_chat_input_commands() -> None:
    hundred = [command(f"c{i}") for i in range(100)]
    sync(*hundred, {"type": 2, "name": "Show Stats"})
    error = refusal(lambda: sync(*hundred, command("c100")))
    assert codes_at(error) == ["BASE_TYPE_MAX_LENGTH"]


def test_25_options_and_25_choices_are_the_specs() -> None:
    options = [option(f"o{i}") for i in range(25)]
    sync(command(options=options))
    error = refusal(lambda: sync(command(options=[*options, option("o25")])))
    assert codes_at(error, 0, "options") == ["BASE_TYPE_MAX_LENGTH"]
    choices = [{"name": f"c{i}", "value": i} for i in range(25)]
    sync(command(options=[option(choices=choices)]))
    error = refusal(lambda: sync(command(options=[option(choices=[*choices, choices[0]])])))
    assert codes_at(error, 0, "options", 0, "choices") == ["BASE_TYPE_MAX_LENGTH"]


def test_subcommand_nesting() -> None:
    leaf = option("join", kind=1)
    sync(command(options=[option("table", kind=2, options=[leaf])]))
    group_in_group = option("inner", kind=2, options=[leaf])
    error = refusal(
        lambda: sync(command(options=[option("outer", kind=2, options=[group_in_group])]))
    )
    assert codes_at(error, 0, "options", 0, "options", 0, "type") != []


def test_required_options_come_first() -> None:
    sync(command(options=[option("a", required=True), option("b")]))
    error = refusal(lambda: sync(command(options=[option("a"), option("b", required=True)])))
    assert codes_at(error, 0, "options", 1) == ["APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"]


def test_autocomplete_and_choices_exclude_each_other() -> None:
    choices = [{"name": "one", "value": 1}]
    sync(command(options=[option(autocomplete=True), option("b", choices=choices)]))
    error = refusal(lambda: sync(command(options=[option(autocomplete=True, choices=choices)])))
    assert codes_at(error, 0, "options", 0, "autocomplete") != []


def test_option_names_are_unique_among_siblings() -> None:
    sync(command(options=[option("a"), option("b")]))
    sync(command(options=[option("t", kind=1, options=[option("a")]), option("a")]))
    error = refusal(lambda: sync(command(options=[option("a"), option("a")])))
    assert codes_at(error, 0, "options", 1, "name") != []


def test_a_command_holds_at_most_4000_characters() -> None:
    # name 4 + description 96 = 100 per subcommand; 40 of them = 4000 with the command's.
    def sub(i: int) -> dict[str, Any]:
        return option(f"s{i:03d}", kind=1, description="d" * 96)

    head = command("stud", description="d" * 96)  # 100
    sync({**head, "options": [sub(i) for i in range(25)]})
    assert command_characters({**head, "options": [sub(i) for i in range(39)]}) == 4000
    # Three groups (100 each) of 12 subcommands (100 each): 100 + 300 + 3600 = 4000.
    groups = [
        option(f"g{g:03d}", kind=2, description="d" * 96, options=[sub(i) for i in range(12)])
        for g in range(3)
    ]
    assert command_characters({**head, "options": groups}) == 4000
    sync({**head, "options": groups})
    groups[2]["options"][0] = {**groups[2]["options"][0], "description": "d" * 97}
    error = refusal(lambda: sync({**head, "options": groups}))
    assert codes_at(error, 0) == ["APPLICATION_COMMAND_TOO_LARGE"]

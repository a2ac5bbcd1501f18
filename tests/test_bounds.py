"""One source for every bound (issue 16 part 2, issue 17): what the commands offer is what
the table service accepts, within what Discord can carry, and no bound is written twice.

The command tree is the real one (the bot's cogs loaded as extensions, as at start), read
as the JSON discord.py sends in the bulk overwrite (``command.to_dict(tree)``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from dealerbot import tables
from dealerbot.bot import discord_limits
from dealerbot.bot.client import DealerBot
from dealerbot.settings import Settings
from dealerbot.tables import Bound

JSON = dict[str, Any]

# Discord's integer option range: ``Int53Type`` in Discord's OpenAPI spec (min_value and
# max_value of ApplicationCommandIntegerOption), tests/data/discord-openapi/openapi.json.
# Written here from the spec, not read from the bot, so the bot's copy is checked too.
DISCORD_INT_MAX = 2**53 - 1
INTEGER, NUMBER, SUBCOMMAND, GROUP = 4, 10, 1, 2


@pytest.fixture
async def commands(tmp_path: Path) -> AsyncIterator[list[JSON]]:
    """The payload of the bulk overwrite: every command of the bot, as Discord receives it."""
    bot = DealerBot(Settings(discord_token="x", database_path=tmp_path / "none"), None)
    try:
        await bot.setup_hook()  # no service: only the cogs (as for ``dealerbot sync``)
        yield [command.to_dict(bot.tree) for command in bot.tree.get_commands()]
    finally:
        await bot.close()


def numeric_options(commands: list[JSON]) -> Iterator[tuple[tuple[str, ...], JSON]]:
    """(command path, option) for every integer or number option, subcommands included."""

    def walk(path: tuple[str, ...], options: list[JSON]) -> Iterator[tuple[tuple[str, ...], JSON]]:
        for option in options:
            if option["type"] in (SUBCOMMAND, GROUP):
                yield from walk((*path, option["name"]), option.get("options", []))
            elif option["type"] in (INTEGER, NUMBER):
                yield (*path, option["name"]), option

    for command in commands:
        yield from walk((command["name"],), command.get("options", []))


async def test_the_tree_is_read(commands: list[JSON]) -> None:
    """Guard against a vacuous pass: the real commands and their integer options are seen."""
    assert {c["name"] for c in commands} == {"stud", "stud-admin"}
    paths = {path for path, _ in numeric_options(commands)}
    assert ("stud", "verify", "id") in paths and ("stud-admin", "config", "seats") in paths


async def test_no_integer_option_is_outside_discords_range(commands: list[JSON]) -> None:
    """Discord refuses the whole bulk overwrite for one bound past 2**53-1 (400 50035): the
    bot would have no command at all."""
    wrong = [
        f"/{' '.join(path)}: {key} {option[key]}"
        for path, option in numeric_options(commands)
        for key in ("min_value", "max_value")
        if key in option and not -DISCORD_INT_MAX <= option[key] <= DISCORD_INT_MAX
    ]
    assert not wrong, "\n".join(wrong)


# What each integer option stands for: the name of its bound in dealerbot.tables (every
# integer option must be listed, so a new one is matched to the service's bound).
OPTION_BOUNDS = {
    ("stud", "join", "buy_in"): "CHIPS",
    ("stud", "addchips", "amount"): "CHIPS",
    ("stud", "verify", "id"): "HAND_ID",
    ("stud", "hand", "id"): "HAND_ID",
    ("stud", "hand", "last"): "HISTORY_FILE_HANDS",
    ("stud", "history", "count"): "HISTORY_LINES",
    ("stud-admin", "config", "hands_per_game"): "HANDS_PER_GAME",
    ("stud-admin", "config", "choice_seconds"): "CHOICE_SECONDS",
    ("stud-admin", "config", "ante"): "ANTE",
    ("stud-admin", "config", "bring_in"): "BRING_IN",
    ("stud-admin", "config", "small_bet"): "SMALL_BET",
    ("stud-admin", "config", "min_buyin"): "BUY_IN_SETTING",
    ("stud-admin", "config", "max_buyin"): "BUY_IN_SETTING",
    ("stud-admin", "config", "seats"): "SEATS",
    ("stud-admin", "config", "turn_seconds"): "TURN_SECONDS",
    ("stud-admin", "config", "starting_chips"): "WALLET_GRANT",
    ("stud-admin", "config", "daily_chips"): "WALLET_GRANT",
    ("stud-admin", "chips", "amount"): "ADJUSTMENT",
    ("stud-admin", "config", "house_players"): "HOUSE_PLAYERS",
    ("stud-admin", "config", "house_fill_to"): "HOUSE_FILL_TO",
    ("stud-admin", "house", "fund"): "CHIPS",
    ("stud-admin", "house", "days"): "HOUSE_BOOK_DAYS",
}


def offered(bound: Bound) -> tuple[int, int]:
    """What an option for ``bound`` must offer: the bound within Discord's range."""
    return max(bound.low, -DISCORD_INT_MAX), min(bound.high, DISCORD_INT_MAX)


async def test_every_integer_option_offers_the_services_bound(commands: list[JSON]) -> None:
    found = dict(numeric_options(commands))
    assert set(found) == set(OPTION_BOUNDS), "an integer option without a service bound here"
    wrong = []
    for path, name in OPTION_BOUNDS.items():
        option = found[path]
        bound = getattr(tables, name)
        assert isinstance(bound, Bound), name
        got = (option.get("min_value"), option.get("max_value"))
        if got != offered(bound):
            wrong.append(f"/{' '.join(path)}: {got} but tables.{name} gives {offered(bound)}")
    assert not wrong, "\n".join(wrong)


NUMBER = r"(-?\d[\d,]*)"
RANGE_HINT = re.compile(rf"\({NUMBER}\s*(?:-|–|to)\s*{NUMBER}\)")
MOST_HINT = re.compile(rf"at most {NUMBER}")


def hinted(description: str) -> tuple[int | None, int | None]:
    """The range an option's description promises, if it names one."""
    if found := RANGE_HINT.search(description):
        low, high = found.groups()
        return int(low.replace(",", "")), int(high.replace(",", ""))
    if found := MOST_HINT.search(description):
        return None, int(found.group(1).replace(",", ""))
    return None, None


def test_hints_are_read() -> None:
    assert hinted("Seats at the table (2-8)") == (2, 8)
    assert hinted("in one file (1 to 1,000)") == (1, 1000)
    assert hinted("How many hands (default 10, at most 50)") == (None, 50)
    assert hinted("Ante per player") == (None, None)


async def test_a_hint_in_an_options_description_is_its_range(commands: list[JSON]) -> None:
    """ "Seats at the table (2-8)" must change when the bound does."""
    wrong, hints = [], 0
    for path, option in numeric_options(commands):
        low, high = hinted(option["description"])
        hints += (low, high) != (None, None)
        if (low is not None and low != option["min_value"]) or (
            high is not None and high != option["max_value"]
        ):
            wrong.append(f"/{' '.join(path)}: {option['description']!r} {option}")
    assert hints >= 4, "the hints are not read"
    assert not wrong, "\n".join(wrong)


async def test_choices_fit_discord(commands: list[JSON]) -> None:
    def walk(options: list[JSON]) -> Iterator[JSON]:
        for option in options:
            yield option
            yield from walk(option.get("options", []))

    counts = [len(o.get("choices") or []) for c in commands for o in walk(c.get("options", []))]
    assert max(counts) > 1 and max(counts) <= 25 == discord_limits.OPTION_CHOICES


def test_the_bots_discord_range_is_discords() -> None:
    assert discord_limits.INTEGER_OPTION_MAX == DISCORD_INT_MAX
    assert discord_limits.INTEGER_OPTION_MIN == -DISCORD_INT_MAX
    assert discord_limits.option_high(2**63 - 1) == DISCORD_INT_MAX
    assert discord_limits.option_high(50) == 50
    assert discord_limits.option_low(-(2**63)) == -DISCORD_INT_MAX


# --- one definition each, read from the source ---------------------------------------------

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "dealerbot"
LIMITS = PACKAGE / "tables" / "limits.py"
STORE_BOUNDS = PACKAGE / "store" / "validate.py"
DISCORD_LIMITS = PACKAGE / "bot" / "discord_limits.py"
OLD_NAMES = {"MAX_HAND_ID", "MAX_CHIPS", "MAX_HISTORY", "MAX_LAST", "MAX_FILES", "Count"}
"""Names the bounds had before they had one home (a second copy would come back as one)."""


def assigned_names(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """Every name a module binds by assignment at its top level (not by import; a class's
    members, such as an enum's ``BRING_IN``, are the class's)."""
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign | ast.AugAssign):
            targets = [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    yield name.id, node.lineno


def top_level_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {name for name, _ in assigned_names(tree) if name.isupper()}


def sources() -> dict[Path, ast.Module]:
    found = {p: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(PACKAGE.rglob("*.py"))}
    assert LIMITS in found and DISCORD_LIMITS in found and STORE_BOUNDS in found
    return found


def test_each_bound_is_assigned_in_one_module_only() -> None:
    homes = {LIMITS: top_level_names(LIMITS), DISCORD_LIMITS: top_level_names(DISCORD_LIMITS)}
    homes[STORE_BOUNDS] = {"MAX_ID", "MAX_AMOUNT"}
    assert {"CHIPS", "HAND_ID", "SEATS", "TURN_SECONDS"} <= homes[LIMITS]
    assert {"INTEGER_OPTION_MAX", "OPTION_CHOICES", "CUSTOM_ID"} <= homes[DISCORD_LIMITS]
    home_of = {name: path for path, names in homes.items() for name in names}
    wrong = [
        f"{path.relative_to(REPO)}:{line} assigns {name}"
        + (f" (its home is {home_of[name].relative_to(REPO)})" if name in home_of else "")
        for path, tree in sources().items()
        for name, line in assigned_names(tree)
        if (name in home_of and home_of[name] != path) or name in OLD_NAMES
    ]
    assert not wrong, "\n".join(wrong)


def constant(node: ast.AST) -> int | None:
    """The value of a whole-number expression of literals (``2**53 - 1``), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow | ast.Sub | ast.Add):
        left, right = constant(node.left), constant(node.right)
        if left is None or right is None or (isinstance(node.op, ast.Pow) and right > 64):
            return None
        if isinstance(node.op, ast.Pow):
            return int(left**right)
        return left - right if isinstance(node.op, ast.Sub) else left + right
    return None


# A value and the one module that may write it.
WRITTEN_ONCE = {
    **dict.fromkeys((2**53 - 1, 2**53, -(2**53 - 1), -(2**53)), DISCORD_LIMITS),
    **dict.fromkeys((2**63 - 1, 2**63, 10**12), STORE_BOUNDS),
}


def test_the_big_bounds_are_written_in_one_module_only() -> None:
    """No second 2**53 (Discord's integer options), 2**63-1 (an id) or 10**12 (chips)."""
    assert constant(ast.parse("2**53 - 1", mode="eval").body) == DISCORD_INT_MAX
    assert constant(ast.parse("-(2**63)", mode="eval").body) == -(2**63)
    wrong = [
        f"{path.relative_to(REPO)}:{getattr(node, 'lineno', '?')} writes {value}"
        for path, tree in sources().items()
        for node in ast.walk(tree)
        if (value := constant(node)) in WRITTEN_ONCE and WRITTEN_ONCE[value] != path
    ]
    assert not wrong, "\n".join(wrong)


def test_no_command_option_range_is_a_literal() -> None:
    """``app_commands.Range[int, 2, 8]`` in a cog would be a second seat bound."""
    wrong = []
    for path, tree in sources().items():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("Range")):
                continue
            args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            if ast.unparse(args[0]) == "int" and any(constant(a) is not None for a in args[1:]):
                wrong.append(f"{path.relative_to(REPO)}:{node.lineno} {ast.unparse(node)}")
    assert not wrong, "\n".join(wrong)


def discords_numbers() -> set[int]:
    """Every number dealerbot.bot.discord_limits names (a limit of Discord's)."""
    numbers = {
        value
        for name, value in vars(discord_limits).items()
        if name.isupper() and type(value) is int
    }
    assert {1024, 256, 80, 100, DISCORD_INT_MAX} <= numbers
    return numbers


def test_the_bot_cuts_text_at_discords_limits_by_name() -> None:
    """``text[:1024]`` in a renderer is a second copy of the embed field limit."""
    numbers = discords_numbers()
    wrong = [
        f"{path.relative_to(REPO)}:{node.lineno} {ast.unparse(node)}"
        for path, tree in sources().items()
        if path != DISCORD_LIMITS and "bot" in path.relative_to(PACKAGE).parts
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Slice)
        and node.slice.upper is not None
        and constant(node.slice.upper) in numbers
    ]
    assert not wrong, "\n".join(wrong)

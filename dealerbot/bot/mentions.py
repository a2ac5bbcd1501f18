"""Clickable command hints: ``</stud join:ID>`` once the command ids are known.

Discord turns ``</name sub:id>`` into a link that fills in the command; the id is the
application command's, learnt when the bot syncs or lists its commands at start. Until
then (or for a command Discord did not list) a hint is the plain ```/stud join```.
"""

from __future__ import annotations

from collections.abc import Iterable

import discord

_IDS: dict[str, int] = {}  # top-level command name -> its id


def learn(commands: Iterable[discord.app_commands.AppCommand]) -> None:
    """Remember the ids of the synced (or fetched) commands."""
    for command in commands:
        _IDS[command.name] = command.id


def forget() -> None:
    _IDS.clear()


def command(path: str) -> str:
    """A hint for ``path`` (``"stud join"``): a command mention, or the name in backticks."""
    top = path.split(" ", 1)[0]
    found = _IDS.get(top)
    return f"</{path}:{found}>" if found is not None else f"`/{path}`"

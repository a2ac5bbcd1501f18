"""How the bot writes for Discord: names and lines made safe for Markdown, cards (a face-down
card as a mark), Discord timestamps, the embeds' colours, and clickable command hints.

A hint is ``</stud join:ID>`` once the command ids are known: Discord turns
``</name sub:id>`` into a link that fills in the command; the id is the application
command's, learnt when the bot syncs or lists its commands at start. Until then (or for a
command Discord did not list) a hint is the plain ```/stud join```. No I/O, no rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import discord

from dealerbot.tables import ALL_CARDS, Card

HIDDEN = "🂠"  # a face-down card in public: the count is public, the card is not
COLOR_PLAYING = discord.Colour.dark_green()
COLOR_WAITING = discord.Colour.blurple()
COLOR_RESULT = discord.Colour.gold()
COLOR_CLOSED = discord.Colour.dark_grey()
COLOR_PRIVATE = discord.Colour.teal()


PRETTY = tuple(card.pretty for card in ALL_CARDS)  # rendered on every table edit


NAME_CHARS = 32  # the table service cleans and cuts names to this; others are cut here


@lru_cache(maxsize=8192)
def name_text(name: str) -> str:
    """A name made safe for Markdown (no formatting, no mass mentions): cut at a character
    boundary first, escaped after, so a cut never falls inside an escape."""
    return line_text(name[:NAME_CHARS]) or "?"


def line_text(text: str) -> str:
    """A line made safe for Markdown, never cut (an action line keeps its action)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def cards_text(cards: Iterable[Card | None]) -> str:
    return " ".join(HIDDEN if card is None else PRETTY[card] for card in cards)


def timestamp(seconds: float, style: str = "R") -> str:
    """A Discord timestamp that every reader sees in his own time zone."""
    return f"<t:{int(seconds)}:{style}>"


# --- command hints -----------------------------------------------------------------------

_COMMAND_IDS: dict[str, int] = {}  # top-level command name -> its id


def learn_command_ids(commands: Iterable[discord.app_commands.AppCommand]) -> None:
    """Remember the ids of the synced (or fetched) commands."""
    for command in commands:
        _COMMAND_IDS[command.name] = command.id


def forget_command_ids() -> None:
    _COMMAND_IDS.clear()


def command_hint(path: str) -> str:
    """A hint for ``path`` (``"stud join"``): a command mention, or the name in backticks."""
    top = path.split(" ", 1)[0]
    found = _COMMAND_IDS.get(top)
    return f"</{path}:{found}>" if found is not None else f"`/{path}`"

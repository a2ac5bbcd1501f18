"""The pieces every message is written with: names and lines made safe for Markdown, cards
(a face-down card as a mark), Discord timestamps and the colours of the embeds; and the
table-closed notice. No I/O, no rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import discord

from dealerbot.tables import ALL_CARDS, Card
from dealerbot.tables import events as ev

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


def closed_embed(event: ev.TableClosed, names: dict[int, str]) -> discord.Embed:
    lines = [
        f"{name_text(names.get(user, str(user)))}: {chips} chips back to the wallet"
        for user, chips in event.cashed_out
    ]
    return discord.Embed(
        title="Table closed",
        description="\n".join(lines) or "No one was seated.",
        colour=COLOR_CLOSED,
    )

"""How the bot writes for Discord: names and lines made safe for Markdown, cards (a face-down
card as a mark, or the card art's emoji), Discord timestamps, the embeds' colours, and
clickable command hints.

Cards: :func:`card_face` is the one place a card (or a card nobody may see) becomes what a
deck shows, and :func:`cards_shown` the one place a row of them does. A deck's faces
(:class:`CardFaces`) are the application's own emoji (``<:sc_as:ID>``, learnt once at start
by :func:`learn_card_emoji`) where that deck's whole set is uploaded, else text (``A♠``
and 🂠). Text cards sit in a code span (the suits stay text on every phone); emoji never
do, nor in a button label: Discord would show their markup as raw text there.

A hint is ``</stud join:ID>`` once the command ids are known: Discord turns
``</name sub:id>`` into a link that fills in the command; the id is the application
command's, learnt when the bot syncs or lists its commands at start. Until then (or for a
command Discord did not list) a hint is the plain ```/stud join```. No I/O, no rules.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import discord

from dealerbot.card_art import Deck, emoji_name
from dealerbot.card_art.names import faces as art_faces
from dealerbot.tables import ALL_CARDS, HOUSE_MARK, HOUSE_NAMES, Card, DeckStyle, is_house_user

from .discord_limits import EMBED_DESCRIPTION, EMBED_FIELD_VALUE, EMBED_TOTAL

log = logging.getLogger(__name__)

HIDDEN = "🂠"  # a face-down card in public: the count is public, the card is not
COLOR_PLAYING = discord.Colour.dark_green()
COLOR_WAITING = discord.Colour.blurple()
COLOR_RESULT = discord.Colour.gold()
COLOR_CLOSED = discord.Colour.dark_grey()
COLOR_PRIVATE = discord.Colour.teal()


PRETTY = tuple(card.pretty for card in ALL_CARDS)  # rendered on every table edit


NAME_CHARS = 32  # the table service cleans and cuts names to this; others are cut here


HOUSE_LOOK = "\N{ROBOT FACE}"
"""What goes before a house player's name wherever the bot shows it (issue 20)."""


@lru_cache(maxsize=8192)
def name_text(name: str) -> str:
    """A name made safe for Markdown (no formatting, no mass mentions): cut at a character
    boundary first, escaped after, so a cut never falls inside an escape. A house player's
    name (the service's ``Ace (house)``: no member's name may end with the mark) gets the
    robot in front, so nobody takes it for a member."""
    text = line_text(name[:NAME_CHARS]) or "?"
    return f"{HOUSE_LOOK} {text}" if name.endswith(HOUSE_MARK) else text


_HOUSE_NAMED = re.compile(
    "|".join(rf"\b{re.escape(f'{name} {HOUSE_MARK}')}" for name in HOUSE_NAMES)
)


def house_marked(text: str) -> str:
    """The service's plain text (``/stud rules``' house paragraph) made safe for Markdown,
    with every house player's name in it marked as :func:`name_text` marks it."""
    return _HOUSE_NAMED.sub(lambda found: f"{HOUSE_LOOK} {found.group(0)}", line_text(text))


def who(user_id: int, name: str) -> str:
    """A member as a mention (``<@id>``), a house player by its marked name: its id is no
    Discord user, and ``<@-2>`` must never be sent."""
    return name_text(name) if is_house_user(user_id) else f"<@{user_id}>"


def line_text(text: str) -> str:
    """A line made safe for Markdown, never cut (an action line keeps its action)."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def cards_text(cards: Iterable[Card | None]) -> str:
    """Cards as text (``🂠 A♥``), no code span: :func:`cards_shown` with text faces, bare."""
    return " ".join(card_face(card, TEXT_FACES) for card in cards)


# --- cards as a deck shows them ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardFaces:
    """What one deck shows: each card's emoji markup, by card (the back last), or text."""

    emoji: tuple[str, ...] | None = None  # 52 cards in code order, then the back

    @property
    def pictures(self) -> bool:
        return self.emoji is not None


TEXT_FACES = CardFaces()
BACK_INDEX = len(ALL_CARDS)
ART_DECKS = {DeckStyle.CLASSIC: Deck.CLASSIC, DeckStyle.FOUR_COLOUR: Deck.FOUR_COLOUR}
"""The card art each deck style draws with; a style not here is text."""
SYNC_HINT = (
    "card emoji missing: {what}; those cards show as text. Run `dealerbot emoji sync` once "
    "to upload the card art as the application's emoji"
)

_DECK_FACES: dict[Deck, CardFaces] = {}  # the decks whose whole set the application owns


def card_face(card: Card | None, faces: CardFaces) -> str:
    """One card as ``faces`` shows it: its emoji or its text; None (a card nobody may
    see) is the deck's back (🂠 in text)."""
    if faces.emoji is None:
        return HIDDEN if card is None else PRETTY[card]
    return faces.emoji[BACK_INDEX if card is None else card]


def cards_shown(cards: Iterable[Card | None], faces: CardFaces) -> str:
    """A row of cards for a message: emoji side by side, or text in a code span."""
    if faces.emoji is None:
        return f"`{cards_text(cards)}`"
    return " ".join(card_face(card, faces) for card in cards)


def embed_fits(embed: discord.Embed) -> bool:
    """Within Discord's limits: the description, each field, and all the text together."""
    if len(embed.description or "") > EMBED_DESCRIPTION:
        return False
    if any(len(field.value or "") > EMBED_FIELD_VALUE for field in embed.fields):
        return False
    return len(embed) <= EMBED_TOTAL


def fitted(render: Callable[[CardFaces], discord.Embed], faces: CardFaces) -> discord.Embed:
    """``render`` with ``faces``; with text cards when the picture cards would pass
    Discord's limits (an emoji's markup is some 30 characters, a text card 3)."""
    embed = render(faces)
    if faces.pictures and not embed_fits(embed):
        return render(TEXT_FACES)
    return embed


def faces_for(style: DeckStyle) -> CardFaces:
    """What ``style`` shows now: its emoji when the whole set is uploaded, else text."""
    deck = ART_DECKS.get(style)
    return _DECK_FACES.get(deck, TEXT_FACES) if deck is not None else TEXT_FACES


def emoji_markup(name: str, emoji_id: int) -> str:
    return f"<:{name}:{emoji_id}>"


def learn_card_emoji(owned: Iterable[tuple[str, int]], *, quiet: bool = False) -> list[Deck]:
    """Learn the application's emoji (name, id): each deck whose whole set is there shows
    pictures from now on; returns the decks that are missing or incomplete (logged once,
    in one line, with what the operator should run, unless ``quiet``)."""
    ids = dict(owned)
    _DECK_FACES.clear()
    missing = []
    for deck in Deck:
        names = [emoji_name(deck, face) for face in art_faces()]
        if all(name in ids for name in names):
            _DECK_FACES[deck] = CardFaces(tuple(emoji_markup(n, ids[n]) for n in names))
        else:
            missing.append(deck)
    if missing and not quiet:
        size = BACK_INDEX + 1
        what = ", ".join(
            f"{deck.name.lower().replace('_', '-')} deck"
            f" ({sum(emoji_name(deck, f) in ids for f in art_faces())} of {size} there)"
            for deck in missing
        )
        log.warning(SYNC_HINT.format(what=what))
    return missing


def forget_card_emoji() -> None:
    _DECK_FACES.clear()


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

"""Draw one card (or a card back) as a small square PNG for a Discord emoji.

Discord shows an emoji at up to 128x128 (large) and at about 22 pixels in a line of text,
so the card carries only what must be read at 22 pixels: the rank, big, over the suit,
big, on a white card with a dark edge (which shows on Discord's light theme too). The
image is drawn at four times its size and scaled down once, which smooths the edges.
The same call gives the same bytes every time: no clock, no randomness, no metadata.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFont

from dealerbot.engine.cards import Card, Suit

from .names import Back, Deck, Face
from .suits import Box, Colour, draw_suit

SIZE = 128  # pixels of the emoji, square
INLINE = 22  # pixels: about the size of an emoji in a line of Discord's text; made to read there
SCALE = 4  # drawn at SIZE * SCALE, then scaled down
CANVAS = SIZE * SCALE
RANK_FONT_SIZE = 400  # Pillow's own scalable font (Aileron), drawn large and then fitted
RANK_STROKE = 10  # thickens the font's strokes so the rank stays bold when small

# The card within the square (in emoji pixels): a little wider than a real card so that a
# two-digit 10 still reads at 22 pixels; rounded corners; a dark edge.
CARD: Box = (12.0, 1.0, 104.0, 126.0)
CORNER = 13.0
EDGE = 4.0
RANK_BOX: Box = (19.0, 8.0, 90.0, 54.0)  # the rank, centred; as tall as the box
SUIT_BOX: Box = (31.0, 67.0, 66.0, 54.0)  # the suit under it, a gap between
LATTICE_STEP = 16  # emoji pixels between the lines of the back's lattice
LATTICE_INK = 90  # how white the lattice is over the back's colour (of 255)

WHITE: Colour = (255, 255, 255, 255)
EDGE_COLOUR: Colour = (40, 40, 46, 255)
BLACK: Colour = (17, 17, 17, 255)
RED: Colour = (210, 18, 26, 255)
GREEN: Colour = (0, 135, 50, 255)
BLUE: Colour = (18, 84, 214, 255)


@dataclass(frozen=True, slots=True)
class Palette:
    """A deck's ink: one colour per suit, and the colour of its card back."""

    suits: dict[Suit, Colour]
    back: Colour


PALETTES: dict[Deck, Palette] = {
    Deck.CLASSIC: Palette(
        {Suit.CLUBS: BLACK, Suit.DIAMONDS: RED, Suit.HEARTS: RED, Suit.SPADES: BLACK},
        back=(26, 72, 160, 255),
    ),
    Deck.FOUR_COLOUR: Palette(
        {Suit.CLUBS: GREEN, Suit.DIAMONDS: BLUE, Suit.HEARTS: RED, Suit.SPADES: BLACK},
        back=(150, 22, 30, 255),
    ),
}


def _scaled(box: Box) -> Box:
    return (box[0] * SCALE, box[1] * SCALE, box[2] * SCALE, box[3] * SCALE)


def _corners(box: Box) -> tuple[float, float, float, float]:
    left, top, width, height = box
    return (left, top, left + width, top + height)


def _rank_mask(text: str, box: Box) -> tuple[Image.Image, tuple[int, int]]:
    """The rank's glyphs as a mask exactly as tall as ``box``, centred in it; a rank too
    wide for the box (the 10) is narrowed to fit rather than made shorter."""
    font = ImageFont.load_default(size=RANK_FONT_SIZE)
    left, top, right, bottom = (round(v) for v in font.getbbox(text, stroke_width=RANK_STROKE))
    glyphs = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(glyphs).text(
        (-left, -top), text, font=font, fill=255, stroke_width=RANK_STROKE, stroke_fill=255
    )
    box_left, box_top, box_width, box_height = box
    height = round(box_height)
    width = min(round(glyphs.width * height / glyphs.height), round(box_width))
    mask = glyphs.resize((width, height), Image.Resampling.LANCZOS)
    return mask, (round(box_left + (box_width - width) / 2), round(box_top))


def _draw_face(image: Image.Image, card: Card, palette: Palette) -> None:
    draw = ImageDraw.Draw(image)
    ink = palette.suits[card.suit]
    mask, where = _rank_mask(card.rank.label, _scaled(RANK_BOX))
    image.paste(Image.new("RGBA", mask.size, ink), where, mask)
    draw_suit(draw, card.suit, _scaled(SUIT_BOX), ink)


def _draw_back(image: Image.Image, palette: Palette) -> None:
    """The deck's colour inside a white margin, crossed by a white lattice."""
    draw = ImageDraw.Draw(image)
    left, top, width, height = _scaled(CARD)
    inset = (EDGE + 5) * SCALE
    inner = (left + inset, top + inset, width - 2 * inset, height - 2 * inset)
    draw.rounded_rectangle(_corners(inner), radius=(CORNER - 6) * SCALE, fill=palette.back)
    lattice = Image.new("L", image.size, 0)
    lines = ImageDraw.Draw(lattice)
    for offset in range(-CANVAS, CANVAS, LATTICE_STEP * SCALE):
        lines.line([(offset, 0), (offset + CANVAS, CANVAS)], fill=LATTICE_INK, width=6)
        lines.line([(offset + CANVAS, 0), (offset, CANVAS)], fill=LATTICE_INK, width=6)
    clip = Image.new("L", image.size, 0)
    shrink = 3 * SCALE
    inside = (inner[0] + shrink, inner[1] + shrink, inner[2] - 2 * shrink, inner[3] - 2 * shrink)
    ImageDraw.Draw(clip).rounded_rectangle(_corners(inside), radius=(CORNER - 8) * SCALE, fill=255)
    image.paste(WHITE, (0, 0, CANVAS, CANVAS), ImageChops.multiply(lattice, clip))


def card_image(deck: Deck, face: Face) -> Image.Image:
    """The emoji as an RGBA image, ``SIZE`` pixels square, transparent around the card."""
    image = Image.new("RGBA", (CANVAS, CANVAS), (0, 0, 0, 0))
    card = _scaled(CARD)
    ImageDraw.Draw(image).rounded_rectangle(
        _corners(card),
        radius=CORNER * SCALE,
        fill=WHITE,
        outline=EDGE_COLOUR,
        width=round(EDGE * SCALE),
    )
    palette = PALETTES[deck]
    if isinstance(face, Back):
        _draw_back(image, palette)
    else:
        _draw_face(image, face, palette)
    return image.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def card_png(deck: Deck, face: Face) -> bytes:
    """The emoji's PNG file."""
    out = io.BytesIO()
    card_image(deck, face).save(out, format="PNG", optimize=True)
    return out.getvalue()

"""Contact sheet of the card art: every emoji of both decks at full and at inline size.

    python tools/card_sheet.py [--out card-sheet.png]

For each deck: the 52 cards (rows spades, hearts, diamonds, clubs; columns ace down to
deuce) and the back, at 128 pixels (Discord's large emoji), then at 22 pixels (an emoji in
a line of text) on Discord's dark and light backgrounds, and that 22-pixel row enlarged
four times with no smoothing so each pixel can be judged. Writes one PNG.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from anywhere

from dealerbot.card_art import BACK, INLINE, SIZE, Deck, Face, card_image
from dealerbot.engine.cards import Card, Rank, Suit

ZOOM = 4  # the enlarged copy of the inline row
GAP = 8
SMALL_GAP = 3
DARK = (49, 51, 56, 255)  # Discord's dark theme message background
LIGHT = (255, 255, 255, 255)
LABEL = (220, 221, 222, 255)
SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)
RANKS = sorted(Rank, reverse=True)
DECK_TITLES = {Deck.CLASSIC: "classic (sc_)", Deck.FOUR_COLOUR: "four-colour (s4_)"}


def grid(deck: Deck) -> list[list[Face]]:
    """Rows of faces: one suit a row, ace first; the back ends the first row."""
    rows: list[list[Face]] = [[Card.of(rank, suit) for rank in RANKS] for suit in SUITS]
    rows[0].append(BACK)
    return rows


def block(deck: Deck, size: int, background: tuple[int, int, int, int], gap: int) -> Image.Image:
    """The deck's grid at ``size`` pixels an emoji."""
    rows = grid(deck)
    columns = max(len(row) for row in rows)
    image = Image.new("RGBA", (columns * (size + gap) + gap, len(rows) * (size + gap) + gap))
    image.paste(background, (0, 0, image.width, image.height))
    for y, row in enumerate(rows):
        for x, face in enumerate(row):
            art = card_image(deck, face)
            if size != SIZE:
                art = art.resize((size, size), Image.Resampling.LANCZOS)
            image.alpha_composite(art, (gap + x * (size + gap), gap + y * (size + gap)))
    return image


def sheet() -> Image.Image:
    font = ImageFont.load_default(size=22)
    parts: list[tuple[str, Image.Image]] = []
    for deck in Deck:
        title = DECK_TITLES[deck]
        parts.append((f"{title}: {SIZE} px", block(deck, SIZE, DARK, GAP)))
        dark = block(deck, INLINE, DARK, SMALL_GAP)
        light = block(deck, INLINE, LIGHT, SMALL_GAP)
        both = Image.new("RGBA", (dark.width + light.width + GAP, dark.height), DARK)
        both.paste(dark, (0, 0))
        both.paste(light, (dark.width + GAP, 0))
        parts.append((f"{title}: {INLINE} px (inline), dark and light", both))
        zoomed = dark.resize((dark.width * ZOOM, dark.height * ZOOM), Image.Resampling.NEAREST)
        parts.append((f"{title}: {INLINE} px enlarged {ZOOM}x", zoomed))
    label_height = 34
    width = max(part.width for _, part in parts) + 2 * GAP
    height = sum(part.height + label_height for _, part in parts) + GAP
    out = Image.new("RGBA", (width, height), DARK)
    draw = ImageDraw.Draw(out)
    y = GAP
    for label, part in parts:
        draw.text((GAP, y), label, font=font, fill=LABEL)
        y += label_height
        out.alpha_composite(part, (GAP, y))
        y += part.height
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("card-sheet.png"), help="PNG to write")
    args = parser.parse_args(argv)
    sheet().save(args.out, format="PNG", optimize=True)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

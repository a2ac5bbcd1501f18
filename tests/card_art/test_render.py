"""The card art as emoji images: PNGs Discord takes, the same bytes every run, each deck's
colours, and a layout that still reads at the 22 pixels of an emoji in a line of text."""

from __future__ import annotations

import hashlib
import io
import itertools
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

from PIL import Image, ImageChops

from dealerbot.card_art import INLINE, SIZE, Deck, EmojiArt, card_image, emoji_set
from dealerbot.card_art.emoji_limits import IMAGE_BYTES
from dealerbot.card_art.render import BLUE, CARD, GREEN, RANK_BOX, RED, SUIT_BOX
from dealerbot.engine.cards import Card

REPO = Path(__file__).resolve().parents[2]
LIGHT = 200  # a channel value above which a pixel holds no ink


@cache
def the_set() -> tuple[EmojiArt, ...]:
    return tuple(emoji_set())


def digest(arts: tuple[EmojiArt, ...] | list[EmojiArt]) -> str:
    whole = hashlib.sha256()
    for art in arts:
        whole.update(art.name.encode() + b"\0" + hashlib.sha256(art.png).digest())
    return whole.hexdigest()


def opened(art: EmojiArt) -> Image.Image:
    image = Image.open(io.BytesIO(art.png))
    image.load()
    return image


def test_every_emoji_is_a_square_png_within_discords_size_limit() -> None:
    for art in the_set():
        assert art.png.startswith(b"\x89PNG\r\n\x1a\n"), art.name
        assert len(art.png) <= IMAGE_BYTES, (art.name, len(art.png))
        image = opened(art)
        assert (image.format, image.size, image.mode) == ("PNG", (SIZE, SIZE), "RGBA")


def test_no_two_faces_of_a_deck_share_a_picture() -> None:
    for deck in Deck:
        assert len({art.png for art in the_set() if art.deck is deck}) == 53
    # across the decks only the spades (black in both) and hearts (red) are the same picture
    classic = {a.face: a.png for a in the_set() if a.deck is Deck.CLASSIC}
    four = [a for a in the_set() if a.deck is Deck.FOUR_COLOUR]
    same = [a.name for a in four if classic[a.face] == a.png]
    assert same == [a.name for a in four if a.name.endswith(("h", "s"))]


def test_the_art_is_the_same_bytes_on_every_render() -> None:
    assert digest(emoji_set()) == digest(the_set())


def test_the_art_is_the_same_bytes_in_another_process() -> None:
    """A fresh interpreter with another hash seed: no order of a set or dict leaks in."""
    script = (
        "from dealerbot.card_art import emoji_set\n"
        "from tests.card_art.test_render import digest\n"
        "print(digest(emoji_set()))\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert run.stdout.strip() == digest(the_set())


def ink_share(image: Image.Image, colour: tuple[int, int, int, int], box: tuple) -> float:
    """How much of ``box`` (emoji pixels) is close to ``colour``."""
    left, top, width, height = (round(v) for v in box)
    data = image.crop((left, top, left + width, top + height)).convert("RGB").tobytes()
    pixels = [data[i : i + 3] for i in range(0, len(data), 3)]
    near = [p for p in pixels if sum(abs(a - b) for a, b in zip(p, colour[:3], strict=True)) < 60]
    return len(near) / len(pixels)


def test_each_deck_inks_its_suits_in_its_colours() -> None:
    inks = {"c": GREEN, "d": BLUE, "h": RED}
    for suit, ink in inks.items():
        for rank in ("A", "7", "T"):
            card = Card.parse(rank + suit)
            four = card_image(Deck.FOUR_COLOUR, card)
            classic = card_image(Deck.CLASSIC, card)
            assert ink_share(four, ink, SUIT_BOX) > 0.3, (rank, suit)
            assert ink_share(four, ink, RANK_BOX) > 0.15, (rank, suit)
            red_in_classic = suit in "dh"
            assert (ink_share(classic, RED, SUIT_BOX) > 0.3) is red_in_classic, (rank, suit)
    # spades are black in both decks, and nothing of a spade is red, green or blue
    for deck in Deck:
        spade = card_image(deck, Card.parse("Ks"))
        assert all(ink_share(spade, ink, CARD) < 0.01 for ink in (RED, GREEN, BLUE))


def test_the_rank_never_runs_into_the_suit() -> None:
    """Between the rank and the suit, rows of the card with no ink at all (every pixel
    light) on every face: the two never touch, however the scaling smooths them."""
    left, right = round(CARD[0]) + 8, round(CARD[0] + CARD[2]) - 8
    rows = range(round(RANK_BOX[1] + RANK_BOX[3]) - 4, round(SUIT_BOX[1]) + 4)
    for art in the_set():
        if art.name.endswith("_back"):
            continue
        image = opened(art).convert("RGB")
        clean = [
            y for y in rows if all(min(image.getpixel((x, y))) >= LIGHT for x in range(left, right))
        ]
        assert len(clean) >= 2, (art.name, clean)


def small(art: EmojiArt) -> Image.Image:
    return opened(art).convert("RGB").resize((INLINE, INLINE), Image.Resampling.LANCZOS)


def pixels_apart(a: Image.Image, b: Image.Image) -> int:
    """Pixels that differ by more than a quarter of full intensity."""
    difference = ImageChops.difference(a, b).convert("L")
    return sum(1 for v in difference.tobytes() if v > 64)


def test_every_face_of_a_deck_differs_from_every_other_at_inline_size() -> None:
    """At 22 pixels no two faces of one deck come out alike (a rank or suit lost)."""
    for deck in Deck:
        faces = [(a.name, small(a)) for a in the_set() if a.deck is deck]
        closest = min(pixels_apart(x, y) for (_, x), (_, y) in itertools.combinations(faces, 2))
        assert closest >= 5, deck


def test_the_two_red_suits_and_the_two_black_suits_differ_at_inline_size() -> None:
    """The classic deck's worst cases: hearts against diamonds, spades against clubs, with
    the rank the same (measured: 38 and 16 pixels of 484; a lost shape gives a few)."""
    by_name = {a.name: small(a) for a in the_set() if a.deck is Deck.CLASSIC}
    for rank in ("a", "2", "7", "10", "k"):
        hearts, diamonds = by_name[f"sc_{rank}h"], by_name[f"sc_{rank}d"]
        spades, clubs = by_name[f"sc_{rank}s"], by_name[f"sc_{rank}c"]
        assert pixels_apart(hearts, diamonds) >= 25, rank
        assert pixels_apart(spades, clubs) >= 12, rank

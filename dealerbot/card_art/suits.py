"""The four suit symbols as vector shapes (polygons and ellipses), so no font draws them.

Each shape is drawn to fill a box; the heart comes from the classic heart curve, the spade
is that heart upside down on a stem, the club three round lobes on the same stem, the
diamond a narrow rhombus. The diamond is kept narrow and pointed and the heart wide and
round-topped, so that the two red suits of the classic deck still differ at 22 pixels.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

from dealerbot.engine.cards import Suit

Box = tuple[float, float, float, float]
"""left, top, width, height, in the drawing's pixels."""
Colour = tuple[int, int, int, int]
Point = tuple[float, float]

CURVE_POINTS = 240  # points on the heart curve: smooth at 4x the emoji's size
DIAMOND_WIDTH = 0.8  # the diamond's width as a share of its height
STEM_TOP = 0.6  # where the stem of a spade or club starts, as a share of the height
STEM_HALF_BASE = 0.22


def _heart_curve(pointing_up: bool) -> list[Point]:
    """The heart curve x = 16 sin^3 t, y = 13 cos t - 5 cos 2t - 2 cos 3t - cos 4t,
    scaled to the unit square (point at the bottom, or at the top for a spade)."""
    raw = []
    for i in range(CURVE_POINTS):
        t = 2 * math.pi * i / CURVE_POINTS
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        raw.append((x, y))
    xs, ys = [p[0] for p in raw], [p[1] for p in raw]
    left, top, width, height = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
    points = []
    for x, y in raw:
        unit_y = (y - top) / height  # 0 at the curve's lowest y (its point), 1 at the lobes
        points.append(((x - left) / width, unit_y if pointing_up else 1 - unit_y))
    return points


HEART = _heart_curve(pointing_up=False)
SPADE_BLOB = _heart_curve(pointing_up=True)


def _place(points: list[Point], box: Box) -> list[Point]:
    left, top, width, height = box
    return [(left + x * width, top + y * height) for x, y in points]


def _stem(draw: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    """A stem widening to its base, with gently hollow sides."""
    left, top, width, height = box
    centre = left + width / 2
    neck = 0.04 * width
    points: list[Point] = []
    steps = 16
    for i in range(steps + 1):  # left side, top to bottom, curving inwards
        s = i / steps
        half = neck + (STEM_HALF_BASE * width - neck) * s**2
        points.append((centre - half, top + height * (STEM_TOP + (1 - STEM_TOP) * s)))
    points += [(2 * centre - x, y) for x, y in reversed(points)]
    draw.polygon(points, fill=fill)


def draw_heart(draw: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    draw.polygon(_place(HEART, box), fill=fill)


def draw_diamond(draw: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    left, top, width, height = box
    half = min(width, height * DIAMOND_WIDTH) / 2
    centre = left + width / 2
    middle = top + height / 2
    draw.polygon(
        [(centre, top), (centre + half, middle), (centre, top + height), (centre - half, middle)],
        fill=fill,
    )


def draw_spade(draw: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    left, top, width, height = box
    draw.polygon(_place(SPADE_BLOB, (left, top, width, height * 0.82)), fill=fill)
    _stem(draw, box, fill)


def draw_club(draw: ImageDraw.ImageDraw, box: Box, fill: Colour) -> None:
    left, top, width, height = box
    radius = 0.235 * width
    lobes = ((0.5, 0.235), (0.235, 0.56), (0.765, 0.56))
    for x, y in lobes:
        cx, cy = left + x * width, top + y * height
        draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=fill)
    core = 0.16 * width  # fills the gap where the three lobes meet
    cx, cy = left + 0.5 * width, top + 0.5 * height
    draw.ellipse((cx - core, cy - core, cx + core, cy + core), fill=fill)
    _stem(draw, box, fill)


DRAW: dict[Suit, Callable[[ImageDraw.ImageDraw, Box, Colour], None]] = {
    Suit.CLUBS: draw_club,
    Suit.DIAMONDS: draw_diamond,
    Suit.HEARTS: draw_heart,
    Suit.SPADES: draw_spade,
}


def draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, box: Box, fill: Colour) -> None:
    """Draw ``suit`` filling ``box``."""
    DRAW[suit](draw, box, fill)

"""Suit symbols drawn as vector shapes with Pillow primitives (no font glyphs needed).

Each shape is drawn white-on-black into a greyscale mask at four times the wanted size and
reduced, which anti-aliases the edges; the mask is then used to paint the suit's colour.
"""

from __future__ import annotations

import math
from functools import cache

from PIL import Image, ImageDraw

_SUPERSAMPLE = 4
_HEART_STEPS = 96


def _heart_outline(steps: int = _HEART_STEPS) -> list[tuple[float, float]]:
    """The classic heart curve, scaled into the unit square (point at the bottom)."""
    pts = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        pts.append((x, y))
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return [((x - x0) / (x1 - x0), (y - y0) / (y1 - y0)) for x, y in pts]


_HEART = _heart_outline()


def _scaled(points: list[tuple[float, float]], x: float, y: float, w: float, h: float,
            flip: bool = False) -> list[tuple[float, float]]:
    return [(x + px * w, y + ((1 - py) if flip else py) * h) for px, py in points]


def _draw(d: ImageDraw.ImageDraw, suit: str, s: float) -> None:
    """Draw ``suit`` filling an ``s`` × ``s`` box at the origin (value 255 on 0)."""
    if suit == "H":
        d.polygon(_scaled(_HEART, 0.02 * s, 0.06 * s, 0.96 * s, 0.88 * s), fill=255)
    elif suit == "D":
        d.polygon([(0.5 * s, 0.0), (0.88 * s, 0.5 * s), (0.5 * s, s), (0.12 * s, 0.5 * s)],
                  fill=255)
    elif suit == "S":
        d.polygon(_scaled(_HEART, 0.04 * s, 0.0, 0.92 * s, 0.8 * s, flip=True), fill=255)
        d.polygon([(0.5 * s, 0.5 * s), (0.7 * s, s), (0.3 * s, s)], fill=255)
    elif suit == "C":
        r = 0.215 * s
        for cx, cy in ((0.5, 0.24), (0.265, 0.58), (0.735, 0.58)):
            d.ellipse((cx * s - r, cy * s - r, cx * s + r, cy * s + r), fill=255)
        d.ellipse((0.38 * s, 0.38 * s, 0.62 * s, 0.66 * s), fill=255)
        d.polygon([(0.5 * s, 0.5 * s), (0.69 * s, s), (0.31 * s, s)], fill=255)
    else:
        raise ValueError(f"{suit!r} is not a suit (one of S, H, D, C)")


@cache
def suit_mask(suit: str, px: int) -> Image.Image:
    """An anti-aliased ``px`` × ``px`` greyscale mask of ``suit`` (255 inside)."""
    big = px * _SUPERSAMPLE
    im = Image.new("L", (big, big), 0)
    _draw(ImageDraw.Draw(im), suit, big)
    return im.reduce(_SUPERSAMPLE)


def paint_suit(target: Image.Image, suit: str, px: int, xy: tuple[int, int],
               colour: tuple[int, int, int]) -> None:
    """Paint ``suit`` of size ``px`` with its top-left corner at ``xy`` on ``target``."""
    target.paste(colour, (xy[0], xy[1], xy[0] + px, xy[1] + px), suit_mask(suit, px))

"""Colours, card sizes, the shipped font and PNG encoding shared by every picture.

Everything the renderer draws comes from this module's colours and from the font shipped in
``bot/render/assets`` (DejaVu Sans Bold, Bitstream Vera licence in
``assets/LICENSE-DejaVu.txt``), so pictures look the same on every machine.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

from PIL import Image, ImageFont

from bot.text_safety import clean_text

Size = Literal["small", "large"]
RGB = tuple[int, int, int]

FONT_PATH = Path(__file__).resolve().parent / "assets" / "DejaVuSans-Bold.ttf"

# -- colours ------------------------------------------------------------------------------
WHITE: RGB = (255, 255, 255)
RED: RGB = (200, 30, 45)
BLACK: RGB = (22, 22, 28)
CARD_EDGE: RGB = (150, 150, 162)
BACK_COLOUR: RGB = (35, 70, 160)
"""The face-down card's main colour (tests look for it where a hidden card lies)."""
BACK_PATTERN: RGB = (86, 124, 214)
BACKGROUND: RGB = (30, 33, 41)
"""Behind the hand, and around the table."""
FELT: RGB = (28, 106, 66)
FELT_RIM: RGB = (92, 62, 38)
PLATE: RGB = (48, 52, 64)
PLATE_EDGE: RGB = (96, 102, 118)
GOLD: RGB = (242, 190, 58)
"""Legal cards' outline in the hand; the border of the seat(s) to act at the table."""
TEXT: RGB = (236, 238, 242)
MUTED: RGB = (160, 166, 180)
BADGE: RGB = (28, 30, 38)
DIM_AMOUNT = 0.55
"""How far a card that may not be played is blended towards :data:`BACKGROUND`."""


@dataclass(frozen=True, slots=True)
class CardMetrics:
    """Pixel geometry of one card size: face box, corner index and centre symbol."""

    width: int
    height: int
    radius: int
    rank_font: int
    index_suit: int
    centre_suit: int
    margin: int


CARD: dict[Size, CardMetrics] = {
    "large": CardMetrics(80, 112, 7, 22, 15, 40, 4),
    "small": CardMetrics(56, 78, 5, 16, 11, 28, 3),
}
"""The two card sizes: ``large`` for hands and small tables, ``small`` for 5–6 seats."""


@cache
def font(px: int) -> ImageFont.FreeTypeFont:
    """The shipped font at ``px`` pixels (loaded once per size)."""
    return ImageFont.truetype(str(FONT_PATH), px)


def fit_text(text: str, px: int, max_width: int) -> str:
    """``text`` cleaned to one line of visible characters
    (:func:`~bot.text_safety.clean_text`: a line or paragraph separator, a control or
    format character makes Pillow's layout with libraqm fail, or reverses the text) and
    shortened with an ellipsis so that it fits ``max_width`` pixels at ``px``. Every text
    a picture draws goes through here."""
    text = clean_text(text)
    f = font(px)
    if f.getlength(text) <= max_width:
        return text
    while text and f.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def dimmed(c: RGB) -> RGB:
    """Colour ``c`` on a card that may not be played."""
    return _mix(c, BACKGROUND, DIM_AMOUNT)


_BLENDS: tuple[tuple[RGB, RGB], ...] = (
    (WHITE, RED), (WHITE, BLACK), (WHITE, CARD_EDGE), (CARD_EDGE, BACKGROUND),
    (CARD_EDGE, FELT), (CARD_EDGE, GOLD), (WHITE, BACK_COLOUR), (BACK_COLOUR, BACK_PATTERN),
    (GOLD, BACKGROUND), (GOLD, PLATE), (GOLD, WHITE), (TEXT, PLATE), (MUTED, PLATE),
    (TEXT, BACKGROUND), (FELT, FELT_RIM), (FELT_RIM, BACKGROUND), (BADGE, WHITE),
    (WHITE, PLATE), (BLACK, PLATE_EDGE), (MUTED, WHITE), (WHITE, FELT),
    (dimmed(WHITE), dimmed(RED)), (dimmed(WHITE), dimmed(BLACK)),
    (dimmed(WHITE), dimmed(CARD_EDGE)), (dimmed(CARD_EDGE), BACKGROUND),
    (dimmed(WHITE), BADGE), (dimmed(BACK_COLOUR), dimmed(BACK_PATTERN)),
    (MUTED, BACKGROUND), (PLATE_EDGE, BACKGROUND), (PLATE, BACKGROUND),
)
"""Colour pairs that meet at anti-aliased edges; the palette holds 7 steps between each."""


@cache
def _palette() -> Image.Image:
    """The fixed 256-colour palette every picture is reduced to (theme colours and the
    blends between them), so encoding needs no per-picture colour analysis."""
    colours: list[RGB] = []
    for a, b in _BLENDS:
        for i in range(9):
            c = _mix(a, b, i / 8)
            if c not in colours:
                colours.append(c)
    if len(colours) > 256:
        raise AssertionError(f"the palette needs {len(colours)} colours")
    colours += [BACKGROUND] * (256 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette([v for c in colours for v in c])
    return pal


def encode_png(im: Image.Image) -> bytes:
    """PNG bytes of ``im``, reduced to the fixed theme palette (the pictures are theme
    colours plus anti-aliasing between them, so this is visually lossless) and saved with
    light compression (fast, and far below the 200 KB budget)."""
    rgb = im if im.mode == "RGB" else im.convert("RGB")
    pal = rgb.quantize(palette=_palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    pal.save(buf, "PNG", optimize=False, compress_level=3)
    return buf.getvalue()

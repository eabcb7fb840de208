"""Card faces and the face-down back, drawn once per card, size and look, then reused.

A face is white with rounded corners: the rank (from the shipped font, ``"10"`` for ``T``)
and a small suit in the top-left corner, the same index turned upside down in the
bottom-right corner, and one large suit symbol in the middle. Hearts and diamonds are red,
spades and clubs black. The back is blue with a lighter lattice inside a white frame.

Every image returned by :func:`card_image` is shared by all callers (an in-memory cache):
paste it, never draw on it. :func:`render_card` returns a private copy.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

from PIL import Image, ImageDraw

from bot.render.suits import paint_suit
from bot.render.theme import (
    BACK_COLOUR,
    BACK_PATTERN,
    BACKGROUND,
    BADGE,
    BLACK,
    CARD,
    CARD_EDGE,
    DIM_AMOUNT,
    GOLD,
    RED,
    WHITE,
    Size,
    font,
)
from games.base import HIDDEN
from games.cards import RED_SUITS, SUITS
from games.cards import card as parse_card

Look = Literal["plain", "dim", "lit"]
"""``plain``: as is; ``dim``: blended towards the background (a card that may not be
played); ``lit``: with a gold outline around it (a legal card)."""

_SUPERSAMPLE = 4


def rank_label(rank: str) -> str:
    """How a rank letter is printed on a card: ``"10"`` for ``T``, else the letter."""
    return "10" if rank == "T" else rank


def ring_width(size: Size) -> int:
    """Width of the gold outline of a ``lit`` card (the image is that much larger per side)."""
    return 3 if size == "large" else 2


def _check_size(size: str) -> None:
    if size not in CARD:
        raise ValueError(f"{size!r} is not a card size (one of 'small', 'large')")


@cache
def _rounded_mask(w: int, h: int, radius: int, inset: int = 0) -> Image.Image:
    """Anti-aliased mask of a ``w`` × ``h`` rounded rectangle, shrunk by ``inset`` pixels."""
    s = _SUPERSAMPLE
    im = Image.new("L", (w * s, h * s), 0)
    ImageDraw.Draw(im).rounded_rectangle(
        (inset * s, inset * s, (w - inset) * s - 1, (h - inset) * s - 1),
        radius=max(0, radius - inset) * s, fill=255)
    return im.reduce(s)


def _blank(size: Size, fill: tuple[int, int, int]) -> Image.Image:
    """A card-shaped RGBA image: a thin grey edge around ``fill``, transparent corners."""
    m = CARD[size]
    im = Image.new("RGBA", (m.width, m.height), (*CARD_EDGE, 0))
    im.putalpha(_rounded_mask(m.width, m.height, m.radius))
    im.paste(fill, (0, 0, m.width, m.height), _rounded_mask(m.width, m.height, m.radius, 1))
    return im


def _draw_face(text: str, size: Size) -> Image.Image:
    m = CARD[size]
    suit = text[1]
    colour = RED if SUITS.index(suit) in RED_SUITS else BLACK
    im = _blank(size, WHITE)
    # the corner index, drawn on a transparent layer that is also used upside down
    layer = Image.new("RGBA", im.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    f = font(m.rank_font)
    cap = -round(f.getbbox("K", anchor="ms")[1])
    cx = m.margin + round(m.rank_font * 0.62)
    baseline = m.margin + cap + 1
    d.text((cx, baseline), rank_label(text[0]), font=f, fill=colour, anchor="ms")
    paint_suit(layer, suit, m.index_suit, (cx - m.index_suit // 2, baseline + 3), colour)
    im.alpha_composite(layer)
    im.alpha_composite(layer.rotate(180))
    c = m.centre_suit
    paint_suit(im, suit, c, ((m.width - c) // 2, (m.height - c) // 2), colour)
    return im


def _draw_back(size: Size) -> Image.Image:
    m = CARD[size]
    im = _blank(size, WHITE)
    pattern = Image.new("RGB", im.size, BACK_COLOUR)
    d = ImageDraw.Draw(pattern)
    step = 8 if size == "large" else 6
    span = m.width + m.height
    for k in range(-span, span, step):
        d.line((k, 0, k + m.height, m.height), fill=BACK_PATTERN, width=1)
        d.line((k + m.height, 0, k, m.height), fill=BACK_PATTERN, width=1)
    inset = m.margin + 1
    im.paste(pattern, (0, 0), _rounded_mask(m.width, m.height, m.radius, inset))
    return im


def _dim(im: Image.Image) -> Image.Image:
    shade = Image.new("RGBA", im.size, (*BACKGROUND, 255))
    out = Image.blend(im, shade, DIM_AMOUNT)
    out.putalpha(im.getchannel("A"))
    return out


def _light(im: Image.Image, size: Size) -> Image.Image:
    g = ring_width(size)
    m = CARD[size]
    w, h = m.width + 2 * g, m.height + 2 * g
    out = Image.new("RGBA", (w, h), (*GOLD, 0))
    out.putalpha(_rounded_mask(w, h, m.radius + g))
    out.alpha_composite(im, (g, g))
    return out


@cache
def card_image(text: str, size: Size = "large", look: Look = "plain") -> Image.Image:
    """The shared RGBA image of card ``text`` (``"TS"``; :data:`~games.base.HIDDEN` for the
    back) at ``size`` in ``look``. Raises ``ValueError`` for anything else."""
    _check_size(size)
    if look not in ("plain", "dim", "lit"):
        raise ValueError(f"{look!r} is not a card look (one of 'plain', 'dim', 'lit')")
    if look == "dim":
        return _dim(card_image(text, size))
    if look == "lit":
        return _light(card_image(text, size), size)
    if text == HIDDEN:
        return _draw_back(size)
    parse_card(text)
    return _draw_face(text, size)


def render_card(card: str, size: Size = "large") -> Image.Image:
    """A new RGBA image of one card face (``"QH"``, ``"TS"`` …) or, for
    :data:`~games.base.HIDDEN` (``"??"``), the face-down back; ``ValueError`` otherwise."""
    return card_image(card, size).copy()


@cache
def tag_image(text: str, size: Size) -> Image.Image:
    """A small dark pill with white ``text`` put on a card: ``×3`` on a card that stands
    for three identical cards in a hand, ``led`` on the trick's first card at the table."""
    px = 14 if size == "large" else 11
    f = font(px)
    pad = 4 if size == "large" else 3
    w = round(f.getlength(text)) + 2 * pad
    h = px + 2 * pad
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=h // 2, fill=(*BADGE, 255))
    d.text((w / 2, h / 2), text, font=f, fill=WHITE, anchor="mm")
    return im

"""The hand picture (the DM and the private panel): one row per suit, legal cards lit.

Layout rules:

* Suits get a row each, in the order they first appear in the hand (views already sort a
  hand by suit, black and red alternating); within a row the cards keep the hand's order.
* With ``group_identical`` (Arba'a Turub's four packs), identical cards are drawn once with
  a ``×N`` tag on it.
* With a ``legal`` set, the cards in it are raised and outlined in gold and every other card
  is dimmed; with ``legal=None`` every card is drawn plainly (nothing is to be played now).
* The picture is at most :data:`MAX_WIDTH` pixels wide: a row that would be wider overlaps
  its cards (the corner index stays visible), and a row that would need to overlap them
  more than :data:`MIN_STRIDE` allows is split into two or more rows. Large cards are used
  unless that needs more than :data:`MAX_LARGE_ROWS` rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render.cards import Look, card_image, ring_width, tag_image
from bot.render.theme import BACKGROUND, CARD, MUTED, Size, encode_png, font

MAX_WIDTH = 800
PAD = 12
GAP = 6
ROW_GAP = 8
MIN_STRIDE: dict[Size, int] = {"large": 38, "small": 28}
"""The least horizontal distance between overlapping cards (keeps the index readable)."""
LIFT: dict[Size, int] = {"large": 10, "small": 7}
"""How far a legal card is raised above the others in its row."""
MAX_LARGE_ROWS = 6


@dataclass(frozen=True, slots=True)
class Placement:
    """One card drawn in the hand picture: ``count`` identical cards, face box top-left at
    (``x``, ``y``), drawn in ``look``."""

    card: str
    count: int
    x: int
    y: int
    look: Look


@dataclass(frozen=True, slots=True)
class HandLayout:
    """Where every card of a hand picture goes; :func:`render_hand` draws exactly this."""

    width: int
    height: int
    size: Size
    placements: tuple[Placement, ...]


def _rows_by_suit(cards: Iterable[str], group: bool) -> list[list[tuple[str, int]]]:
    rows: dict[str, list[tuple[str, int]]] = {}
    for c in cards:
        row = rows.setdefault(c[-1], [])
        if group:
            for i, (other, n) in enumerate(row):
                if other == c:
                    row[i] = (c, n + 1)
                    break
            else:
                row.append((c, 1))
        else:
            row.append((c, 1))
    return list(rows.values())


def _split(row: list[tuple[str, int]], size: Size) -> list[list[tuple[str, int]]]:
    w = CARD[size].width
    per_row = (MAX_WIDTH - 2 * PAD - w) // MIN_STRIDE[size] + 1
    parts = -(-len(row) // per_row)
    each = -(-len(row) // parts)
    return [row[i : i + each] for i in range(0, len(row), each)]


def layout_hand(cards: Iterable[str], legal: frozenset[str] | None,
                group_identical: bool) -> HandLayout:
    """The layout of :func:`render_hand` (see the module docstring for the rules)."""
    suits = _rows_by_suit(cards, group_identical)
    size: Size = "large"
    rows = [part for row in suits for part in _split(row, size)]
    if len(rows) > MAX_LARGE_ROWS:
        size = "small"
        rows = [part for row in suits for part in _split(row, size)]
    m = CARD[size]
    lift = LIFT[size] if legal is not None else 0
    placements: list[Placement] = []
    width = 2 * PAD + m.width
    y = PAD
    for row in rows:
        n = len(row)
        stride = m.width + GAP
        if n > 1 and 2 * PAD + n * stride - GAP > MAX_WIDTH:
            stride = (MAX_WIDTH - 2 * PAD - m.width) // (n - 1)
        width = max(width, 2 * PAD + (n - 1) * stride + m.width)
        for i, (c, count) in enumerate(row):
            look: Look = "plain"
            dy = 0
            if legal is not None:
                look = "lit" if c in legal else "dim"
                dy = 0 if c in legal else lift
            placements.append(Placement(c, count, PAD + i * stride, y + dy, look))
        y += lift + m.height + ROW_GAP
    height = y - ROW_GAP + PAD if rows else 2 * PAD + m.height // 2
    return HandLayout(width, height, size, tuple(placements))


def draw_hand(layout: HandLayout) -> Image.Image:
    """The RGB picture of ``layout``."""
    im = Image.new("RGB", (layout.width, layout.height), BACKGROUND)
    m = CARD[layout.size]
    g = ring_width(layout.size)
    if not layout.placements:
        ImageDraw.Draw(im).text((layout.width / 2, layout.height / 2), "no cards",
                                font=font(16), fill=MUTED, anchor="mm")
    for p in layout.placements:
        face = card_image(p.card, layout.size, p.look)
        off = g if p.look == "lit" else 0
        im.paste(face, (p.x - off, p.y - off), face)
        if p.count > 1:
            tag = tag_image(f"×{p.count}", layout.size)
            im.paste(tag, (p.x + m.margin, p.y + m.height - tag.height - m.margin), tag)
    return im


@lru_cache(maxsize=256)
def _render_hand(cards: tuple[str, ...], legal: frozenset[str] | None,
                 group_identical: bool) -> bytes:
    return encode_png(draw_hand(layout_hand(cards, legal, group_identical)))


def render_hand(cards: Iterable[str], legal: Iterable[str] | None = None,
                group_identical: bool = True) -> bytes:
    """PNG bytes of a hand: ``cards`` as in a view's ``hand`` (``"??"`` draws a back),
    ``legal`` the cards that may be played now (``None``: no highlighting), identical cards
    drawn once with a count when ``group_identical``. Cached by these exact inputs; raises
    ``ValueError`` for a string that is not a card."""
    return _render_hand(tuple(cards), None if legal is None else frozenset(legal),
                        group_identical)

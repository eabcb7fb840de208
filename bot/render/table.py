"""The table picture: 2–6 seats around a felt table with the current trick, built from a view.

What is drawn, and from which view key (``games/base.py`` documents them):

* every seat (``players``) on a name plate around the table, seat 0 at the bottom and the
  others clockwise, or, for a seat's private view (``seat`` not null), that seat at the
  bottom; the plate shows the name, the side (``teams``, when sides have partners) and
  the cards held (``hand_sizes``); the plates of the seats in ``to_act`` have a gold
  border; the dealer (``dealer``) has a white ``D`` button;
* each seat's card of the current trick (``trick``) between its plate and the centre, a
  card the view hides (:data:`~games.base.HIDDEN`) face down, never face up; once a
  second card is on the table (and until the trick is full) the first carries a ``led`` tag;
* the trump suit (``trump``) in the white disc in the middle (a dash when there is none,
  the text itself if a game ever puts something other than a suit letter there);
* the game's title and ``phase`` in the top band, the caller's score line in the bottom band.

Large cards are used up to four seats, small ones for five and six.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.render.cards import card_image, tag_image
from bot.render.suits import paint_suit
from bot.render.theme import (
    BACKGROUND,
    BLACK,
    CARD,
    FELT,
    FELT_RIM,
    GOLD,
    MUTED,
    PLATE,
    PLATE_EDGE,
    RED,
    TEXT,
    WHITE,
    Size,
    encode_png,
    fit_text,
    font,
)
from games.cards import RED_SUITS, SUITS
from games.registry import GAMES
from games.view_types import GameView

WIDTH, HEIGHT = 800, 600
CENTRE = (400, 300)
FELT_RADII = (310, 196)
PLATE_RADII = (318, 214)
CARD_RADII = (170, 120)
PLATE_SIZE = (164, 46)
TRUMP_RADIUS = 32
BAND = 36
"""Height of the title band (top) and the score band (bottom)."""

Box = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class TableLayout:
    """Where things go on the table picture; :func:`render_table` draws exactly this."""

    players: int
    size: Size
    plates: tuple[Box, ...]
    """The name plate of every seat, indexed by seat."""
    cards: tuple[Box, ...]
    """Where every seat's trick card goes (the face box), indexed by seat."""
    trump: tuple[int, int]
    """Centre of the trump disc."""


@cache
def layout_table(players: int, bottom: int = 0) -> TableLayout:
    """The layout for ``players`` seats (2–6) with seat ``bottom`` at the bottom."""
    if not 2 <= players <= 6:
        raise ValueError(f"a table has 2 to 6 seats, not {players}")
    size: Size = "large" if players <= 4 else "small"
    m = CARD[size]
    cx, cy = CENTRE
    pw, ph = PLATE_SIZE
    plates: list[Box] = []
    cards: list[Box] = []
    for seat in range(players):
        k = (seat - bottom) % players
        angle = 2 * math.pi * k / players
        dx, dy = -math.sin(angle), math.cos(angle)
        px = round(cx + PLATE_RADII[0] * dx - pw / 2)
        py = round(cy + PLATE_RADII[1] * dy - ph / 2)
        px = min(max(px, 6), WIDTH - pw - 6)
        py = min(max(py, BAND + 6), HEIGHT - BAND - ph - 6)
        plates.append((px, py, px + pw, py + ph))
        qx = round(cx + CARD_RADII[0] * dx - m.width / 2)
        qy = round(cy + CARD_RADII[1] * dy - m.height / 2)
        cards.append((qx, qy, qx + m.width, qy + m.height))
    return TableLayout(players, size, tuple(plates), tuple(cards), CENTRE)


@cache
def _base() -> Image.Image:
    """Background, bands, felt with its rim and the empty trump disc (drawn once)."""
    s = 2
    im = Image.new("RGB", (WIDTH * s, HEIGHT * s), BACKGROUND)
    d = ImageDraw.Draw(im)
    cx, cy = CENTRE
    rx, ry = FELT_RADII
    d.ellipse(((cx - rx) * s, (cy - ry) * s, (cx + rx) * s, (cy + ry) * s), fill=FELT_RIM)
    rim = 9
    d.ellipse(((cx - rx + rim) * s, (cy - ry + rim) * s, (cx + rx - rim) * s,
               (cy + ry - rim) * s), fill=FELT)
    r = TRUMP_RADIUS
    d.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=WHITE)
    return im.reduce(s)


def _title(view: GameView) -> str:
    game = str(view.get("game", ""))
    info = GAMES.get(game)
    title = info.title if info is not None else game
    phase = view.get("phase")
    return f"{title} · {phase}" if phase else title


def _key(view: GameView) -> tuple[Any, ...]:
    """Exactly the parts of a view the picture shows (the cache key)."""
    trick = view.get("trick") or {}
    cards = tuple((int(s), str(c)) for s, c in trick.get("cards", ()))
    return (
        _title(view),
        view.get("seat"),
        int(view["players"]),
        view.get("dealer"),
        view.get("trump"),
        tuple(view.get("to_act", ())),
        tuple(view.get("hand_sizes", ())),
        tuple(tuple(t) for t in view.get("teams", ())),
        cards,
    )


def _plate(d: ImageDraw.ImageDraw, box: Box, name: str, detail: str, acting: bool,
           dealer: bool) -> None:
    x0, y0, x1, _ = box
    d.rounded_rectangle(box, radius=9, fill=PLATE, outline=GOLD if acting else PLATE_EDGE,
                        width=3 if acting else 1)
    room = x1 - x0 - 18 - (16 if dealer else 0)
    d.text((x0 + 9, y0 + 7), fit_text(name, 15, room), font=font(15),
           fill=GOLD if acting else TEXT)
    if detail:
        d.text((x0 + 9, y0 + 27), fit_text(detail, 11, x1 - x0 - 18), font=font(11),
               fill=MUTED)
    if dealer:
        bx, by, r = x1 - 14, y0 + 15, 10
        d.ellipse((bx - r, by - r, bx + r, by + r), fill=WHITE, outline=PLATE_EDGE)
        d.text((bx, by), "D", font=font(12), fill=BLACK, anchor="mm")


def draw_table(key: tuple[Any, ...], names: Sequence[str], score_line: str) -> Image.Image:
    """The RGB table picture for a view's :func:`_key`."""
    title, seat, players, dealer, trump, to_act, hand_sizes, teams, trick = key
    layout = layout_table(players, seat if isinstance(seat, int) else 0)
    im = _base().copy()
    d = ImageDraw.Draw(im)
    d.text((14, BAND // 2), fit_text(title, 16, WIDTH - 28), font=font(16), fill=TEXT,
           anchor="lm")
    d.text((WIDTH // 2, HEIGHT - BAND // 2), fit_text(score_line, 15, WIDTH - 28),
           font=font(15), fill=TEXT, anchor="mm")
    partnered = any(len(t) > 1 for t in teams)
    for s in range(players):
        name = names[s] if s < len(names) and names[s] else f"seat {s}"
        bits = []
        if partnered:
            side = next((i for i, t in enumerate(teams) if s in t), None)
            if side is not None:
                bits.append(f"side {'ABCDEF'[side]}")
        if s < len(hand_sizes):
            n = hand_sizes[s]
            bits.append(f"{n} card{'' if n == 1 else 's'}")
        _plate(d, layout.plates[s], name, " · ".join(bits), s in to_act, s == dealer)
    cx, cy = layout.trump
    if trump in tuple(SUITS):
        px = 2 * TRUMP_RADIUS - 24
        colour = RED if SUITS.index(trump) in RED_SUITS else BLACK
        paint_suit(im, trump, px, (cx - px // 2, cy - px // 2 - 4), colour)
        d.text((cx, cy + TRUMP_RADIUS - 10), "trump", font=font(9), fill=MUTED, anchor="mm")
    else:
        mark = fit_text(str(trump), 14, 2 * TRUMP_RADIUS - 8) if trump else "–"
        d.text((cx, cy - 4), mark, font=font(22 if mark == "–" else 14),
               fill=MUTED if mark == "–" else BLACK, anchor="mm")
        d.text((cx, cy + TRUMP_RADIUS - 10), "no trump", font=font(9), fill=MUTED,
               anchor="mm")
    for i, (s, c) in enumerate(trick):
        face = card_image(c, layout.size)
        x0, y0, x1, _ = layout.cards[s]
        im.paste(face, (x0, y0), face)
        if i == 0 and 1 < len(trick) < players:
            tag = tag_image("led", layout.size)
            m = CARD[layout.size]
            im.paste(tag, (x1 - tag.width - m.margin, y0 + m.margin), tag)
    return im


@lru_cache(maxsize=256)
def _render_table(key: tuple[Any, ...], names: tuple[str, ...], score_line: str) -> bytes:
    return encode_png(draw_table(key, names, score_line))


def render_table(view: GameView, names: Sequence[str], score_line: str = "") -> bytes:
    """PNG bytes of the table for ``view`` (``deal.view(None)``, or a seat's own view to put
    that seat at the bottom), ``names`` indexed by seat and a ``score_line``. Cached by the
    parts of the view it draws plus the names and score line."""
    return _render_table(_key(view), tuple(names), score_line)

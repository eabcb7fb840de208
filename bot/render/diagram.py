"""The hand diagram: every hand of a deal laid out round the table, as on a printed hand
record (a duplicate board's hands as dealt, in the results thread and the reveal).

At four seats the hands sit at their compass positions — North above, South below, West
left and East right of a centre that names the board — and at two North above South.
Other tables (three, five or six seats) put their hands two a row in seat order. Each
hand is drawn by the hand renderer (:func:`bot.render.hand.draw_hand`, one row per suit,
nothing lit) under its label. Pure: labels and cards come from the caller, so this module
knows nothing of games or events. CPU work: call it off the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.render.hand import draw_hand, layout_hand
from bot.render.theme import BACKGROUND, MUTED, TEXT, encode_png, fit_text, font

LABEL_PX = 18
LABEL_HEIGHT = 28
TITLE_PX = 22
PAD = 12
MIN_CELL = 240

COMPASS_CELLS: dict[int, tuple[tuple[int, int], ...]] = {
    4: ((0, 1), (1, 2), (2, 1), (1, 0)),
    2: ((0, 0), (1, 0)),
}
"""``(row, column)`` of each seat's cell by player count (seat 0 is North)."""


@dataclass(frozen=True, slots=True)
class DiagramHand:
    """One hand of the diagram: its ``seat`` (0-based, for its place only), the ``label``
    shown above it and its ``cards`` in record notation, in the order to draw."""

    seat: int
    label: str
    cards: tuple[str, ...]


def _cells(players: int, seats: Sequence[int]) -> tuple[dict[int, tuple[int, int]], int, int]:
    """Each seat's ``(row, column)`` and the grid's rows and columns."""
    fixed = COMPASS_CELLS.get(players)
    if fixed is not None:
        cells = {seat: fixed[seat] for seat in seats}
    else:
        cells = {seat: divmod(i, 2) for i, seat in enumerate(sorted(seats))}
    rows = max(r for r, _ in cells.values()) + 1 if cells else 1
    columns = max(c for _, c in cells.values()) + 1 if cells else 1
    return cells, rows, columns


def hand_diagram(hands: Sequence[DiagramHand], players: int, title: str = "") -> Image.Image:
    """The RGB diagram of ``hands`` at a table of ``players`` (module docstring); ``title``
    (e.g. ``Board 3``) in the centre at four seats, else above the hands."""
    pictures = {h.seat: draw_hand(layout_hand(h.cards, None, True)) for h in hands}
    labels = {h.seat: h.label for h in hands}
    cells, rows, columns = _cells(players, list(pictures))
    cell_w = max([p.width for p in pictures.values()] + [MIN_CELL])
    row_h = [max([pictures[s].height + LABEL_HEIGHT for s, (r, _) in cells.items() if r == row]
                 + [LABEL_HEIGHT * 2]) for row in range(rows)]
    centred = players in COMPASS_CELLS and players == 4
    top = PAD if centred or not title else PAD + LABEL_HEIGHT + 4
    im = Image.new("RGB", (columns * cell_w, top + sum(row_h) + PAD), BACKGROUND)
    draw = ImageDraw.Draw(im)
    if title and not centred:
        draw.text((PAD, PAD), fit_text(title, TITLE_PX, im.width - 2 * PAD),
                  font=font(TITLE_PX), fill=MUTED)
    elif title:
        y = top + sum(row_h[:1]) + row_h[1] // 2
        draw.text((cell_w + cell_w // 2, y), fit_text(title, TITLE_PX, cell_w - 2 * PAD),
                  font=font(TITLE_PX), fill=MUTED, anchor="mm")
    for seat, (row, column) in cells.items():
        x, y = column * cell_w, top + sum(row_h[:row])
        draw.text((x + PAD, y + 4), fit_text(labels[seat], LABEL_PX, cell_w - 2 * PAD),
                  font=font(LABEL_PX), fill=TEXT)
        im.paste(pictures[seat], (x, y + LABEL_HEIGHT))
    return im


def hand_diagram_png(hands: Sequence[DiagramHand], players: int, title: str = "") -> bytes:
    """PNG bytes of :func:`hand_diagram`."""
    return encode_png(hand_diagram(hands, players, title))

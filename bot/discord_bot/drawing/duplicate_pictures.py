"""A picture of a board's four hands as dealt, for the results thread (when the server's
pictures are on): one picture per seat, labelled like the text hand record, two a row,
each hand drawn by the card renderer of the hand panels (:func:`bot.render.hand.draw_hand`).
CPU work: call :func:`hand_record_png` off the event loop."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render.hand import draw_hand, layout_hand
from bot.render.theme import BACKGROUND, TEXT, encode_png, fit_text, font

LABEL_PX = 18
LABEL_HEIGHT = 28
PAD = 12


def hand_record_png(labels: Sequence[str], hands: Sequence[Sequence[str]]) -> bytes:
    """PNG bytes: ``labels[i]`` above hand ``hands[i]`` (cards in record notation), two
    hands a row."""
    pictures = [draw_hand(layout_hand(hand, None, True)) for hand in hands]
    columns = 2 if len(pictures) > 1 else 1
    cell_w = max([p.width for p in pictures] + [240])
    rows = [pictures[i:i + columns] for i in range(0, len(pictures), columns)]
    heights = [max(p.height for p in row) + LABEL_HEIGHT for row in rows]
    im = Image.new("RGB", (columns * cell_w, sum(heights) + PAD), BACKGROUND)
    draw = ImageDraw.Draw(im)
    y = PAD // 2
    for r, row in enumerate(rows):
        for c, picture in enumerate(row):
            x = c * cell_w
            label = labels[r * columns + c]
            draw.text((x + PAD, y + 4), fit_text(label, LABEL_PX, cell_w - 2 * PAD),
                      font=font(LABEL_PX), fill=TEXT)
            im.paste(picture, (x, y + LABEL_HEIGHT))
        y += heights[r]
    return encode_png(im)

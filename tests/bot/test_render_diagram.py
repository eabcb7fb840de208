"""The hand diagram (bot/render/diagram.py): at four seats North above South, West left of
East round the board's title; other tables two hands a row."""

from __future__ import annotations

from PIL import Image

from bot.render.diagram import DiagramHand, hand_diagram, hand_diagram_png
from bot.render.theme import BACKGROUND

HANDS = [["AS", "KS"], ["QH"], ["JD", "TD", "9D"], ["8C"]]


def _drawn(im: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether anything but the background is drawn inside ``box``."""
    colours = im.crop(box).getcolors(maxcolors=1 << 16) or []
    return any(colour != BACKGROUND for _, colour in colours)


def test_four_hands_sit_at_their_compass_positions() -> None:
    hands = [DiagramHand(s, f"label {s}", tuple(h)) for s, h in enumerate(HANDS)]
    im = hand_diagram(hands, 4, "Board 3")
    third_w, third_h = im.width // 3, im.height // 3
    cells = {(r, c): (c * third_w + 2, r * third_h + 2, (c + 1) * third_w - 2,
                      (r + 1) * third_h - 2) for r in range(3) for c in range(3)}
    for place in ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)):  # N, W, the title, E, S
        assert _drawn(im, cells[place]), place
    for corner in ((0, 0), (0, 2), (2, 0), (2, 2)):  # nothing in the corners
        assert not _drawn(im, cells[corner]), corner


def test_two_hands_one_above_the_other_and_six_two_a_row() -> None:
    two = hand_diagram([DiagramHand(0, "N", ("AS",)), DiagramHand(1, "S", ("KS",))], 2)
    one = hand_diagram([DiagramHand(0, "N", ("AS",))], 2)
    assert two.height > one.height and two.width == one.width
    six = hand_diagram([DiagramHand(s, str(s), ("AS",)) for s in range(6)], 6, "Board 1")
    assert six.width == 2 * two.width
    assert hand_diagram_png([DiagramHand(0, "N", ("AS",))], 2)[:8] == b"\x89PNG\r\n\x1a\n"

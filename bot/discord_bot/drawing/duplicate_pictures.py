"""A picture of a board's hands as dealt, for the results thread (when the server's
pictures are on): the hand diagram of :mod:`bot.render.diagram` (the hands at their compass
positions round the board's number), each hand sorted and labelled as in the text hand
record (:func:`bot.duplicate.hands.board_hands`). CPU work: call :func:`hand_record_png`
off the event loop."""

from __future__ import annotations

from collections.abc import Sequence

from bot.duplicate.hands import BoardHand
from bot.render.diagram import DiagramHand, hand_diagram_png


def hand_record_png(hands: Sequence[BoardHand], players: int, title: str) -> bytes:
    """PNG bytes: the diagram of ``hands`` at a table of ``players``, ``title`` (``Board
    3``) in its centre."""
    return hand_diagram_png([DiagramHand(h.seat, h.label, h.cards) for h in hands], players,
                            title)

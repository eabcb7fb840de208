"""Card pictures for the table and the hand, drawn with Pillow from shipped shapes and font.

The three entry points are pure functions of their inputs (and cached by them):

* :func:`render_card` — one card face, or the back for ``"??"``, as a Pillow image;
* :func:`render_hand` — PNG bytes of a hand in rows by suit, legal cards lit, the others
  dimmed, Arba'a Turub's identical cards drawn once with a ``×N`` count;
* :func:`render_table` — PNG bytes of the seats around the table with the current trick
  (hidden cards face down), the trump, the dealer and a score line, from a game view.

:func:`warm_up` draws every card face ahead of time (the first picture otherwise pays for
the faces it uses). No Discord code here: the adapter attaches the bytes.
"""

from __future__ import annotations

from bot.render.cards import card_image, rank_label, render_card
from bot.render.hand import HandLayout, Placement, _render_hand, layout_hand, render_hand
from bot.render.table import TableLayout, _render_table, layout_table, render_table
from bot.render.theme import CARD, Size
from games.base import HIDDEN
from games.cards import NATURAL, SUITS

__all__ = [
    "CARD",
    "HandLayout",
    "Placement",
    "Size",
    "TableLayout",
    "clear_pictures",
    "layout_hand",
    "layout_table",
    "rank_label",
    "render_card",
    "render_hand",
    "render_table",
    "warm_up",
]


def warm_up() -> None:
    """Draw every face, the back and their looks at both sizes into the in-memory cache."""
    for size in CARD:
        for text in [r + s for s in SUITS for r in NATURAL] + [HIDDEN]:
            for look in ("plain", "dim", "lit"):
                card_image(text, size, look)


def clear_pictures() -> None:
    """Forget the cached hand and table pictures (card faces stay drawn)."""
    _render_hand.cache_clear()
    _render_table.cache_clear()

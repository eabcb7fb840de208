"""Writes the sample pictures of ``docs/gallery/`` (card sheets, hands, tables).

    python bench/gallery.py [--out docs/gallery]

Positions come from seeded random games (``bot.render.samples``), so the pictures only
change when the renderer, the engine or the seeds do.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.render import CARD, Size, render_hand, render_table
from bot.render.cards import card_image
from bot.render.samples import NAMES, hand_sample, table_sample
from bot.render.theme import BACKGROUND, encode_png
from games.base import HIDDEN
from games.cards import DISPLAY_SUIT_ORDER, RANKS, SUITS


def card_sheet(size: Size) -> bytes:
    """Every card of the 52-card pack (a row per suit, A down to 2) and the back."""
    m = CARD[size]
    gap = 6
    cols = len(RANKS) + 1
    im = Image.new("RGB", (gap + cols * (m.width + gap), gap + 4 * (m.height + gap)),
                   BACKGROUND)
    for row, s in enumerate(DISPLAY_SUIT_ORDER):
        for col, rank in enumerate(RANKS):
            face = card_image(rank + SUITS[s], size)
            im.paste(face, (gap + col * (m.width + gap), gap + row * (m.height + gap)), face)
    back = card_image(HIDDEN, size)
    im.paste(back, (gap + len(RANKS) * (m.width + gap), gap), back)
    return encode_png(im)


def pictures() -> dict[str, bytes]:
    at_hand, at_legal = hand_sample("arbaa_turub", seed=3)
    tb_hand, tb_legal = hand_sample("tarabish", seed=2)
    al_hand, _ = hand_sample("albastini", players=3, seed=4, played=0)
    return {
        "cards-large.png": card_sheet("large"),
        "cards-small.png": card_sheet("small"),
        "hand-arbaa-turub-grouped.png": render_hand(at_hand, at_legal, True),
        "hand-arbaa-turub-ungrouped.png": render_hand(at_hand, at_legal, False),
        "hand-tarabish.png": render_hand(tb_hand, tb_legal, False),
        "hand-albastini-not-to-act.png": render_hand(al_hand, None, False),
        "table-truf-4-hidden-trump.png": render_table(
            table_sample("truf", 4, 3, seed=1, hidden=True), NAMES[:4],
            "Deal 1 of 13 · bids 7 · 10 · 0 · 2 · play high"),
        "table-turup-4.png": render_table(
            table_sample("turup", 4, 2, seed=5), NAMES[:4], "Tricks A 0 – B 0 · first side to 5"),
        "table-albastini-2.png": render_table(
            table_sample("albastini", 2, 1, seed=2), NAMES[:2], "Card points: Amina 0 – Baraka 0"),
        "table-albastini-3.png": render_table(
            table_sample("albastini", 3, 2, seed=3), NAMES[:3],
            "Victory points: Amina 1 · Baraka 0 · Citra 2"),
        "table-albastini-5.png": render_table(
            table_sample("albastini", 5, 4, seed=5), NAMES[:5], "Victory points: all on 0"),
        "table-albastini-6.png": render_table(
            table_sample("albastini", 6, 5, seed=1), NAMES,
            "Points 0/3: 0 – 1/4: 0 – 2/5: 0"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "docs"
                                              / "gallery"))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name, png in pictures().items():
        (out / name).write_bytes(png)
        print(f"{name}: {len(png) / 1024:.1f} KB")


if __name__ == "__main__":
    main()

"""Picture speed and size: render time (p50/p95) and PNG size of hand and table pictures.

    python bench/render.py [--runs 200]

Each picture is rendered ``--runs`` times with the picture cache cleared before every run
(card faces stay drawn, as in a running bot); "first" is the very first render in the
process, which also draws the faces it needs; "cached" is a repeat with the same inputs.
Prints a markdown table. Budget per picture: 30 ms and 200 KB.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.render import clear_pictures, render_hand, render_table
from bot.render.samples import NAMES, hand_sample, table_sample


def cases() -> list[tuple[str, Callable[[], bytes]]]:
    at_hand, at_legal = hand_sample("arbaa_turub", seed=3)
    tb_hand, tb_legal = hand_sample("tarabish", seed=2)
    table4 = table_sample("truf", 4, 3, seed=1, hidden=True)
    table6 = table_sample("albastini", 6, 5, seed=1)
    return [
        (f"Arba'a Turub hand, {len(at_hand)} cards, grouped",
         lambda: render_hand(at_hand, at_legal, True)),
        (f"Tarabish hand, {len(tb_hand)} cards", lambda: render_hand(tb_hand, tb_legal, False)),
        ("4-seat table (Truf, a trump face down)",
         lambda: render_table(table4, NAMES[:4], "Deal 1 of 13 · all on 0")),
        ("6-seat Albastini table",
         lambda: render_table(table6, NAMES, "Points 0/3: 0 – 1/4: 0 – 2/5: 0")),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=200, help="renders per picture")
    args = parser.parse_args()
    rows = []
    for name, render in cases():
        t0 = time.perf_counter()
        png = render()
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        render()
        cached = time.perf_counter() - t0
        times = []
        for _ in range(args.runs):
            clear_pictures()
            t0 = time.perf_counter()
            render()
            times.append(time.perf_counter() - t0)
        q = statistics.quantiles(times, n=20)
        w, h = Image.open(io.BytesIO(png)).size
        rows.append((name, f"{w}×{h}", len(png) / 1024, q[9] * 1e3, q[18] * 1e3,
                     first * 1e3, cached * 1e6))
    print("| picture | pixels | PNG KB | p50 ms | p95 ms | first ms | cached µs |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, px, kb, p50, p95, first, cached in rows:
        print(f"| {name} | {px} | {kb:.1f} | {p50:.1f} | {p95:.1f} | {first:.1f} | "
              f"{cached:.0f} |")


if __name__ == "__main__":
    main()

"""``python -m bot.terminal.screenshot [GAME] [OUT.svg]``: the gallery's picture of the
card table, taken from the app itself (Textual's SVG screenshot) at 80×24.

It plays a fresh match of GAME (default Turup; seed 3, AI pace 0) in a temporary
database, playing the highlighted card, until the human has played a few tricks and is
to act again, then saves the screen. ``rsvg-convert`` or ``cairosvg``, when present, also
write a PNG beside it.
"""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bot.terminal.app import Notice, TableApp
from bot.terminal.config import PlayConfig

TURNS = 4
STEPS = 2000


async def shoot(game: str, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cfg = PlayConfig(game=game, seed=3, pace=0, forced_pause=0, name="Ann",
                         database=f"sqlite:///{Path(tmp) / 'shot.db'}")
        app = TableApp(cfg)
        async with app.run_test(size=(80, 24)) as pilot:
            turns = 0
            for _ in range(STEPS):
                await pilot.pause()
                if isinstance(app.screen, Notice):
                    await pilot.press("space")
                elif app.current is not None and not app.busy:
                    if turns == TURNS:
                        break
                    turns += 1
                    if app.current.cards:
                        await pilot.press("enter")
                    else:
                        app.query_one("#buttons").children[0].focus()
                        await pilot.press("enter")
            await pilot.pause()
            out.parent.mkdir(parents=True, exist_ok=True)
            app.save_screenshot(filename=out.name, path=str(out.parent))
            await pilot.press("ctrl+q")


def to_png(svg: Path) -> Path | None:
    png = svg.with_suffix(".png")
    if shutil.which("rsvg-convert"):
        subprocess.run(["rsvg-convert", "-o", str(png), str(svg)], check=True)
        return png
    try:
        import cairosvg  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    cairosvg.svg2png(url=str(svg), write_to=str(png))
    return png


def main(argv: list[str]) -> int:
    game = argv[0] if argv else "turup"
    out = Path(argv[1]) if len(argv) > 1 else Path("docs/gallery") / f"terminal-{game}.svg"
    asyncio.run(shoot(game, out))
    png = to_png(out)
    print(f"wrote {out}" + (f" and {png}" if png else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

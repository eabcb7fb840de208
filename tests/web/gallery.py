"""Screenshots of the web table for docs/gallery/: every game at 390×844 (a phone) and
1280×800, mid-deal at the human's turn, and one deal result with its review.

    python tests/web/gallery.py        # needs playwright (dev extra) and Debian's chromium
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import Page, async_playwright

from bot.service import Seat, TableService
from bot.web import links
from bot.web.server import WebServer
from bot.web.viewer import WebConfig
from games.registry import GAMES
from storage import TerminalLocation, open_store

OUT = Path(__file__).resolve().parents[2] / "docs" / "gallery"
SIZES = ((390, 844), (1280, 800))
NAMES = ("Amina", "Bilal", "Chausiku", "Dewi", "Ekon", "Farah")


async def _turns(page: Page, count: int) -> None:
    """Play ``count`` of the human's decisions (a card when one is playable)."""
    for _ in range(count):
        await page.wait_for_selector("#hand button:not([disabled]), #decisions button",
                                     timeout=20000)
        if await page.locator("#result").is_visible():
            return
        card = page.locator("#hand button:not([disabled])").first
        if await card.count():
            await card.click()
        else:
            await page.locator("#decisions button").first.click()
        await page.wait_for_timeout(250)


async def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite:///{tmp}/gallery.db")
        service = TableService(store)
        await service.start()
        config = WebConfig(secret=b"g" * 32)
        server = WebServer(service, config, port=0)
        await server.start()
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path="/usr/bin/chromium",
                                              args=["--no-sandbox"])
            for game, info in GAMES.items():
                n = info.player_counts[0]
                for width, height in SIZES:
                    seats: list[Seat | None] = [Seat.human(1, "Ann")] + [
                        Seat.ai("rules", NAMES[i]) for i in range(1, n)]
                    table = await service.create_table(
                        TerminalLocation(f"gallery:{game}:{width}"), game, seats=seats,
                        players=n, seed=7, ai_pace=0.05, turn_timeout=0, start=True)
                    key = links.issue(config.secret, table, 1, "seat", time.time())
                    page = await browser.new_page(viewport={"width": width,
                                                            "height": height})
                    await page.goto(f"{server.base_url}/#k={key}")
                    await _turns(page, 3)
                    await page.wait_for_selector(
                        "#hand button:not([disabled]), #decisions button", timeout=20000)
                    await page.wait_for_timeout(300)
                    await page.screenshot(path=str(OUT / f"web-{game}-{width}.png"))
                    if game == "turup" and width == 390:
                        await _turns(page, 40)
                        await page.wait_for_selector("#result", state="visible",
                                                     timeout=30000)
                        await page.locator("#reviewbutton").click()
                        await page.screenshot(path=str(OUT / "web-result-390.png"))
                    await page.close()
                    await service.abandon(table)
            await browser.close()
        await server.stop()
        await service.close()
        await store.close()
    print(f"screenshots in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())

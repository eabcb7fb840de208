"""Screenshots of the web table for docs/gallery/: every game at 390×844 (a phone) and
1280×800, mid-deal at the human's turn, one deal result with its review, and a club
duplicate board's reveal panel at both sizes.

    PYTHONPATH=tests/helpers python tests/web/gallery.py            # all
    PYTHONPATH=tests/helpers python tests/web/gallery.py games      # the games, the deal result
    PYTHONPATH=tests/helpers python tests/web/gallery.py duplicate  # the duplicate reveal

It needs playwright (dev extra) and Debian's chromium; its helpers are the tests' own
(``tests/helpers``, on the path pytest gives every test).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

from duplicate_stack import duplicate_stack
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, async_playwright
from table_play import play_humans

from bot.service import Seat, TableService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.web_duplicate import WebReveals
from games.registry import GAMES
from storage import ChannelLocation, TerminalLocation, open_store
from storage.models import Location

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


async def games() -> None:
    """Every game mid-deal at both sizes, and a Turup deal's result with its review."""
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


async def _play_board(page: Page) -> None:
    """Play the human's cards and decisions (never Concede) until the reveal shows."""
    end = time.monotonic() + 120
    while not await page.locator("#reveal").is_visible():
        if time.monotonic() > end:
            raise RuntimeError("the board did not end")
        for target in ("#hand button:not([disabled])", "#decisions button"):
            button = page.locator(target).filter(has_not_text="Concede").first
            if await button.count():
                with contextlib.suppress(PlaywrightError):
                    await button.click(timeout=1000)
                break
        else:
            await page.wait_for_timeout(40)


async def duplicate() -> None:
    """A club duplicate night's board 1 (Turup) at both sizes: Bilal plays it first
    through the duplicate service, then Ann from the page; her reveal panel shows both
    on the traveller, the hand record, the AI's result and the Review button."""
    start = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
    guild, secret = 9, b"g" * 32

    async def place(board: int) -> Location:
        return ChannelLocation(guild, 5001)

    with tempfile.TemporaryDirectory() as tmp:
        async with duplicate_stack(Path(tmp) / "dup.db", start + dt.timedelta(hours=1)) as s:
            server = WebServer(s.tables, WebConfig(secret=secret, reveals=WebReveals(s.dup)),
                               port=0)
            await server.start()
            async with async_playwright() as p:
                browser = await p.chromium.launch(executable_path="/usr/bin/chromium",
                                                  args=["--no-sandbox"])
                for width, height in SIZES:
                    event = await s.dup.create_event(
                        guild, 1, "Friday night", "turup", boards=1, opens_at=start,
                        closes_at=start + dt.timedelta(days=2), time_zone="Europe/Oslo",
                        created_by=1)
                    await s.dup.enter(event.id, guild, 200, "Bilal")
                    first = await s.dup.play(event.id, guild, 200, {200: "Bilal"}, place)
                    await play_humans(s.tables, first.table_id, [200])
                    await s.dup.enter(event.id, guild, 100, "Ann")
                    board = await s.dup.play(event.id, guild, 100, {100: "Ann"}, place)
                    key = links.issue(secret, board.table_id, 100, "seat", time.time())
                    page = await browser.new_page(viewport={"width": width,
                                                            "height": height})
                    await page.goto(f"{server.base_url}/#k={key}")
                    await page.wait_for_selector("#hand button", timeout=20000)
                    await _play_board(page)
                    await page.wait_for_timeout(300)
                    await page.screenshot(path=str(OUT / f"web-duplicate-reveal-{width}.png"))
                    await page.close()
                await browser.close()
            await server.stop()


async def main(which: list[str]) -> None:
    """The screenshots named in ``which`` (``games``, ``duplicate``; none: all)."""
    OUT.mkdir(parents=True, exist_ok=True)
    parts = {"games": games, "duplicate": duplicate}
    unknown = [name for name in which if name not in parts]
    if unknown:
        raise SystemExit(f"unknown part {unknown[0]!r}: choose from {', '.join(parts)}")
    for name in which or list(parts):
        await parts[name]()
    print(f"screenshots in {OUT}", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))

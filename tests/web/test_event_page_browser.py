"""A duplicate event's page in a real browser (Playwright driving Debian's chromium) at
phone size, after the close: its style loads under the page's policy (no console error),
nothing scrolls sideways, the ranking, the traveller and the score cards read as on
Discord, and the hand diagram puts North above South and West left of East."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from duplicate_stack import DuplicateStack, duplicate_stack
from table_play import play_humans
from web_stack import CHROMIUM, chromium

from bot.web.server import WebServer
from bot.web.viewer import WebConfig
from bot.web_events import PUBLIC, EventPages
from storage import ChannelLocation
from storage.models import Location

pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Debian chromium")

GUILD = 9
START = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
PHONE = {"width": 390, "height": 844}
SECRET = b"e" * 32


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[DuplicateStack, WebServer,
                                                       EventPages]]:
    async with duplicate_stack(tmp_path / "dupe.db", START + dt.timedelta(hours=1)) as s:
        config = WebConfig(secret=SECRET)
        server = WebServer(s.tables, config, port=0)
        pages = EventPages(s.dup)
        server.routes.append(pages.install)
        await server.start()
        try:
            yield s, server, pages
        finally:
            await server.stop()


async def test_the_closed_events_page_at_phone_size(
        stack: tuple[DuplicateStack, WebServer, EventPages]) -> None:
    s, server, pages = stack
    event = await s.dup.create_event(GUILD, 1, "Friday night", "turup", boards=1,
                                     opens_at=START, closes_at=START + dt.timedelta(days=2),
                                     time_zone="UTC", created_by=1)
    await s.dup.enter(event.id, GUILD, 100, "Ann")

    async def place(board: int) -> Location:
        return ChannelLocation(GUILD, 5001)

    start = await s.dup.play(event.id, GUILD, 100, {100: "Ann"}, place)
    await play_humans(s.tables, start.table_id, [100], pause=0.005, stale=(Exception,))
    entrant = await s.store.duplicate_entrant_of(event.id, 100)
    assert entrant is not None
    for _ in range(2000):
        play = await s.store.get_duplicate_play(entrant.id, 1)
        if play is not None and play.status == "finished":
            break
        await s.tables.settle()
    await s.dup.close(event.id, GUILD)
    async with chromium() as browser:
        page = await browser.new_page(viewport=PHONE)
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        await page.goto(pages.link(server, event.id, PUBLIC, "en"))
        await page.wait_for_selector("h1")
        assert await page.locator("h1").inner_text() == "Friday night"
        assert errors == []
        assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        body = await page.locator("body").inner_text()
        assert "Ranking" in body and "Score cards" in body and "Board 1" in body
        assert "Ann: " in body and "alone in its direction, 50.00%" in body
        grid = page.locator(".diagram").first
        assert await grid.evaluate("e => getComputedStyle(e).display") == "grid"
        north, south = page.locator(".hand.n").first, page.locator(".hand.s").first
        west, east = page.locator(".hand.w").first, page.locator(".hand.e").first
        n, s_, w, e = [await x.bounding_box() for x in (north, south, west, east)]
        assert n is not None and s_ is not None and w is not None and e is not None
        assert n["y"] + n["height"] <= s_["y"] and w["x"] + w["width"] <= e["x"]
        await page.close()

"""A duplicate board played from the page in a real browser (Playwright driving Debian's
chromium) at phone size: after the last card the page shows the board's reveal panel —
"Board 1", the traveller, the hand record, the AI's line — focused and said in the live
region; a reload after the end shows it again."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from duplicate_stack import duplicate_stack
from web_stack import CHROMIUM, Moving, chromium, version_of

from bot.duplicate.service import DuplicateService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.web_duplicate import WebReveals
from storage import ChannelLocation
from storage.models import Location

playwright = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Debian chromium")

GUILD = 9
START = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
PHONE = {"width": 390, "height": 844}
SECRET = b"d" * 32


@pytest.fixture
async def stack(tmp_path: Path) -> AsyncIterator[tuple[DuplicateService, WebServer]]:
    async with duplicate_stack(tmp_path / "dupb.db", START + dt.timedelta(hours=1)) as s:
        server = WebServer(s.tables, WebConfig(secret=SECRET, reveals=WebReveals(s.dup)),
                           port=0)
        await server.start()
        try:
            yield s.dup, server
        finally:
            await server.stop()


async def test_the_page_shows_the_board_after_the_last_card(
        stack: tuple[DuplicateService, WebServer]) -> None:
    dup, server = stack
    event = await dup.create_event(
        GUILD, 1, "Friday night", "turup", boards=1, opens_at=START,
        closes_at=START + dt.timedelta(days=2), time_zone="Europe/Oslo", created_by=1)
    await dup.enter(event.id, GUILD, 100, "Ann")

    async def place(board: int) -> Location:
        return ChannelLocation(GUILD, 5001)

    start = await dup.play(event.id, GUILD, 100, {100: "Ann"}, place)
    key = links.issue(SECRET, start.table_id, 100, "seat", time.time())
    async with chromium() as browser:
        page = await browser.new_page(viewport=PHONE)
        await page.goto(f"{server.base_url}/#k={key}")
        await page.wait_for_selector("#hand button", timeout=20000)
        reveal = page.locator("#reveal")
        moving = Moving(version_of(server.service, start.table_id))
        while not await reveal.is_visible():  # play every card and decision of the board
            moving.check("the board did not end")
            for target in ("#hand button:not([disabled])", "#decisions button"):
                button = page.locator(target).filter(has_not_text="Concede").first
                if await button.count():
                    with contextlib.suppress(playwright.Error):
                        await button.click(timeout=1000)
                    break
            else:
                await page.wait_for_timeout(40)
        assert await page.locator("#revealtitle").inner_text() == "Board 1"
        await page.wait_for_function(  # focused by the reveal's frame handler
            "() => document.activeElement && document.activeElement.id === 'revealtitle'",
            timeout=20000)
        traveller = await page.locator("#traveller li").all_inner_texts()
        assert traveller[0] == f"Direction {start.direction + 1}"
        assert traveller[1].strip().startswith("Ann: ")
        assert await page.locator("#handrecord li").count() == 4
        assert (await page.locator("#revealai").inner_text()).startswith("AI in your seat")
        log = await page.locator("[role=log]").inner_text()
        assert "Board 1" in log and "The hands as dealt:" in log
        await page.locator("#revealreviewbutton").click()
        await page.locator("#revealreview section").first.wait_for(timeout=20000)
        # A reload after the end: the table is closed, the reveal comes again.
        await page.reload()
        await page.locator("#reveal").wait_for(state="visible", timeout=20000)
        await page.locator("#traveller li").nth(len(traveller) - 1).wait_for(timeout=20000)
        assert await page.locator("#traveller li").count() == len(traveller)
        await page.close()

"""A duplicate event's page on the web (bot/web_events.py): a signed key opens it; before
the close a member's key shows only the boards its entrant finished (traveller so far, the
hands as dealt, the AI's result in its seat) and the public key nothing; after the close
every key shows the ranking, every traveller, every board's hands and every score card.
A scan of the HTML finds no board before it is finished; a forged, expired or table key
opens nothing; every text is escaped."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from duplicate_stack import DuplicateStack, duplicate_stack
from table_play import play_humans
from webtable import SECRET, Clock

from bot.web import links
from bot.web.server import create_app
from bot.web.viewer import WebConfig
from bot.web_events import PUBLIC, EventPages, EventPass, event_key, sign
from storage import ChannelLocation
from storage.models import Location

GUILD = 9
START = dt.datetime(2026, 11, 27, 20, 0, tzinfo=dt.UTC)
NAMES = {100: "Ann <b>&", 101: "Bo", 102: "Cy"}


class Night:
    def __init__(self, stack: DuplicateStack, client: TestClient[Any, Any],
                 pages: EventPages, clock: Clock) -> None:
        self.stack, self.client, self.pages, self.clock = stack, client, pages, clock
        self.places = 0

    async def place(self, board: int) -> Location:
        self.places += 1
        return ChannelLocation(GUILD, 5000 + self.places)

    async def get(self, key: str) -> tuple[int, str]:
        response = await self.client.get("/duplicate", params={"k": key})
        return response.status, await response.text()

    async def page(self, event: int, user: int) -> str:
        status, text = await self.get(event_key(SECRET, self.clock(), event, user, "en",
                                                3600))
        assert status == 200, text
        return text

    async def play_board(self, event: int, user: int) -> int:
        start = await self.stack.dup.play(event, GUILD, user, NAMES, self.place)
        table = start.table_id
        seated = [u for u in NAMES if self.stack.tables.seat_of(table, u) is not None]
        await play_humans(self.stack.tables, table, seated, pause=0.005, stale=(Exception,))
        entrant = await self.stack.store.duplicate_entrant_of(event, user)
        assert entrant is not None
        for _ in range(2000):
            play = await self.stack.store.get_duplicate_play(entrant.id, start.board)
            if play is not None and play.status == "finished":
                return start.board
            await self.stack.tables.settle()
        raise AssertionError("the board did not finish")


@pytest.fixture
async def night(tmp_path: Path) -> AsyncIterator[Night]:
    async with duplicate_stack(tmp_path / "dup.db", START + dt.timedelta(hours=1)) as s:
        clock = Clock()
        config = WebConfig(secret=SECRET, clock=clock)
        pages = EventPages(s.dup)
        client: TestClient[Any, Any] = TestClient(TestServer(create_app(
            s.tables, config, routes=[pages.install])))
        await client.start_server()
        try:
            yield Night(s, client, pages, clock)
        finally:
            await client.close()


def _hands_of(text: str) -> set[str]:
    """The hand labels shown on a page."""
    return set(re.findall(r"<b>(Direction \d+, [A-Za-z-]+(?:, dealer)?)</b>", text))


async def test_the_event_page_keeps_the_secrets_of_unfinished_boards(night: Night) -> None:
    dup = night.stack.dup
    event = await dup.create_event(GUILD, 1, "Friday <night>", "turup", boards=2,
                                   opens_at=START, closes_at=START + dt.timedelta(days=2),
                                   time_zone="UTC", created_by=1)
    await dup.enter(event.id, GUILD, 100, NAMES[100])
    await dup.enter(event.id, GUILD, 102, NAMES[102])
    assert await night.play_board(event.id, 100) == 1

    ann = await night.page(event.id, 100)
    assert "<h1>Friday &lt;night&gt;</h1>" in ann and "<night>" not in ann
    assert "Board 1" in ann and "Board 2" not in ann  # only the board Ann finished
    assert "Ann &lt;b&gt;&amp;: " in ann and "<b>&" not in ann.replace("<b>Direction", "")
    assert len(_hands_of(ann)) == 4 and "AI in your seat: net " in ann
    assert "Ranking" not in ann and "Score cards" not in ann
    cy = await night.page(event.id, 102)  # Cy finished nothing: sees nothing of board 1
    assert "Board 1" not in cy and not _hands_of(cy) and "matchpoints" not in cy
    public = await night.page(event.id, PUBLIC)
    assert "once the event is closed" in public and "Board" not in public

    assert await night.play_board(event.id, 102) == 1
    cy = await night.page(event.id, 102)
    assert "Board 1" in cy and "Board 2" not in cy

    await dup.close(event.id, GUILD)
    for user in (PUBLIC, 100, 102):
        page = await night.page(event.id, user)
        assert "Ranking" in page and "Score cards" in page
        assert "Board 1" in page and "Board 2" in page
        assert len(_hands_of(page)) == 4  # board 1's hands; board 2 nobody played
        assert "AI from Direction " in page
        assert page.count("<h3>Ann &lt;b&gt;&amp;</h3>") == 1


async def test_a_bad_key_opens_nothing(night: Night) -> None:
    dup = night.stack.dup
    event = await dup.create_event(GUILD, 1, "Night", "turup", boards=1, opens_at=START,
                                   closes_at=START + dt.timedelta(days=2), time_zone="UTC",
                                   created_by=1)
    good = event_key(SECRET, night.clock(), event.id, PUBLIC, "en", 60)
    status, _ = await night.get(good)
    assert status == 200
    forged = sign(b"x" * 32, EventPass(event.id, PUBLIC, "en", int(night.clock()) + 60))
    table_key = links.issue(SECRET, event.id, 100, "seat", night.clock())
    for key in (forged, table_key, good[:-2] + "AA", "", "a.b.c"):
        status, text = await night.get(key)
        assert status == 403 and "does not open an event page" in text, key
    night.clock.now += 61
    status, text = await night.get(good)
    assert status == 403 and "expired" in text
    response = await night.client.get("/duplicate", params={"k": good})
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    assert response.headers["Referrer-Policy"] == "no-referrer"

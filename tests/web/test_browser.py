"""The page in a real browser (Playwright driving Debian's chromium) at phone size: a whole
deal of every game played by its buttons, a spectator's page, a reload mid-deal (every
frame the page received scanned for another seat's cards), and the
stable interface (cards as buttons named ``K♠``/``Q♥ ×2``, legal ones enabled, a
``role=log`` live region, no horizontal scrolling)."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from web_stack import (
    CHROMIUM,
    Moving,
    chromium,
    focused_card,
    table_service,
    until,
    version_of,
)

from bot.service import Seat, TableService
from bot.web import links
from bot.web.config import WebConfig
from bot.web.server import WebServer
from bot.words.cards import card_text
from games.registry import GAMES
from storage import TerminalLocation

playwright = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Debian chromium")

HUMAN = 1
PHONE = {"width": 390, "height": 844}
CARD_NAME = re.compile(r"^(10|[2-9JQKA])[♠♥♦♣]( ×\d+)?(, .*)?$")


class Table:
    def __init__(self, service: TableService, server: WebServer, secret: bytes) -> None:
        self.service = service
        self.server = server
        self.secret = secret

    async def open(self, game: str, *, pace: float = 0) -> tuple[int, str]:
        n = GAMES[game].player_counts[0]
        seats: list[Seat | None] = [Seat.human(HUMAN, "Ann")] + [
            Seat.ai("random", name) for name in ("Bo", "Cy", "Di", "Ed", "Fa")[:n - 1]]
        table = await self.service.create_table(
            TerminalLocation(f"browser:{game}"), game, seats=seats, players=n, seed=11,
            ai_pace=pace,
            turn_timeout=0, start=True)
        return table, self.link(table, HUMAN, "seat")

    def link(self, table: int, user: int, role: links.Role) -> str:
        key = links.issue(self.secret, table, user, role, time.time())
        return f"{self.server.base_url}/#k={key}"


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Table]:
    async with table_service(tmp_path / "b.db") as service:
        config = WebConfig(secret=b"b" * 32)
        server = WebServer(service, config, port=0)
        await server.start()
        try:
            yield Table(service, server, config.secret)
        finally:
            await server.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as b:
        yield b


async def _step(page: Any) -> bool:
    """Make one decision if there is one: a playable card first, else a decision button
    (never Concede while a card is playable). ``False`` when the deal's result shows.
    With nothing to press it waits for the page to offer something (or the result)."""
    if await page.locator("#result").is_visible():
        return False
    for target in ("#hand button:not([disabled])", "#decisions button"):
        button = page.locator(target).first
        if await button.count():
            # redrawn meanwhile, or the result came up: look again
            with contextlib.suppress(playwright.Error):
                await button.click(timeout=1000)
            return True
    await page.locator("#hand button:not([disabled]), #decisions button, #result:visible"
                       ).first.wait_for(timeout=30000)
    return True


def hand_of(tables: Table, table: int) -> list[str]:
    """The human seat's hand as the server holds it."""
    return list(tables.service.view(table, 0)["hand"])


class Shown:
    """The versions of the table frames a page received (its socket's frames, read as
    the browser got them)."""

    def __init__(self, page: Any) -> None:
        self.versions: list[int] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: str | bytes) -> None:
        frame = json.loads(payload)
        if frame.get("type") == "table":
            self.versions.append(frame["version"])

    async def our_turn(self, tables: Table, table: int) -> int:
        """Wait until the server waits for the human seat and the page shows the table
        at the server's version (no click of the page still on its way, no frame still
        to come); returns that version."""
        def ready() -> int:
            info = tables.service.info(table)
            current = info.to_act == (0,) and self.versions[-1:] == [info.version]
            return info.version if current else 0
        return await until(ready, "the page showing the human's turn")


async def _check_interface(page: Any) -> None:
    names = await page.locator("#hand button").evaluate_all(
        "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert names and all(CARD_NAME.match(n) for n in names), names
    assert await page.locator("[role=log]").count() == 1
    wide = await page.evaluate("document.documentElement.scrollWidth")
    assert wide <= PHONE["width"], wide


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_deal_of_every_game_from_the_page(tables: Table, browser: Any,
                                                        game: str) -> None:
    table, url = await tables.open(game)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(url)
    await page.wait_for_selector("#hand button", timeout=20000)
    await _check_interface(page)
    moving = Moving(version_of(tables.service, table))
    while await _step(page):
        moving.check("the deal did not finish")
    assert await page.locator("#resulttitle").inner_text()
    log = await page.locator("[role=log]").inner_text()
    assert await page.locator("#resulttitle").inner_text() in log
    await page.locator("#reviewbutton").click()
    await page.locator("#review section").first.wait_for(timeout=20000)
    await page.close()


async def test_a_reload_mid_deal_resumes_the_seat(tables: Table, browser: Any) -> None:
    table, url = await tables.open("turup")
    page = await browser.new_page(viewport=PHONE)
    frames: list[str] = []

    def collect(payload: str | bytes) -> None:
        frames.append(payload if isinstance(payload, str) else payload.decode())

    page.on("websocket", lambda ws: ws.on("framereceived", collect))
    shown = Shown(page)
    await page.goto(url)
    for _ in range(3):
        await shown.our_turn(tables, table)  # not a button of a frame that has passed
        held = len(hand_of(tables, table))
        await page.locator("#hand button:not([disabled])").first.click()
        await until(lambda held=held: len(hand_of(tables, table)) == held - 1,
                    "the card played")
    before = hand_of(tables, table)
    shown.versions.clear()  # the reloaded page's own frames from here
    await page.reload()
    await shown.our_turn(tables, table)
    await page.locator("#hand button:not([disabled])").first.wait_for(timeout=20000)
    assert await page.locator("#hand button").count() == len(set(before))
    await page.locator("#hand button:not([disabled])").first.click()
    await until(lambda: len(hand_of(tables, table)) == len(before) - 1, "the card played")
    await page.close()
    # every frame the page received: no card another seat still holds
    text = "\n".join(frames)
    assert '"type":"table"' in text
    for seat in (1, 2, 3):
        for card in tables.service.view(table, seat)["hand"]:
            assert f'"{card}"' not in text, (seat, card)
            assert not re.search(re.escape(card_text(card)) + r"(?![0-9])", text), card


async def test_a_spectator_page_shows_the_table_without_a_hand(tables: Table,
                                                               browser: Any) -> None:
    table, _ = await tables.open("tarabish", pace=0.05)
    page = await browser.new_page(viewport=PHONE)
    await page.goto(tables.link(table, 500, "watch"))
    await page.wait_for_selector(".seat", timeout=20000)
    assert await page.locator("#hand button").count() == 0
    assert await page.locator(".seat").count() == 4
    assert "Ann" in await page.locator("#seats").inner_text()
    await page.close()


async def test_conceding_asks_first(tables: Table, browser: Any) -> None:
    table, url = await tables.open("tarabish")
    page = await browser.new_page(viewport=PHONE)
    shown = Shown(page)
    await page.goto(url)
    concede = page.locator("#decisions button", has_text="Concede")
    end = time.monotonic() + 60
    while not await concede.count():  # play until Concede is offered (the play phase)
        assert await _step(page) and time.monotonic() < end
    # The page's last click has landed and been shown: nothing is on its way.
    version = await shown.our_turn(tables, table)
    await concede.wait_for(timeout=20000)
    await concede.click()
    await page.locator("#confirm").wait_for(state="visible", timeout=20000)
    assert "opponents score" in await page.locator("#confirmtext").inner_text()
    await page.locator("#confirmno").click()
    await page.locator("#confirm").wait_for(state="hidden", timeout=20000)
    assert tables.service.info(table).version == version
    await concede.click()
    await page.locator("#confirmyes").click()
    await page.wait_for_selector("#result", state="visible", timeout=20000)
    await page.close()


async def test_keyboard_play(tables: Table, browser: Any) -> None:
    """Arrows move over the playable cards only, Enter plays the focused one."""
    table, url = await tables.open("arbaa_turub")
    page = await browser.new_page(viewport=PHONE)
    shown = Shown(page)
    await page.goto(url)
    playable = page.locator("#hand button:not([disabled])")
    await shown.our_turn(tables, table)  # the buttons of the turn, not of a passing frame
    await playable.first.focus()
    names = await playable.evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert len(names) > 2  # (seeded) several playable cards
    await page.keyboard.press("ArrowRight")
    await focused_card(page, names[1])
    await page.keyboard.press("ArrowLeft")
    await page.keyboard.press("ArrowLeft")
    await focused_card(page, names[-1])
    held = hand_of(tables, table)
    await page.keyboard.press("Enter")
    # the page's frame reaches the server later: wait for the card to leave the hand
    await until(lambda: len(hand_of(tables, table)) == len(held) - 1, "the card played")
    assert sorted(held) == sorted([*hand_of(tables, table), names[-1]])
    await page.close()


async def test_the_turn_sentence_says_tap_a_card_or_choose_below(tables: Table,
                                                                 browser: Any) -> None:
    """A turn with cards to pick says to tap a lit card; one with only decision buttons
    says to choose below — the web's own words, not the terminal's keyboard sentence.
    The server's real frames reach the page through Playwright's socket route, which also
    sends the page the same turn with its card choices taken out (a decision-only turn:
    here Tarabish's Concede, as in a bid or a trump call)."""
    _, url = await tables.open("tarabish")
    page = await browser.new_page(viewport=PHONE)
    decision_only: list[str] = []
    routes: list[Any] = []

    def route(page_side: Any) -> None:
        routes.append(page_side)
        server = page_side.connect_to_server()

        def from_server(message: str | bytes) -> None:
            page_side.send(message)
            frame = json.loads(message)
            if frame["type"] == "table" and frame["your_turn"] and not decision_only:
                frame["choices"] = [c for c in frame["choices"] if c["card"] is None]
                decision_only.append(json.dumps(frame))

        server.on_message(from_server)

    await page.route_web_socket(re.compile(r".*/ws$"), route)
    await page.goto(url)
    turn = page.locator("#turn")
    await page.wait_for_selector("#hand button:not([disabled])", timeout=20000)
    assert await turn.inner_text() == "Your turn: tap a lit card."
    assert "Concede" in json.loads(decision_only[0])["choices"][0]["label"]
    routes[0].send(decision_only[0])  # as if from the server
    await page.wait_for_selector("#hand button:not([disabled])", state="detached",
                                 timeout=20000)
    assert await page.locator("#decisions button").count() == 1
    assert await turn.inner_text() == "Your turn: choose below."
    await page.close()


async def test_reconnects_back_off_until_the_server_says_hello(browser: Any) -> None:
    """A server that accepts the socket and closes it at once (no ``hello``) is retried
    after 0.5 s, then 1 s, then 2 s: the wait resets only when a ``hello`` arrives, never
    on the socket's opening alone (which gave a reconnect loop every 0.5 s)."""
    from aiohttp import web

    from bot.web.server import STATIC

    opened: list[float] = []

    async def socket(request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        opened.append(time.monotonic())
        await ws.close()
        return ws

    async def index(request: web.Request) -> web.FileResponse:
        return web.FileResponse(STATIC / "index.html")

    app = web.Application()
    app.router.add_get("/", index)
    app.router.add_get("/ws", socket)
    app.router.add_static("/assets/", STATIC / "assets")
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    try:
        page = await browser.new_page(viewport=PHONE)
        await page.goto(f"http://127.0.0.1:{port}/#k=x")
        end = time.monotonic() + 60
        while len(opened) < 4:  # the page's own timers pace this wait
            assert time.monotonic() < end, opened
            await page.wait_for_timeout(50)
        gaps = [b - a for a, b in itertools.pairwise(opened)]
        # lower bounds only (a timer never fires early; load only makes gaps longer)
        assert gaps[0] >= 0.45 and gaps[1] >= 0.95 and gaps[2] >= 1.95, gaps
        await page.close()
    finally:
        await runner.cleanup()

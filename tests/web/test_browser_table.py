"""The page as a card table in a real browser (Playwright driving Debian's chromium), for
every game: a whole deal by touch at 390×844 and a whole deal by keyboard alone at
1280×800, with axe-core run at the start, mid-deal and at the result (no serious or
critical violation); then the cases a player meets: a reload (the log and the score
sheet come back, the key is out of the address bar), the server going down (said, and a
tap answered), a restart (said, then the old page refused without "Your turn"), an
address without its key, settings kept, the help panel, why a card is not playable, and
the first load's weight. Every wait is for a condition of the page."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from web_stack import CHROMIUM, chromium, table_service

from bot.service import Seat, TableService
from bot.web import links
from bot.web.server import WebServer
from bot.web.viewer import WebConfig
from games.registry import GAMES
from storage import TerminalLocation

playwright = pytest.importorskip("playwright.async_api")
pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="no Debian chromium")

HUMAN = 1
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
LIT = "#hand button:not([disabled])"
DECISION = "#decisions button:not(:text('Concede'))"
WAIT = 30000
"""The longest wait (ms) for any condition: only reached when the page is wrong."""

# What the page shows, read in one go: any change means a frame was drawn (the hand's
# markup whole: in Albastini a drawn card takes the played one's place).
SNAPSHOT = """() => [document.querySelector('#hand').innerHTML,
  document.querySelector('#decisions').textContent, document.querySelector('#turn').textContent,
  document.querySelector('#refusal').textContent,
  document.querySelector('#result').hidden].join('|')"""


class Tables:
    def __init__(self, service: TableService, server: WebServer, secret: bytes) -> None:
        self.service = service
        self.server = server
        self.secret = secret

    async def open(self, game: str, *, pace: float = 0, dealer: int = 1) -> tuple[int, str]:
        n = GAMES[game].player_counts[0]
        seats: list[Seat | None] = [Seat.human(HUMAN, "Ann")] + [
            Seat.ai("random", name) for name in ("Bo", "Cy", "Di", "Ed", "Fa")[:n - 1]]
        table = await self.service.create_table(
            TerminalLocation(f"table:{game}:{time.monotonic()}"), game, seats=seats,
            players=n, seed=5, ai_pace=pace, turn_timeout=0, start=True)
        return table, self.link(table)

    def link(self, table: int, user: int = HUMAN, role: links.Role = "seat") -> str:
        key = links.issue(self.secret, table, user, role, time.time())
        return f"{self.server.base_url}/#k={key}"


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[Tables]:
    async with table_service(tmp_path / "t.db") as service:
        config = WebConfig(secret=b"t" * 32)
        server = WebServer(service, config, port=0)
        await server.start()
        try:
            yield Tables(service, server, config.secret)
        finally:
            await server.stop()


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with chromium() as b:
        yield b


async def _page(browser: Any, size: dict[str, Any], **extra: Any) -> Any:
    # bypass_csp: axe-core is injected as an inline script, which the page's policy forbids
    context = await browser.new_context(bypass_csp=True, **size, **extra)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


async def _axe(page: Any, moment: str) -> None:
    """axe-core on the page as it is: no serious or critical violation."""
    if not await page.evaluate("typeof axe !== 'undefined'"):
        await page.add_script_tag(content=AXE.read_text())
    result = await page.evaluate(
        "axe.run(document, {resultTypes: ['violations']}).then(r => r.violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target)})))")
    bad = [v for v in result if v["impact"] in ("serious", "critical")]
    assert not bad, (moment, bad)


async def _changed(page: Any, before: str) -> None:
    await page.wait_for_function(f"b => ({SNAPSHOT})() !== b", arg=before, timeout=WAIT)


async def _your_move(page: Any) -> str:
    """Wait until the viewer may act (a lit card or a decision) or the result shows;
    ``card``, ``decision`` or ``result``."""
    await page.wait_for_function(
        """() => !document.querySelector('#result').hidden
             || document.querySelector('#hand button:not([disabled])')
             || [...document.querySelectorAll('#decisions button')]
                  .some(b => !b.textContent.includes('Concede'))""", timeout=WAIT)
    if await page.locator("#result").is_visible():
        return "result"
    return "card" if await page.locator(LIT).count() else "decision"


async def _tap_move(page: Any) -> bool:
    """One decision by touch: a lit card, else a decision button (never Concede)."""
    what = await _your_move(page)
    if what == "result":
        return False
    before = await page.evaluate(f"({SNAPSHOT})()")
    await page.locator(LIT if what == "card" else DECISION).first.tap()
    await _changed(page, before)
    return True


async def _key_move(page: Any) -> bool:
    """One decision by keyboard: Tab (or Shift+Tab back from the hand) to a lit card or a
    decision button, then Enter."""
    what = await _your_move(page)
    if what == "result":
        return False
    for _ in range(40):
        on_target = await page.evaluate(
            """what => { const a = document.activeElement;
              return what === 'card' ? a.matches('#hand button:not([disabled])')
                : a.matches('#decisions button') && !a.textContent.includes('Concede'); }""",
            what)
        if on_target:
            break
        in_hand = await page.evaluate(
            "document.querySelector('#hand').contains(document.activeElement)")
        await page.keyboard.press("Shift+Tab" if what == "decision" and in_hand else "Tab")
    else:
        raise AssertionError(f"the keyboard never reached a {what}")
    before = await page.evaluate(f"({SNAPSHOT})()")
    await page.keyboard.press("Enter")
    await _changed(page, before)
    return True


async def _a_whole_deal(page: Any, move: Any) -> int:
    """Play until the deal's result shows, axe at the start, mid-deal and the result;
    the number of decisions made."""
    await _axe(page, "start")
    made = 0
    while await move(page):
        made += 1
        if made == 2:
            await _axe(page, "mid-deal")
    await page.wait_for_selector("#result", state="visible", timeout=WAIT)
    await _axe(page, "result")
    return made


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_deal_by_touch_on_a_phone(tables: Tables, browser: Any,
                                                game: str) -> None:
    _, url = await tables.open(game)
    page = await _page(browser, PHONE)
    await page.goto(url)
    await page.wait_for_selector("#hand button", timeout=WAIT)
    assert await page.evaluate("location.hash") == ""  # the key left the address bar
    assert re.fullmatch(r"Deal 1, dealt by (you|Bo|Cy|Di|Ed|Fa)",
                        await page.locator("#dealline").inner_text())
    names = await page.locator("#seats li").all_inner_texts()
    assert len(names) == GAMES[game].player_counts[0] and "Ann" in names[0]
    assert await _a_whole_deal(page, _tap_move) > 0
    assert await page.locator("#resulthands .dhand").count() == len(names)
    assert await page.locator("#resulthands .d-bottom .dname").inner_text() == "you"
    live = await page.locator("#announce").inner_text()
    assert await page.locator("#resulttitle").inner_text() in live
    assert await page.locator("#sheetbody tbody tr").count() == 1
    if game == "albastini":  # others' draws: face-down cards drawn as card backs, named
        back = page.locator("#log .backglyph").first
        assert await back.get_attribute("aria-label") == "a face-down card"
    wide = await page.evaluate("document.documentElement.scrollWidth")
    assert wide <= 390, wide
    assert not page.errors
    await page.context.close()


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_deal_by_keyboard_on_a_desktop(tables: Tables, browser: Any,
                                                     game: str) -> None:
    _, url = await tables.open(game)
    page = await _page(browser, DESKTOP)
    await page.goto(url)
    await page.wait_for_selector("#hand button", timeout=WAIT)
    assert await _a_whole_deal(page, _key_move) > 0
    # side by side: the log and the sheet beside the table, above the fold
    side = await page.locator("#side").bounding_box()
    table = await page.locator("#table").bounding_box()
    assert side["x"] > table["x"] + table["width"] - 1 and side["y"] < 800
    assert not page.errors
    await page.context.close()


async def test_focus_stays_in_the_hand_and_your_turn_is_announced(tables: Tables,
                                                                   browser: Any) -> None:
    _, url = await tables.open("arbaa_turub")
    page = await _page(browser, PHONE)
    await page.goto(url)
    await page.locator(LIT).first.wait_for(timeout=WAIT)
    await playwright.expect(page.locator("#announce")).to_contain_text("Your turn")
    assert (await page.title()).startswith("● Your turn")
    await page.locator(LIT).first.focus()
    before = await page.evaluate(f"({SNAPSHOT})()")
    await page.keyboard.press("Enter")
    await _changed(page, before)
    # focus stays in the hand (a lit card, or the hand itself until the next turn)
    await page.wait_for_function(
        "document.querySelector('#hand').contains(document.activeElement)", timeout=WAIT)
    # the led card is marked; a completed trick is held with its winner marked
    await page.wait_for_selector("#trick .tcard.led", timeout=WAIT)
    while not await page.locator("#trick .tcard.winner").count():
        assert await _key_move(page)
    assert await page.locator("#trickline.held").inner_text()
    await page.context.close()


async def test_a_reload_brings_back_the_log_and_the_sheet(tables: Tables,
                                                          browser: Any) -> None:
    _, url = await tables.open("turup")
    page = await _page(browser, PHONE)
    await page.goto(url)
    for _ in range(3):
        assert await _tap_move(page)
    await _your_move(page)
    log = await page.locator("#log p").all_inner_texts()
    assert log
    await page.reload()  # the address has no key now: the tab's copy joins
    await page.wait_for_selector(LIT, timeout=WAIT)
    await playwright.expect(page.locator("#log p")).to_have_count(len(log))
    assert await page.locator("#log p").all_inner_texts() == log
    assert await page.locator("#log").get_attribute("tabindex") == "0"
    await page.context.close()


async def test_the_server_going_down_is_said_and_a_tap_is_answered(tables: Tables,
                                                                    browser: Any) -> None:
    _, url = await tables.open("tarabish")
    page = await _page(browser, PHONE)
    await page.goto(url)
    await page.locator(f"{LIT}, {DECISION}").first.wait_for(timeout=WAIT)
    await tables.server.stop()  # sockets closed with 1012
    link = page.locator("#link")
    await playwright.expect(link).to_have_text("The server is restarting: reconnecting…")
    assert await link.get_attribute("role") == "status"
    await page.locator(f"{LIT}, {DECISION}").first.tap()
    await playwright.expect(page.locator("#refusal")).to_have_text(
        "Not connected: nothing was sent. Play again once the table is back.")
    await page.context.close()


async def test_after_a_restart_the_old_page_is_refused_without_your_turn(
        tables: Tables, browser: Any) -> None:
    """``--web --resume`` gives a new key: the page left open reconnects, is refused, and
    shows the refusal alone (no "Your turn", nothing lit, the title unmarked)."""
    _, url = await tables.open("arbaa_turub")
    page = await _page(browser, PHONE)
    await page.goto(url)
    await page.locator(LIT).first.wait_for(timeout=WAIT)
    port = tables.server.port
    await tables.server.stop()
    await playwright.expect(page.locator("#link")).to_have_text(
        "The server is restarting: reconnecting…")
    again = WebServer(tables.service, WebConfig(secret=b"n" * 32), port=port)
    await again.start()
    try:
        refusal = page.locator("#refusal")
        await playwright.expect(refusal).not_to_be_empty(timeout=WAIT)
        assert await page.locator("#turn").inner_text() == ""
        assert await page.locator(LIT).count() == 0
        assert await page.locator("#link").is_hidden()
        assert not (await page.title()).startswith("●")
        await page.reload()  # the refused key is forgotten: the page asks for an address
        await playwright.expect(refusal).to_contain_text("#k=")
    finally:
        await again.stop()
    await page.context.close()


async def test_an_address_without_its_key_says_so_in_the_browsers_language(
        tables: Tables, browser: Any) -> None:
    page = await _page(browser, PHONE, locale="sw-TZ")
    await page.goto(tables.server.base_url + "/")
    await playwright.expect(page.locator("#refusal")).to_contain_text("#k=")
    assert (await page.locator("#refusal").inner_text()).startswith("Anwani hii")
    assert await page.evaluate("document.documentElement.lang") == "sw"
    await page.context.close()


async def test_settings_are_kept_and_the_help_panel_opens(tables: Tables,
                                                          browser: Any) -> None:
    _, url = await tables.open("truf")
    page = await _page(browser, DESKTOP)
    await page.goto(url)
    await page.locator(f"{LIT}, {DECISION}").first.wait_for(timeout=WAIT)
    await page.locator("#settingsbutton").click()
    dialog = page.locator("#settings")
    await dialog.get_by_label("Card size").select_option("large")
    await dialog.get_by_label("Four-colour deck").check()
    await dialog.get_by_label("Animation").select_option("off")
    await page.keyboard.press("Escape")
    await playwright.expect(dialog).to_be_hidden()
    await page.reload()
    await page.locator("#hand button").first.wait_for(timeout=WAIT)
    classes = await page.evaluate("document.documentElement.className")
    assert "cards-large" in classes and "four" in classes
    stored = json.loads(await page.evaluate("localStorage.getItem('tricktable.settings')"))
    assert stored["speed"] == "off"
    await page.locator("#helpbutton").click()
    await playwright.expect(page.locator("#help")).to_be_visible()
    assert await page.locator("#helpbody h3").count() >= 1
    await _axe(page, "help")
    await page.context.close()


async def test_truf_bids_show_their_worth_and_an_unlit_card_says_why(tables: Tables,
                                                                     browser: Any) -> None:
    _, url = await tables.open("truf")
    page = await _page(browser, PHONE)
    await page.goto(url)
    await page.locator(LIT).first.wait_for(timeout=WAIT)
    captions = await page.locator("#hand .caption").all_inner_texts()
    assert captions and all(re.fullmatch(r"worth \d+", c) for c in captions), captions
    assert "bid" in (await page.locator("#turn").inner_text()).lower()
    while await _tap_move(page):  # into the play, until a card is not playable
        if await page.locator("#hand button:disabled").count() and await page.locator(
                LIT).count() and not await page.locator("#hand .caption").count():
            break
    unlit = page.locator("#hand button:disabled").first
    await unlit.tap(force=True)  # a card that is not lit takes no click: its row does
    await playwright.expect(page.locator("#refusal")).not_to_be_empty()
    await page.context.close()


async def test_the_first_load_is_compressed_and_light(tables: Tables, browser: Any) -> None:
    _, url = await tables.open("turup")
    page = await _page(browser, PHONE)
    encodings: dict[str, str | None] = {}

    async def seen(response: Any) -> None:
        encodings[response.url.rsplit("/", 1)[-1]] = await response.header_value(
            "content-encoding")

    page.on("response", seen)
    await page.goto(url)
    await page.wait_for_selector("#hand button", timeout=WAIT)
    sent = await page.evaluate(
        "performance.getEntriesByType('navigation').concat("
        "performance.getEntriesByType('resource')).reduce((n, e) => n + e.transferSize, 0)")
    assert sent <= 40_000, sent
    # Chromium offers br only over https: over http (localhost) gzip is the best it takes
    assert encodings.get("app.js") in ("br", "gzip"), encodings
    assert encodings.get("style.css") == encodings.get("app.js"), encodings
    await page.context.close()


async def test_your_turn_vibrates_when_chosen_and_a_deadline_shows_a_timer(
        tables: Tables, browser: Any) -> None:
    """With vibration chosen (kept in the browser), the page vibrates when the turn comes
    (the Vibration API, recorded here); a table with a turn timeout shows the seconds left;
    a spectator is counted on the seat's page."""
    n = GAMES["turup"].player_counts[0]
    seats: list[Seat | None] = [Seat.human(HUMAN, "Ann")] + [
        Seat.ai("random", name) for name in ("Bo", "Cy", "Di")[:n - 1]]
    table = await tables.service.create_table(
        TerminalLocation("table:timer"), "turup", seats=seats, players=n, seed=5, ai_pace=0,
        turn_timeout=120, start=True)
    page = await _page(browser, PHONE)
    await page.add_init_script("""
        localStorage.setItem('tricktable.settings', JSON.stringify({vibrate: true}));
        window.buzzes = [];
        navigator.vibrate = (pattern) => { window.buzzes.push(pattern); return true; };""")
    await page.goto(tables.link(table))
    await page.wait_for_function("window.buzzes.length > 0", timeout=WAIT)
    await playwright.expect(page.locator("#timertext")).to_have_text(re.compile(r"^\d+ s left$"))
    watcher = await _page(browser, DESKTOP)
    await watcher.goto(tables.link(table, 500, "watch"))
    await playwright.expect(page.locator("#watching")).not_to_be_empty()
    await watcher.context.close()
    await page.context.close()


async def test_play_again_is_offered_at_the_end_of_a_local_match(tables: Tables,
                                                                 browser: Any) -> None:
    """A ``match_over`` frame with ``again`` (local play) shows **Play again**, which
    sends ``again``; without it the sheet only closes. The server's frames reach the page
    through Playwright's socket route, which also delivers the match's end."""
    _, url = await tables.open("tarabish")
    page = await _page(browser, PHONE)
    routes: list[Any] = []
    sent: list[dict[str, Any]] = []

    def route(page_side: Any) -> None:
        routes.append(page_side)
        server = page_side.connect_to_server()
        server.on_message(page_side.send)

        def from_page(message: str | bytes) -> None:
            sent.append(json.loads(message))
            server.send(message)

        page_side.on_message(from_page)

    await page.route_web_socket(re.compile(r".*/ws$"), route)
    await page.goto(url)
    await page.locator(f"{LIT}, {DECISION}").first.wait_for(timeout=WAIT)
    routes[0].send(json.dumps({"v": 1, "type": "match_over", "title": "Match over",
                               "lines": ["You won the match."], "again": "Play again"}))
    again = page.locator("#againbutton")
    await playwright.expect(again).to_have_text("Play again")
    assert await page.locator("#closebutton").inner_text() == "Close"
    assert await page.locator("#turn").inner_text() == ""
    await again.tap()
    await playwright.expect(page.locator("#result")).to_be_hidden()
    assert {"v": 1, "type": "again"} in sent
    await page.context.close()


async def test_nothing_moves_with_prefers_reduced_motion(tables: Tables, browser: Any) -> None:
    """Cards move (a play, a trick gathered: ``Element.animate`` counted) unless the
    browser prefers reduced motion; then nothing moves, and a completed trick still shows
    its winner before it goes."""
    counted = """window.animated = 0;
        const animate = Element.prototype.animate;
        Element.prototype.animate = function (...args) {
          window.animated += 1; return animate.apply(this, args); };"""
    moved = {}
    for motion in ("no-preference", "reduce"):
        _, url = await tables.open("arbaa_turub")
        page = await _page(browser, PHONE, reduced_motion=motion)
        await page.add_init_script(counted)
        await page.goto(url)
        while not await page.locator("#trick .tcard.winner").count():
            assert await _tap_move(page)
        moved[motion] = await page.evaluate("window.animated")
        await page.context.close()
    assert moved["no-preference"] > 0 and moved["reduce"] == 0, moved

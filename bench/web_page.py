"""Benchmark of the web page's first load: how long until the first hand is visible, and
what travels, on localhost with Chromium's CPU slowed down (a phone's CPU).

    python bench/web_page.py [--runs 10] [--throttle 4] [--game turup]

Serves a ``--game`` table (one human seat, AI players) from the real application
(:mod:`bot.web.server`) on a local port, then ``--runs`` times opens its link in a fresh
Chromium context (Debian's ``/usr/bin/chromium`` through Playwright; nothing cached) at
390×844 with the CPU throttled ``--throttle`` times (DevTools' ``Emulation.
setCPUThrottlingRate``, as Lighthouse's mobile runs do) and measures, in the page's clock
from the navigation's start: the HTML received, the load event, and the first hand painted
(the page's own User Timing marks: socket open, hello and table frame received, table
drawn, then painted, two animation frames later), and when Playwright saw the first card
visible (its polling adds its own delay). Also the bytes
transferred at first load (HTML, script, style sheet: ``transferSize``, headers included)
and the encoding the server chose. Prints a markdown table (median, p95 and worst of the
runs) and the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.service import Seat, TableService
from bot.web import links
from bot.web.server import WebServer
from bot.web.viewer import WebConfig
from games.registry import GAMES
from storage import TerminalLocation, open_store

CHROMIUM = "/usr/bin/chromium"

MEASURE = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const all = [nav, ...performance.getEntriesByType('resource')];
  const at = (name) => (performance.getEntriesByName(name)[0] || {startTime: NaN}).startTime;
  return {html: nav.responseEnd, load: nav.loadEventEnd, hand: performance.now(),
          open: at('socket:open'), hello: at('frame:hello'), table: at('frame:table'),
          drawn: at('drawn:table'), painted: at('painted:table'),
          bytes: all.reduce((n, e) => n + e.transferSize, 0),
          files: all.map(e => e.name.split('#')[0].split('/').pop() || 'index.html')};
}"""


async def one_load(browser: Any, url: str, throttle: float) -> dict[str, Any]:
    context = await browser.new_context(viewport={"width": 390, "height": 844},
                                        has_touch=True, is_mobile=True)
    page = await context.new_page()
    encodings: dict[str, str] = {}
    page.on("response", lambda r: encodings.__setitem__(
        r.url.split("#")[0].rsplit("/", 1)[-1] or "index.html",
        r.headers.get("content-encoding", "none")))
    cdp = await context.new_cdp_session(page)
    await cdp.send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    await page.goto(url)
    await page.locator("#hand button").first.wait_for(state="visible", timeout=60000)
    figures: dict[str, Any] = await page.evaluate(MEASURE)
    figures["encodings"] = encodings
    await context.close()
    return figures


async def main(runs: int, throttle: float, game: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite:///{tmp}/bench.db")
        service = TableService(store)
        await service.start()
        config = WebConfig(secret=os.urandom(32))
        server = WebServer(service, config, port=0)
        await server.start()
        n = GAMES[game].player_counts[0]
        seats: list[Seat | None] = [Seat.human(1, "Ann")]
        seats += [Seat.ai("rules", f"AI {i}") for i in range(1, n)]
        table = await service.create_table(TerminalLocation("bench:page"), game, seats=seats,
                                           players=n, seed=1, ai_pace=0, turn_timeout=0,
                                           start=True)
        url = f"{server.base_url}/#k={links.issue(config.secret, table, 1, 'seat', time.time())}"
        from playwright.async_api import async_playwright

        results: list[dict[str, Any]] = []
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            for _ in range(runs):
                results.append(await one_load(browser, url, throttle))
            await browser.close()
        await server.stop()
        await service.close()
        await store.close()

    def row(name: str, values: list[float], unit: str = "ms") -> str:
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        return (f"| {name} | {statistics.median(values):,.0f} {unit} | {p95:,.0f} {unit} | "
                f"{max(values):,.0f} {unit} |")

    print(f"{runs} cold loads of a {game} table at 390×844, CPU throttled {throttle:g}×")
    print("| measure | median | p95 | worst |\n|---|---|---|---|")
    print(row("HTML received", [r["html"] for r in results]))
    print(row("load event", [r["load"] for r in results]))
    print(row("socket open", [r["open"] for r in results]))
    print(row("hello received", [r["hello"] for r in results]))
    print(row("table frame received", [r["table"] for r in results]))
    print(row("table drawn", [r["drawn"] for r in results]))
    print(row("**first hand painted**", [r["painted"] for r in results]))
    print(row("seen by Playwright", [r["hand"] for r in results]))
    print(row("bytes transferred", [float(r["bytes"]) for r in results], "B"))
    print(f"files: {', '.join(results[0]['files'])}; encodings: {results[0]['encodings']}")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--throttle", type=float, default=4.0)
    parser.add_argument("--game", default="turup", choices=list(GAMES))
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.throttle, args.game))

"""What the web tests stand on: a started table service on a fresh SQLite file,
Debian's Chromium driven by Playwright, and waiting for what a test asserts (a click in
the page reaches the server through a socket, later: a test waits for its effect, never
for time or for a settle of the service, which cannot see the browser)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

from bot.service import TableService
from storage import open_store

T = TypeVar("T")

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium (the browser tests skip when it is missing)."""


@asynccontextmanager
async def table_service(db: Path) -> AsyncIterator[TableService]:
    """A started table service on a new SQLite store at ``db``; closed (service, then
    store) on leaving."""
    store = await open_store(f"sqlite:///{db}")
    service = TableService(store)
    await service.start()
    try:
        yield service
    finally:
        await service.close()
        await store.close()


@asynccontextmanager
async def chromium() -> AsyncIterator[Any]:
    """A headless :data:`CHROMIUM` launched through Playwright; closed on leaving."""
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            await browser.close()


async def until(check: Callable[[], T], what: str, timeout: float = 30.0) -> T:
    """``check()``'s value once it is truthy (polled on the event loop, so the server's
    work goes on meanwhile); fails saying ``what`` after ``timeout`` seconds (a liveness
    bound, not a speed assertion)."""
    try:
        async with asyncio.timeout(timeout):
            while not (value := check()):
                await asyncio.sleep(0.01)
    except TimeoutError:
        raise AssertionError(f"never happened: {what}") from None
    return value


async def focused_card(page: Any, card: str) -> None:
    """Wait until the page's focused element is the hand's button of ``card``."""
    await page.wait_for_function(
        "card => document.activeElement && document.activeElement.dataset.card === card",
        arg=card, timeout=20000)


class Moving:
    """The liveness bound of a long drive (a whole deal played from a page): it fails only
    when ``version()`` (the table's version) has not changed for ``still`` seconds — on a
    busy machine a deal takes longer, but a deal that moves is not stuck."""

    def __init__(self, version: Callable[[], object], still: float = 60.0) -> None:
        self._version = version
        self._still = still
        self._last: object = version()
        self._moved = time.monotonic()

    def check(self, what: str) -> None:
        """Fail with ``what`` when the version has stood still too long."""
        now, version = time.monotonic(), self._version()
        if version != self._last:
            self._last, self._moved = version, now
        assert now - self._moved < self._still, f"{what} (no move for {self._still:.0f} s)"


def version_of(service: TableService, table: int) -> Callable[[], object]:
    """The table's version now (None once the service no longer holds it)."""
    def version() -> object:
        return service.info(table).version if service.holds(table) else None
    return version

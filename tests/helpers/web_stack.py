"""What the web tests stand on: a started table service on a fresh SQLite file, and
Debian's Chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from bot.service import TableService
from storage import open_store

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

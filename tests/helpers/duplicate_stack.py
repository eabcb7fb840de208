"""What the duplicate tests stand on: a store, a started table service and a duplicate
service whose runner is going, all on one fake clock, with AI seats that play at once."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.duplicate.service import DuplicateService
from bot.service import FakeClock, TableService
from storage import Store, open_store, upgrade


@dataclass(frozen=True)
class DuplicateStack:
    """The running parts of a duplicate night."""

    store: Store
    tables: TableService
    dup: DuplicateService
    clock: FakeClock


@asynccontextmanager
async def duplicate_services(url: str, clock: FakeClock) -> AsyncIterator[DuplicateStack]:
    """The store at ``url`` (already upgraded), a started table service and a duplicate
    service (random AI, no pace) running with a 0.02 s poll, both on ``clock``. On leaving,
    in this order: the runner is cancelled and awaited (whatever it ended with is
    swallowed), the table service closed, the store closed."""
    store = await open_store(url)
    try:
        tables = TableService(store, clock=clock)
        await tables.start()
        try:
            dup = DuplicateService(store, tables, clock=clock, ai_level="random", ai_pace=0)
            runner = asyncio.create_task(dup.run(poll_seconds=0.02))
            try:
                yield DuplicateStack(store, tables, dup, clock)
            finally:
                runner.cancel()
                await asyncio.gather(runner, return_exceptions=True)
        finally:
            await tables.close()
    finally:
        await store.close()


@asynccontextmanager
async def duplicate_stack(db: Path, now: dt.datetime) -> AsyncIterator[DuplicateStack]:
    """:func:`duplicate_services` on a new SQLite file ``db``, upgraded first, with a
    :class:`FakeClock` reading ``now``."""
    url = f"sqlite:///{db}"
    await upgrade(url)
    async with duplicate_services(url, FakeClock(now)) as stack:
        yield stack

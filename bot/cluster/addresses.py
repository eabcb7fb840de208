"""Where each shard's owner serves the web table: the registry of internal addresses.

A process that serves the web table and runs some shards records, for each of its
shards, the address the other processes reach its web server at (``TRICKTABLE_WEB_INTERNAL_URL``,
e.g. ``http://10.0.0.7:8765``; :mod:`storage.web_addresses`). It writes them once it
listens, and again whenever it holds its shards' locks while the registry names another
address for one of them (it took the locks back, or a process that lost them wrote last):
the registry names the process driving each shard within one ``period``.

:meth:`WebAddresses.owner` is what the relay asks (``bot/web/relay.py``): the address of
a shard's owner, read from the store at most once per ``period`` for all the sockets of
the process together.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from bot.cluster.ownership import Ownership
from bot.tasks import cancel
from storage import Store

log = logging.getLogger(__name__)

PERIOD = 2.0
"""Seconds an address read stays fresh, and between two checks of this process's own."""


class WebAddresses:
    """This process's web address in the registry, and the others' (module docstring).
    ``driving()`` says whether this process holds its shards' locks now."""

    def __init__(self, store: Store, ownership: Ownership, url: str,
                 driving: Callable[[], bool], *, period: float = PERIOD,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.ownership = ownership
        self.url = url.rstrip("/")
        self.driving = driving
        self.period = period
        self.clock = clock
        self._read: tuple[float, dict[int, str]] | None = None
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Record this process's address for its shards, and keep it recorded."""
        await self._claim()
        self._task = asyncio.create_task(self._keep(), name="web-addresses")

    async def close(self) -> None:
        await cancel(self._task)
        self._task = None

    async def owner(self, shard: int, *, fresh: bool = False) -> str | None:
        """The web address of ``shard``'s owner (None: none recorded). A shard missing
        from the last read, or ``fresh``, is read from the store now."""
        found = (await self._all(fresh=fresh)).get(shard)
        if found is None and not fresh:
            found = (await self._all(fresh=True)).get(shard)
        return found

    async def _all(self, *, fresh: bool = False) -> dict[int, str]:
        async with self._lock:
            now = self.clock()
            if fresh or self._read is None or now - self._read[0] >= self.period:
                self._read = (now, await self.store.web_addresses())
            return self._read[1]

    async def _claim(self) -> None:
        await self.store.set_web_address(sorted(self.ownership.shard_ids), self.url)
        self._read = None
        log.info("shards %s: the web table is served at %s",
                 sorted(self.ownership.shard_ids), self.url)

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(self.period)
            try:
                known = await self._all(fresh=True)
                if self.driving() and any(known.get(s) != self.url
                                          for s in self.ownership.shard_ids):
                    await self._claim()
            except Exception as exc:  # the store is out: the next period tries again
                log.warning("the web addresses could not be checked (%r)", exc)

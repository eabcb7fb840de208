"""Where each shard's process serves the web table: one internal address per shard.

Several bot processes share one public web address (a reverse proxy in front of them); a
page's socket may reach any of them, and the one it reaches relays it to the process that
owns the table (``bot/web/relay.py``). That process is the one holding the table's shard
lock, and it writes its web server's internal address (e.g. ``http://10.0.0.7:8765``)
here for each of its shards: :meth:`WebAddressesMixin.set_web_address` is an upsert, so
the newest holder's address wins; :meth:`WebAddressesMixin.web_addresses` reads them all.
The addresses are on the private network; no secret is kept here.
"""

from __future__ import annotations

from collections.abc import Sequence

from storage.core import StoreCore


class WebAddressesMixin(StoreCore):
    """The ``web_addresses`` part of the store (module docstring)."""

    async def set_web_address(self, shards: Sequence[int], url: str) -> None:
        now = self._now()
        async with self._db.write() as connection:
            for shard in sorted(set(shards)):
                await connection.execute(
                    "INSERT INTO web_addresses (shard, url, updated_at)"
                    " VALUES (:shard, :url, :now)"
                    " ON CONFLICT (shard) DO UPDATE SET url = excluded.url,"
                    " updated_at = excluded.updated_at",
                    {"shard": shard, "url": url, "now": now})

    async def web_addresses(self) -> dict[int, str]:
        async with self._db.read() as connection:
            rows = await connection.fetch("SELECT shard, url FROM web_addresses")
        return {int(r["shard"]): str(r["url"]) for r in rows}

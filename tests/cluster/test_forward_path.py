"""What a forwarded click costs the database on the player's path (issue 35).

Every database round trip on the path from a DM click to its owner's answer is felt by
the player (tens of milliseconds each on a loaded machine). On a real PostgreSQL server:
the receiving process, which has just read the table's row, does not read it again to
forward the click; the inbox write and the owner's completion are one statement each
(the write and its ``NOTIFY`` together), not a transaction of their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from bot.cluster import ForwardingClient, ForwardRequest, Ownership
from bot.service import Seat, TableService
from storage import ChannelLocation, Store, open_store
from storage.inbox import DONE_CHANNEL, inbox_channel

GUILD1 = (1 << 22) + 5  # shard 1 of 2


class Counted:
    """A database of the store, counting how its statements are sent."""

    def __init__(self, db: Any) -> None:
        self._db = db
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    async def write_one(self, sql: str, params: Any = None) -> Any:
        self.calls.append("statement")
        return await self._db.write_one(sql, params)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Any]:
        self.calls.append("transaction")
        async with self._db.write() as connection:
            yield connection

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Any]:
        self.calls.append("read")
        async with self._db.read() as connection:
            yield connection


async def until(check: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):
        while not check():
            await asyncio.sleep(0.01)


def counting(store: Store) -> Counted:
    counted = Counted(store._db)  # type: ignore[attr-defined]
    store._db = counted  # type: ignore[attr-defined]
    return counted


async def test_a_forwarded_click_costs_one_statement_per_inbox_write(pg_url: str) -> None:
    owner_store = await open_store(pg_url)
    store = await open_store(pg_url)
    woken: list[str] = []
    listener = store.listener()
    try:
        await listener.listen(inbox_channel(1), woken.append)
        await listener.listen(DONE_CHANNEL, woken.append)
        service = TableService(owner_store)
        table_id = await service.create_table(
            ChannelLocation(GUILD1, 200), "turup", seed=7, turn_timeout=0, start=True,
            seats=[Seat.human(u, f"player {u}") for u in (1, 2, 3, 4)])
        info = service.info(table_id)
        seat = info.to_act[0]
        request = ForwardRequest.act(table_id, seat + 1,
                                     service.legal(table_id, seat)[0].to_json(), info.version)
        row = await store.get_table(table_id)
        client = ForwardingClient(store, Ownership.of(2, [0]), timeout=0.2)
        calls = counting(store).calls
        outcome = await client.forward(request, key="click-1", table=row)
        assert outcome.status == "timeout"  # nobody runs shard 1 here
        # no second read of the row; the inbox write is one statement (then the wait reads)
        assert calls[0] == "statement" and "transaction" not in calls
        entries = await owner_store.pending_forwards([1])
        assert [e.request_key for e in entries] == ["click-1"]
        owner_calls = counting(owner_store).calls
        done = await owner_store.complete_forward(entries[0].id, {"status": "applied"})
        assert done is not None and owner_calls == ["statement"]
        await until(lambda: len(woken) == 2)
        assert woken == [str(entries[0].id)] * 2  # both wrote their NOTIFY
        await service.close()
    finally:
        await listener.close()
        await store.close()
        await owner_store.close()

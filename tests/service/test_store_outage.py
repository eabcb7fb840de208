"""A database outage while tables play (issue 35): no table is dropped, each comes back.

The service reaches the real PostgreSQL test server through a
:class:`pgproxy.CuttableProxy` that the test cuts (every connection closed, new ones
refused: to the service the server is gone) and restores — the machine's server itself is
never stopped.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from pgproxy import CuttableProxy
from pgtest import Schemas, require_postgres

from bot.service import SaveFailed, Seat, TableService
from bot.service.events import TableEvent
from bot.service.outages import DB_AWAY
from storage import ChannelLocation, Store, open_store, upgrade


@dataclass
class Outage:
    proxy: CuttableProxy
    store: Store
    """The service's store, through the proxy."""
    truth: Store
    """A store of the test's own, straight to the server (what is really stored)."""


@pytest.fixture(scope="module")
def outage_schemas() -> AsyncIterator[Schemas]:
    require_postgres()
    run = Schemas("ttout")
    try:
        yield run  # type: ignore[misc]
    finally:
        run.drop_all()


@pytest.fixture
async def outage(outage_schemas: Schemas) -> AsyncIterator[Outage]:
    url = outage_schemas.fresh_url()
    await upgrade(url)
    proxy = await CuttableProxy.before(url)
    store = await open_store(proxy.url(url))
    truth = await open_store(url)
    try:
        yield Outage(proxy, store, truth)
    finally:
        await proxy.restore()
        await store.close()
        await truth.close()
        await proxy.close()


async def until(check: object, what: str, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.02)


async def stored(store: Store, table_id: int) -> list[int]:
    return [e.seq for e in await store.load_actions(table_id)]


async def test_tables_that_tried_to_write_in_an_outage_are_kept_and_come_back(
        outage: Outage) -> None:
    service = TableService(outage.store)
    try:
        humans = await service.create_table(
            ChannelLocation(1, 100), "turup", seed=7, turn_timeout=0, start=True,
            seats=[Seat.human(u, f"player {u}") for u in (1, 2, 3, 4)])
        robots = await service.create_table(
            ChannelLocation(1, 200), "turup", seed=8, ai_pace=0.01, start=True,
            options={"target": 1000}, seats=[Seat.ai("rules") for _ in range(4)])
        await until(lambda: service.info(robots).version >= 3, "the AI to play")
        events = service.subscribe(humans)
        events.drain()  # the current state
        info = service.info(humans)
        seat = info.to_act[0]
        player = info.seats[seat]
        assert player is not None and player.user_id is not None
        action = service.legal(humans, seat)[0]

        await outage.proxy.cut()
        # the click whose append fails is refused in player words, and the table is kept
        with pytest.raises(SaveFailed) as refused:
            await service.act(humans, player.user_id, action, info.version)
        assert refused.value.said.message == DB_AWAY
        assert service.holds(humans) and service.held(humans)
        # an AI turn in the outage holds its table too (it is not dropped either)
        await until(lambda: service.held(robots), "the AI table to be held")
        assert service.holds(robots)
        # while held, every click is told the same, and nothing is published
        with pytest.raises(SaveFailed) as again:
            await service.act(humans, player.user_id, action, info.version)
        assert again.value.said.message == DB_AWAY
        await asyncio.sleep(1.0)
        assert not [e for e in events.drain() if e.type != "state"]  # nothing published
        assert service.holds(humans) and service.holds(robots)
        robots_version = service.info(robots).version

        await outage.proxy.restore()
        # both tables come back from the store as soon as it answers (retried with
        # backoff), their front ends get a "turn", and play goes on
        await until(lambda: not service.held(humans) and not service.held(robots),
                    "both tables to come back")
        turn: TableEvent | None = await asyncio.wait_for(events.get(), 5)
        while turn is not None and turn.type != "turn":
            turn = await asyncio.wait_for(events.get(), 5)
        assert turn is not None and turn.version == info.version
        assert await stored(outage.truth, humans) == list(range(1, info.version + 1))
        await service.act(humans, player.user_id, action, info.version)  # accepted now
        assert await stored(outage.truth, humans) == list(range(1, info.version + 2))
        # the AI table plays on from what is stored: nothing lost, nothing doubled
        await until(lambda: service.info(robots).version >= robots_version + 4,
                    "the AI table to play on")
        await service.close()
        seqs = await stored(outage.truth, robots)
        assert seqs == list(range(1, len(seqs) + 1))
        assert len(seqs) >= robots_version + 3
    finally:
        await service.close()


class RecordsFail:
    """The store, whose match records fail while ``down`` (everything else answers)."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.down = True

    def __getattr__(self, name: str) -> object:
        attr = getattr(self.inner, name)
        if name != "record_match":
            return attr

        async def record_match(*args: object, **kwargs: object) -> object:
            if self.down:
                raise ConnectionError("the database went away")
            return await attr(*args, **kwargs)

        return record_match


async def test_a_match_whose_result_cannot_be_recorded_is_recorded_when_the_store_answers(
        outage: Outage) -> None:
    flaky = RecordsFail(outage.store)
    service = TableService(flaky)  # type: ignore[arg-type]
    try:
        table = await service.create_table(
            ChannelLocation(1, 300), "turup", seed=9, ai_pace=0, start=True,
            options={"target": 1}, seats=[Seat.ai("rules") for _ in range(4)])
        # the last action is stored, the result is not: the table is kept, held
        await until(lambda: service.held(table), "the finished table to be held")
        row = await outage.truth.get_table(table)
        assert row is not None and row.status == "playing"
        flaky.down = False
        # brought back: the match is recorded and the table finished, without a restart
        await until(lambda: not service.holds(table), "the table to finish")
        row = await outage.truth.get_table(table)
        assert row is not None and row.status == "finished"
        assert await outage.truth.get_match_for_table(table) is not None
    finally:
        await service.close()

"""A process that loses its shard lock stops driving the shard at once (issue 35).

The owner's lock session is ended by the server (``pg_terminate_backend``, as a network
cut or a pooler would) and, in the same instant, another session takes the lock — as a
second process for that shard would. From then on the first process must not drive the
shard: no AI turn, no click applied, no forwarded request taken. Once the lock is free
again it takes it back, rebuilds its tables from the store (the other process played
meanwhile) and drives again, with nothing lost or doubled.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg  # type: ignore[import-untyped]
import pytest
from pgtest import PG_URL, with_schema

from bot.cluster import ClusterNode, Delivery, ForwardOutcome, ForwardRequest, Ownership
from bot.service import SaveFailed, Seat, TableService
from bot.service.outages import ON_HOLD
from storage import ChannelLocation, Store, open_store

GUILD1 = (1 << 22) + 5  # shard 1 of 2
LOCK_KEY = "hashtext('tricktable:shard:' || current_schema()), 1"
"""The advisory lock of shard 1, as :mod:`storage.signals` takes it."""


async def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def logged(store: Store, table_id: int) -> list[int]:
    return [e.seq for e in await store.load_actions(table_id)]


async def test_a_process_that_lost_its_shard_lock_stops_driving_until_it_holds_it_again(
        pg_url: str) -> None:
    schema = pg_url.rsplit("schema=", 1)[1]
    store = await open_store(pg_url)
    truth = await open_store(pg_url)
    node = ClusterNode(store, Ownership.of(2, [1]), poll_seconds=0.2, heartbeat=0.2)
    await node.lock()
    service = TableService(store)
    await service.start(owns=node.owns)
    answers: list[tuple[Delivery, ForwardOutcome]] = []

    async def answer(delivery: Delivery, outcome: ForwardOutcome) -> None:
        answers.append((delivery, outcome))

    await node.start(service, answer)
    rival = await asyncpg.connect(with_schema(PG_URL, None),
                                  server_settings={"search_path": schema})
    other: TableService | None = None
    try:
        robots = await service.create_table(
            ChannelLocation(GUILD1, 200), "turup", seed=8, ai_pace=0.02, start=True,
            options={"target": 1000}, seats=[Seat.ai("rules") for _ in range(4)])
        humans = await service.create_table(
            ChannelLocation(GUILD1, 201), "turup", seed=7, turn_timeout=0, start=True,
            seats=[Seat.human(u, f"player {u}") for u in (1, 2, 3, 4)])
        await until(lambda: service.info(robots).version >= 3)

        # the server ends the owner's lock session, and another session already queued for
        # the lock gets it the moment the session's end frees it (before the owner could
        # ask again): a second process for the shard is admitted at once
        await rival.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype ="
            " 'advisory' AND granted AND objsubid = 2 AND objid = 1 AND classid::bigint ="
            f" (hashtext('tricktable:shard:{schema}')::bigint & 4294967295);"
            f" SELECT pg_advisory_lock({LOCK_KEY});")
        await until(lambda: service.paused and not node.locked, timeout=1.0)

        # the owner drives nothing while another holds the lock: no AI turn …
        await asyncio.sleep(0.2)  # an append under way when the lock went is done by now
        before = await logged(truth, robots)
        await asyncio.sleep(1.0)
        assert await logged(truth, robots) == before
        # … no click (told why, in player words) …
        info = service.info(humans)
        seat = info.to_act[0]
        action = service.legal(humans, seat)[0]
        with pytest.raises(SaveFailed) as refused:
            await service.act(humans, seat + 1, action, info.version)
        assert refused.value.said.message == ON_HOLD
        # … and no forwarded request: it stays in the inbox
        request = ForwardRequest.act(humans, seat + 1, action.to_json(), info.version)
        entry = await truth.forward_action(humans, 1, "click-1", request.to_json())
        await asyncio.sleep(0.6)
        pending = await truth.get_forward(entry.id)
        assert pending is not None and pending.status == "pending" and not answers

        # meanwhile the other process drives the shard: it plays the click itself
        other = TableService(truth)
        await other.start(owns=Ownership.of(2, [1]).owns)
        await other.act(humans, seat + 1, action, info.version)
        await asyncio.sleep(0.3)  # and a few AI turns
        await other.close()
        other = None
        await rival.close()  # the other process ends: the lock is free

        # the first process takes the lock back, rebuilds its tables, and drives again
        await until(lambda: node.locked and not service.paused, timeout=10.0)
        assert service.info(humans).version == len(await logged(truth, humans))
        assert service.info(humans).version == info.version + 1
        # the forwarded click was applied by the other process's own click first: stale
        await until(lambda: bool(answers), timeout=10.0)
        assert [o.status for _, o in answers] == ["stale"]
        played = len(await logged(truth, robots))
        await until(lambda: service.info(robots).version >= played + 3, timeout=10.0)
        await service.close()
        seqs = await logged(truth, robots)
        assert seqs == list(range(1, len(seqs) + 1))  # nothing doubled, no gap
    finally:
        if other is not None:
            await other.close()
        if not rival.is_closed():
            await rival.close()
        await service.close()
        await node.close()
        await store.close()
        await truth.close()


def test_the_lock_key_is_the_stores() -> None:
    """The test above takes the lock exactly as the store does."""
    from storage.signals import PG_TRY_LOCK_SQL

    assert "hashtext('tricktable:' || $1 || ':' || current_schema()), $2" in PG_TRY_LOCK_SQL

"""Contract: what several processes sharing one database rely on (both backends).

Compare-and-set on table rows, the inbox of forwarded actions, the per-shard start locks,
and (PostgreSQL) the LISTEN/NOTIFY wake-ups.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable

import pytest
from pgtest import pg_execute

from storage import (
    ChannelLocation,
    NotFound,
    ShardBusy,
    SqlStore,
    StaleTable,
    open_store,
)
from storage.inbox import DONE_CHANNEL, inbox_channel

HERE = ChannelLocation(guild_id=10, channel_id=20)


# -- compare-and-set on table rows --------------------------------------------------------


async def test_every_update_bumps_the_row_version(store: SqlStore) -> None:
    table = await store.create_table(HERE, "turup", seats=[None] * 4)
    assert table.row_version == 0
    first = await store.update_table(table.id, seats=["a", None, None, None])
    second = await store.update_table(table.id, meta={"x": 1})
    assert (first.row_version, second.row_version) == (1, 2)
    got = await store.get_table(table.id)
    assert got is not None and got.row_version == 2


async def test_a_stale_writer_changes_nothing_and_learns_the_current_row(
    store: SqlStore,
) -> None:
    table = await store.create_table(HERE, "turup", seats=[None] * 4)
    # Two writers read version 0; the first one wins.
    alice = await store.update_table(
        table.id, seats=[None, "alice", None, None], expected_version=0
    )
    assert alice.row_version == 1
    with pytest.raises(StaleTable) as caught:
        await store.update_table(table.id, seats=[None, "bob", None, None], expected_version=0)
    assert caught.value.expected == 0
    assert caught.value.current.seats == [None, "alice", None, None]
    assert caught.value.current.row_version == 1
    stored = await store.get_table(table.id)
    assert stored is not None
    assert stored.seats == [None, "alice", None, None] and stored.row_version == 1
    # Re-read and decide again: now the write goes through.
    bob = await store.update_table(
        table.id, seats=[None, "alice", "bob", None], expected_version=1
    )
    assert bob.row_version == 2


async def test_concurrent_compare_and_set_lets_exactly_one_win(store_url: str) -> None:
    stores = [await open_store(store_url) for _ in range(2)]
    try:
        table = await stores[0].create_table(HERE, "turup", seats=[None] * 4)

        async def write(store_index: int, name: str) -> bool:
            try:
                await stores[store_index].update_table(
                    table.id, seats=[name, None, None, None], expected_version=0
                )
            except StaleTable:
                return False
            return True

        results = await asyncio.gather(*(write(i % 2, f"p{i}") for i in range(6)))
        assert sorted(results) == [False] * 5 + [True]
        row = await stores[0].get_table(table.id)
        assert row is not None and row.row_version == 1
    finally:
        for s in stores:
            await s.close()


# -- the inbox of forwarded actions -------------------------------------------------------


async def test_a_forwarded_action_is_written_once_per_key(store: SqlStore) -> None:
    table = await store.create_table(HERE, "turup")
    request = {"kind": "act", "user_id": 5, "action": {"type": "play", "card": "AS"}}
    first = await store.forward_action(table.id, 1, "click-1", request, reply_to={"t": "x"})
    again = await store.forward_action(table.id, 1, "click-1", {"other": True})
    assert again == first
    assert first.status == "pending" and first.request == request
    assert first.reply_to == {"t": "x"} and first.outcome is None
    assert [f.id for f in await store.pending_forwards([1])] == [first.id]
    assert await store.pending_forwards([0, 2]) == []
    assert await store.pending_forwards([]) == []


async def test_an_unknown_table_cannot_get_forwarded_actions(store: SqlStore) -> None:
    with pytest.raises(NotFound):
        await store.forward_action(999, 0, "k", {"kind": "act"})


async def test_completing_is_first_wins_and_erases_the_reply_address(
    store: SqlStore,
) -> None:
    table = await store.create_table(HERE, "turup")
    entry = await store.forward_action(table.id, 0, "k1", {"kind": "act"}, reply_to={"t": "s"})
    done = await store.complete_forward(entry.id, {"status": "applied"})
    assert done is not None and done.status == "done"
    assert done.outcome == {"status": "applied"} and done.reply_to is None
    assert done.done_at is not None
    assert await store.complete_forward(entry.id, {"status": "refused"}) is None
    stored = await store.get_forward(entry.id)
    assert stored is not None and stored.outcome == {"status": "applied"}
    assert await store.pending_forwards([0]) == []
    assert await store.complete_forward(12345, {"status": "applied"}) is None


async def test_pending_forwards_come_oldest_first_per_shard(store: SqlStore) -> None:
    table = await store.create_table(HERE, "turup")
    ids = [(await store.forward_action(table.id, i % 2, f"k{i}", {"n": i})).id
           for i in range(5)]
    assert [f.id for f in await store.pending_forwards([0])] == ids[0::2]
    assert [f.id for f in await store.pending_forwards([0, 1], limit=3)] == ids[:3]


async def test_old_done_entries_are_purged(store: SqlStore) -> None:
    table = await store.create_table(HERE, "turup")
    done = await store.forward_action(table.id, 0, "a", {})
    pending = await store.forward_action(table.id, 0, "b", {})
    await store.complete_forward(done.id, {"status": "applied"})
    later = dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    assert await store.purge_forwards(later) == 1
    assert await store.get_forward(done.id) is None
    assert await store.get_forward(pending.id) is not None


# -- start locks -------------------------------------------------------------------------


async def test_shard_locks_are_held_by_one_store_until_released(store_url: str) -> None:
    first, second = await open_store(store_url), await open_store(store_url)
    try:
        lock = await first.lock_shards([1, 3])
        assert lock.held
        with pytest.raises(ShardBusy, match="shard 3 is already run"):
            await second.lock_shards([2, 3])
        # All or none: the refused call holds nothing, so shard 2 is free.
        other = await second.lock_shards([2])
        with pytest.raises(ShardBusy, match="shard 1 is already run"):
            await second.lock_shards([1])
        await lock.release()
        assert not lock.held
        again = await second.lock_shards([1, 3])
        assert again.held
        await again.release()
        await other.release()
        with pytest.raises(ValueError):
            await first.lock_shards([])
    finally:
        await first.close()
        await second.close()


# -- wake-ups (PostgreSQL) ---------------------------------------------------------------


async def test_writes_notify_the_shard_and_completion_notifies_done(
    store: SqlStore, backend: str
) -> None:
    listener = store.listener()
    got: dict[str, list[str]] = {"inbox": [], "other": [], "done": []}
    arrived = asyncio.Event()

    def on(kind: str) -> Callable[[str], None]:
        def callback(payload: str) -> None:
            got[kind].append(payload)
            arrived.set()
        return callback

    try:
        await listener.listen(inbox_channel(3), on("inbox"))
        await listener.listen(inbox_channel(4), on("other"))
        await listener.listen(DONE_CHANNEL, on("done"))
        table = await store.create_table(HERE, "turup")
        entry = await store.forward_action(table.id, 3, "n1", {})
        await store.complete_forward(entry.id, {"status": "applied"})
        if backend == "sqlite":
            assert not listener.live  # one process: nothing to wake, callers poll
            await asyncio.sleep(0.05)
            assert got == {"inbox": [], "other": [], "done": []}
            return
        assert listener.live
        async with asyncio.timeout(5):
            while len(got["done"]) < 1:
                arrived.clear()
                await arrived.wait()
        assert got == {"inbox": [str(entry.id)], "other": [], "done": [str(entry.id)]}
    finally:
        await listener.close()


async def test_a_dropped_listener_reconnects_and_delivers_again(
    store: SqlStore, backend: str
) -> None:
    if backend == "sqlite":
        pytest.skip("SQLite has no notifications")
    listener = store.listener()
    got: list[str] = []
    try:
        await listener.listen(inbox_channel(7), got.append)
        assert listener.live
        pid = listener._connection.get_server_pid()  # type: ignore[attr-defined]
        await pg_execute(f"SELECT pg_terminate_backend({int(pid)})")
        async with asyncio.timeout(5):
            while listener.live:
                await asyncio.sleep(0.01)
        assert await listener.ensure()  # a new connection, listening again
        table = await store.create_table(HERE, "turup")
        entry = await store.forward_action(table.id, 7, "after-drop", {})
        async with asyncio.timeout(5):
            while not got:
                await asyncio.sleep(0.01)
        assert got == [str(entry.id)]
    finally:
        await listener.close()

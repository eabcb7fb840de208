"""The bot's REST budget shared by its processes (``storage/rest_budget.py``): each
process's row of use, what the others read, and a process that stops."""

from __future__ import annotations

import datetime as dt

from storage import SqlStore
from storage.migrations import latest


def test_migration_12_keeps_the_rest_budget() -> None:
    assert latest() >= 12


async def test_each_process_reads_every_recent_use(store: SqlStore) -> None:
    uses = await store.share_rest_use("a", 10.0, 12.5, within=3.0)
    assert [(u.process, u.made, u.wanted) for u in uses] == [("a", 10.0, 12.5)]
    uses = await store.share_rest_use("b", 20.0, 20.0, within=3.0)
    assert [(u.process, u.made, u.wanted) for u in uses] == [("a", 10.0, 12.5),
                                                             ("b", 20.0, 20.0)]
    uses = await store.share_rest_use("a", 5.0, 5.0, within=3.0)  # the newest row wins
    assert [(u.process, u.made) for u in uses] == [("a", 5.0), ("b", 20.0)]
    await store.forget_rest_use("b")
    assert [u.process for u in await store.share_rest_use("a", 1.0, 1.0, within=3.0)] == ["a"]


async def test_a_process_that_stopped_writing_drops_out(store: SqlStore) -> None:
    now = [dt.datetime(2026, 1, 1, tzinfo=dt.UTC)]
    store._clock = lambda: now[0]
    await store.share_rest_use("gone", 30.0, 30.0, within=3.0)
    now[0] += dt.timedelta(seconds=5)
    uses = await store.share_rest_use("here", 1.0, 2.0, within=3.0)
    assert [u.process for u in uses] == ["here"]  # not within the last 3 s
    assert uses[0].updated_at == now[0]
    now[0] += dt.timedelta(minutes=2)  # a minute later its row is deleted
    await store.share_rest_use("here", 1.0, 2.0, within=600.0)
    assert [u.process for u in await store.share_rest_use("x", 0, 0, within=600.0)] == [
        "here", "x"]

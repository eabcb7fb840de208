"""Contract: each shard's web address — the newest write wins (both backends)."""

from __future__ import annotations

from storage import SqlStore
from storage.migrations import latest


def test_migration_10_keeps_web_addresses() -> None:
    assert latest() >= 10


async def test_the_newest_address_of_a_shard_wins(store: SqlStore) -> None:
    assert await store.web_addresses() == {}
    await store.set_web_address([0, 1], "http://10.0.0.7:8765")
    await store.set_web_address([1], "http://10.0.0.8:8765")
    assert await store.web_addresses() == {0: "http://10.0.0.7:8765",
                                           1: "http://10.0.0.8:8765"}

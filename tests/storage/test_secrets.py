"""Contract: a secret is made once and kept — the first writer's value wins (both
backends)."""

from __future__ import annotations

import asyncio

from storage import SqlStore
from storage.migrations import latest


def test_migration_9_keeps_secrets() -> None:
    assert latest() >= 9


async def test_the_first_value_is_kept(store: SqlStore) -> None:
    assert await store.keep_secret("web", "first") == "first"
    assert await store.keep_secret("web", "second") == "first"
    assert await store.keep_secret("other", "own") == "own"


async def test_concurrent_writers_agree(store: SqlStore) -> None:
    values = await asyncio.gather(*(store.keep_secret("race", f"v{i}") for i in range(5)))
    assert len(set(values)) == 1

"""Fixtures for the tests with real bot processes (``tricktable run``) on the fake Discord
(two shards, served by this test process) and one PostgreSQL database.

``world`` — a :class:`shardworld.ShardWorld`: the fake Discord with one guild per shard,
a fresh migrated PostgreSQL schema, the slash commands synced (``tricktable sync``), and
a store of the test's own on that schema (to read what the processes stored). Processes
started with ``await world.start("0")`` are stopped at teardown; their logs are in
``tmp_path``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from fakediscord import FakeDiscord, Harness
from pgtest import Schemas, require_postgres
from shardworld import SHARDS, ShardWorld

from storage import open_store, upgrade


@pytest.fixture(scope="session")
def process_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttmp")
    try:
        yield run
    finally:
        run.drop_all()


@pytest.fixture
async def world(process_schemas: Schemas, tmp_path: Path) -> AsyncIterator[ShardWorld]:
    url = process_schemas.fresh_url()
    await upgrade(url)
    server = FakeDiscord(shard_count=SHARDS)
    await server.start()
    store = await open_store(url)
    harness = Harness(server, timeout=20.0)
    w = await ShardWorld.create(harness, url, store, tmp_path)
    try:
        await w.sync_commands()
        yield w
    finally:
        try:
            await w.close()
            await harness.close()
        finally:
            await store.close()
            await server.close()

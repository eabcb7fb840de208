"""Fixtures for the table service tests, on SQLite and on PostgreSQL.

The idea is the storage suite's (``tests/storage/conftest.py``), kept separate so the two
suites do not depend on each other:

* ``backend`` is parametrized over ``sqlite`` and ``postgres`` for tests that ask for it;
  ``store_url`` is an empty, migrated database of that backend (a file under ``tmp_path``,
  or a fresh PostgreSQL schema ``ttsvc_<random>_<n>``, dropped at the end of the run).
* PostgreSQL is ``TEST_DATABASE_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
  When it is unreachable the PostgreSQL tests are skipped, or fail when ``CI`` is set.
* ``sqlite_url`` is an SQLite database for tests that need only one backend.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pgtest import Schemas, require_postgres

from bot.service import FakeClock, TableService
from storage import Store, open_store, upgrade


@pytest.fixture(scope="session")
def postgres_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttsvc")
    try:
        yield run
    finally:
        run.drop_all()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'service.db'}"


@pytest.fixture
def backend_url(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> str:
    """A URL of a new database of the backend under test (a sync fixture, so the
    PostgreSQL session setup never runs inside an event loop)."""
    if backend == "sqlite":
        return f"sqlite:///{tmp_path / 'service.db'}"
    schemas: Schemas = request.getfixturevalue("postgres_schemas")
    return schemas.fresh_url()


@pytest.fixture
async def store_url(backend_url: str) -> str:
    """An empty, migrated database of the backend under test."""
    await upgrade(backend_url)
    return backend_url


@pytest.fixture
async def store(sqlite_url: str) -> AsyncIterator[Store]:
    """An open SQLite store (tests that need one backend only)."""
    opened = await open_store(sqlite_url)
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def service(store: Store, clock: FakeClock) -> AsyncIterator[TableService]:
    svc = TableService(store, clock=clock)
    await svc.start()
    try:
        yield svc
    finally:
        await svc.close()

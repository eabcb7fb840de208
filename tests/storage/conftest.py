"""Fixtures running the storage contract suite on SQLite and on PostgreSQL.

* ``backend`` is parametrized over ``sqlite`` and ``postgres``; ``store_url`` gives an empty,
  migrated database of that backend for each test, and ``store`` an open store on it. So
  every test that takes ``store`` runs once per backend.
* SQLite databases are files under ``tmp_path``.
* PostgreSQL: ``TEST_DATABASE_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
  The test run creates its own schema ``tt_<random>`` (URL option ``?schema=``), migrates it
  once, empties it before each test, and drops it at the end, with every extra schema that
  ``fresh_url`` made. When the server is unreachable the PostgreSQL tests are skipped,
  or fail when the ``CI`` environment variable is set.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
from pgtest import PG_URL, Schemas, pg_execute, require_postgres, with_schema

from storage import SqlStore, open_store, upgrade

BACKENDS = ["sqlite", "postgres"]


class PostgresRun(Schemas):
    """The schemas of this test run: the main one (migrated once, emptied before each
    test), and fresh ones made on demand by :meth:`fresh_url`."""

    def __init__(self) -> None:
        super().__init__("tt")
        self.schema = f"{self.prefix}_main"
        self.made.append(self.schema)
        self.url = with_schema(PG_URL, self.schema)


@pytest.fixture(scope="session")
def postgres_run() -> Iterator[PostgresRun]:
    require_postgres()
    run = PostgresRun()
    asyncio.run(pg_execute(f"CREATE SCHEMA {run.schema}"))
    try:
        asyncio.run(upgrade(run.url))
        yield run
    finally:
        run.drop_all()


async def _empty_postgres(schema: str) -> None:
    """Remove every row (and reset identities) in the run's schema, keeping the tables."""
    connection = await asyncpg.connect(
        with_schema(PG_URL, None), server_settings={"search_path": schema}, timeout=5
    )
    try:
        names = await connection.fetch(
            "SELECT tablename FROM pg_tables"
            " WHERE schemaname = $1 AND tablename <> 'schema_version'",
            schema,
        )
        tables = ", ".join(f'"{row["tablename"]}"' for row in names)
        await connection.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
    finally:
        await connection.close()


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def pg(request: pytest.FixtureRequest, backend: str) -> PostgresRun | None:
    """The PostgreSQL run when the backend under test is PostgreSQL (a sync fixture, so the
    session setup never runs inside an event loop)."""
    if backend != "postgres":
        return None
    run: PostgresRun = request.getfixturevalue("postgres_run")
    return run


@pytest.fixture
def fresh_url(pg: PostgresRun | None, tmp_path: Path) -> str:
    """A URL of a brand-new, never migrated database of the backend under test."""
    if pg is None:
        return f"sqlite:///{tmp_path / 'fresh.db'}"
    return pg.fresh_url()


@pytest.fixture
async def store_url(pg: PostgresRun | None, tmp_path: Path) -> str:
    """A URL of an empty, migrated database of the backend under test."""
    if pg is None:
        url = f"sqlite:///{tmp_path / 'store.db'}"
        await upgrade(url)
        return url
    await _empty_postgres(pg.schema)
    return pg.url


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[SqlStore]:
    """An open store on an empty database; parametrized over ["sqlite", "postgres"]."""
    opened = await open_store(store_url)
    assert isinstance(opened, SqlStore)
    try:
        yield opened
    finally:
        await opened.close()

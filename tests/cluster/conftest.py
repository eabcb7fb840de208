"""Fixtures for the several-processes tests: a fresh, migrated PostgreSQL schema per test
(``ttcl_<random>_<n>``, dropped at the end of the run), shared by the "processes" of one
test (each with its own store, as separate processes would have)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pgtest import Schemas, require_postgres

from storage import upgrade


@pytest.fixture(scope="session")
def cluster_schemas() -> Iterator[Schemas]:
    require_postgres()
    run = Schemas("ttcl")
    try:
        yield run
    finally:
        run.drop_all()


@pytest.fixture
def pg_schema_url(cluster_schemas: Schemas) -> str:
    return cluster_schemas.fresh_url()


@pytest.fixture
async def pg_url(pg_schema_url: str) -> str:
    """An empty, migrated PostgreSQL schema."""
    await upgrade(pg_schema_url)
    return pg_schema_url

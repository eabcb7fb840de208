"""The PostgreSQL test server, shared by every suite that runs on both backends.

* The server is ``TEST_DATABASE_URL`` (default ``postgresql://postgres@127.0.0.1:5432/test``).
* Each test run works in schemas of its own (``?schema=NAME`` in the store URL; the store
  creates a schema on first open), named ``<prefix>_<random>_<n>``, and drops them at the
  end.
* :func:`require_postgres` skips when the server is unreachable, or fails when the ``CI``
  environment variable is set: CI never silently skips PostgreSQL.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import secrets
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]
import pytest

PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")


def with_schema(url: str, schema: str | None) -> str:
    """``url`` with its ``schema`` query parameter set to ``schema`` (None: removed)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "schema"]
    if schema is not None:
        query.append(("schema", schema))
    return urlunsplit(parts._replace(query=urlencode(query)))


async def pg_execute(sql: str, *, schema: str | None = None) -> None:
    """Run one statement on the test server, optionally with ``search_path`` = schema."""
    settings = None if schema is None else {"search_path": schema}
    connection = await asyncpg.connect(with_schema(PG_URL, None), server_settings=settings,
                                       timeout=5)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def require_postgres() -> None:
    """Skip the calling fixture's tests when PostgreSQL is unreachable (fail under CI)."""
    try:
        asyncio.run(pg_execute("SELECT 1"))
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        problem = f"PostgreSQL at {PG_URL} is unreachable: {exc!r}"
        if os.environ.get("CI"):
            pytest.fail(f"{problem} (CI is set, so this is a failure, not a skip)")
        pytest.skip(problem)


class Schemas:
    """The schemas one test run makes, dropped together by :meth:`drop_all`."""

    def __init__(self, prefix: str) -> None:
        self.prefix = f"{prefix}_{secrets.token_hex(5)}"
        self.made: list[str] = []
        self._counter = itertools.count(1)

    def fresh_url(self) -> str:
        """A URL of a new, empty schema (created by the store on first open)."""
        schema = f"{self.prefix}_{next(self._counter)}"
        self.made.append(schema)
        return with_schema(PG_URL, schema)

    def drop_all(self) -> None:
        for schema in self.made:
            asyncio.run(pg_execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))

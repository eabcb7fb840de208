"""PostgreSQL backend (asyncpg with a connection pool).

Several bot processes may share one database: every write is a transaction on a pooled
connection, committed with the server's default ``synchronous_commit = on`` (the commit
record is flushed to the WAL before the commit returns). Read methods that need a
consistent view across several queries use a read-only REPEATABLE READ transaction.

The tables live in the first schema of the connection's ``search_path``. A ``schema``
query parameter in the URL (``postgresql://host/db?schema=tt_prod``) selects one: it is
created if missing and used as the ``search_path`` of every pooled connection. Other query
parameters are handed to asyncpg unchanged (libpq options such as ``sslmode``, and server
settings).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, cast

import asyncpg  # type: ignore[import-untyped]

from storage.driver import Row
from storage.errors import ConstraintViolation
from storage.signals import Listener, PgListener, SessionLock, pg_try_lock
from storage.sql import Dialect, Params, bind

log = logging.getLogger(__name__)

CLOSE_TIMEOUT = 5.0
"""Seconds :meth:`PostgresDatabase.close` waits for connections still in use."""

SCHEMA_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")
"""Accepted schema names: unquoted lower-case identifiers, so no quoting is ever needed."""


class _PostgresConnection:
    def __init__(self, connection: Any) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Params | None = None) -> None:
        text, args = bind(sql, Dialect.POSTGRES, params or {})
        try:
            await self._connection.execute(text, *args)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def executemany(self, sql: str, params: Sequence[Params]) -> None:
        if not params:
            return
        text, _ = bind(sql, Dialect.POSTGRES, params[0])
        rows = [bind(sql, Dialect.POSTGRES, p)[1] for p in params]
        try:
            await self._connection.executemany(text, rows)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]:
        text, args = bind(sql, Dialect.POSTGRES, params or {})
        try:
            return cast(list[Row], await self._connection.fetch(text, *args))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def fetchrow(self, sql: str, params: Params | None = None) -> Row | None:
        text, args = bind(sql, Dialect.POSTGRES, params or {})
        try:
            return cast(Row | None, await self._connection.fetchrow(text, *args))
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise ConstraintViolation(str(exc)) from exc


class PostgresDatabase:
    """An asyncpg pool on one database (and optionally one schema)."""

    def __init__(self, pool: Any, connect: Callable[[], Awaitable[Any]] | None = None) -> None:
        self._pool = pool
        self._connect = connect
        """Opens a connection outside the pool, configured like the pooled ones (for
        listeners and session locks, which hold a connection for a long time)."""

    @property
    def dialect(self) -> Dialect:
        return Dialect.POSTGRES

    @property
    def migration_lock_sql(self) -> str | None:
        # One migration at a time per schema, across every process sharing the database.
        return "SELECT pg_advisory_xact_lock(7262, hashtext(current_schema()))"

    @classmethod
    async def open(
        cls, dsn: str, *, schema: str | None = None, min_size: int = 1, max_size: int = 10
    ) -> PostgresDatabase:
        """Open a pool on ``dsn``; with ``schema``, create it if needed and work inside it."""
        settings: dict[str, str] | None = None
        if schema is not None:
            if not SCHEMA_NAME.fullmatch(schema):
                raise ValueError(
                    f"schema name {schema!r} must be a lower-case identifier ([a-z_][a-z0-9_]*)"
                )
            settings = {"search_path": schema}
        pool = await asyncpg.create_pool(
            dsn,
            min_size=min_size,
            max_size=max_size,
            server_settings=settings,
            statement_cache_size=512,
        )

        async def connect() -> Any:
            return await asyncpg.connect(dsn, server_settings=settings, timeout=10)

        try:
            if schema is not None:
                async with pool.acquire() as connection:
                    # Another process may create it at the same moment.
                    with contextlib.suppress(asyncpg.UniqueViolationError):
                        await connection.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
        except BaseException:
            await pool.close()
            raise
        return cls(pool, connect)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[_PostgresConnection]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield _PostgresConnection(connection)

    async def write_one(self, sql: str, params: Params | None = None) -> list[Row]:
        # Outside an explicit transaction a statement commits on its own: one round trip.
        async with self._pool.acquire() as connection:
            return await _PostgresConnection(connection).fetch(sql, params)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[_PostgresConnection]:
        async with (
            self._pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield _PostgresConnection(connection)

    def listener(self) -> Listener:
        if self._connect is None:
            raise RuntimeError("this database was not opened with PostgresDatabase.open")
        return PgListener(self._connect)

    async def try_lock(self, name: str, numbers: Sequence[int]) -> SessionLock | int:
        if self._connect is None:
            raise RuntimeError("this database was not opened with PostgresDatabase.open")
        return await pg_try_lock(self._connect, name, numbers)

    async def close(self, timeout: float = CLOSE_TIMEOUT) -> None:
        """Close the pool: wait up to ``timeout`` seconds for connections still in use to
        be released, then close them by force (asyncpg's own ``close`` waits forever, so one
        connection a stuck task still holds would hang a process's shutdown)."""
        try:
            await asyncio.wait_for(self._pool.close(), timeout)
        except TimeoutError:
            log.warning("connections still in use after %.0f s; closing them by force", timeout)
            self._pool.terminate()

"""What every part of the SQL store shares: the database, the clock, row helpers."""

from __future__ import annotations

import datetime as dt
from types import TracebackType
from typing import Self

from storage.codec import Clock, aware, utcnow
from storage.driver import Connection, Database, Row
from storage.errors import NotFound
from storage.migrations import current_version
from storage.sql import Dialect


class StoreCore:
    """Base of :class:`storage.sqlstore.SqlStore`; the domain mixins build on it."""

    def __init__(self, database: Database, *, clock: Clock = utcnow) -> None:
        self._db = database
        self._clock = clock

    @property
    def database(self) -> Database:
        """The backend this store runs on."""
        return self._db

    async def _notify(self, connection: Connection, channel: str, payload: str) -> None:
        """Notify ``channel`` (schema-qualified, as :mod:`storage.signals` listens) when the
        transaction commits; nothing on SQLite."""
        if self._db.dialect is Dialect.POSTGRES:
            await connection.execute(
                "SELECT pg_notify(current_schema() || '.' || :channel, :payload)",
                {"channel": channel, "payload": payload},
            )

    def _now(self) -> dt.datetime:
        return aware(self._clock(), "clock()")

    async def schema_version(self) -> int:
        return await current_version(self._db)

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.close()

    async def _touch(self, connection: Connection, table: str, row_id: int, what: str) -> Row:
        """Set ``updated_at`` of a row and return the row; this also locks it (PostgreSQL)
        until the transaction ends, so a read-modify-write after it is safe across
        processes. Raises :class:`NotFound`.

        ``table`` is always a literal from the calling code, never user input.
        """
        row = await connection.fetchrow(
            f"UPDATE {table} SET updated_at = :now WHERE id = :id RETURNING *",
            {"now": self._now(), "id": row_id},
        )
        if row is None:
            raise NotFound(f"{what} {row_id} does not exist")
        return row

    async def _update(
        self, connection: Connection, table: str, row_id: int, values: dict[str, object], what: str
    ) -> Row:
        """Set the given columns (names are literals of the calling code) and ``updated_at``;
        return the updated row. Raises :class:`NotFound`."""
        assignments = "".join(f"{column} = :{column}, " for column in values)
        row = await connection.fetchrow(
            f"UPDATE {table} SET {assignments}updated_at = :now WHERE id = :id RETURNING *",
            {**values, "now": self._now(), "id": row_id},
        )
        if row is None:
            raise NotFound(f"{what} {row_id} does not exist")
        return row

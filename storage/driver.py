"""The small interface a database backend implements; all store logic is written against it.

A backend (``storage/sqlite.py``, ``storage/postgres.py``) only knows how to open
connections, run transactions and pass parameters; it holds no queries of its own. SQL text
uses named parameters (see :mod:`storage.sql`), and rows are read by column name.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from storage.signals import Listener, SessionLock
from storage.sql import Dialect, Params


class Row(Protocol):
    """A result row; columns are read by name (``row["id"]``)."""

    def __getitem__(self, key: str, /) -> Any: ...


class Connection(Protocol):
    """A connection inside one transaction.

    Integrity errors of the database (unique, foreign key, check) are raised as
    :class:`storage.errors.ConstraintViolation`.
    """

    async def execute(self, sql: str, params: Params | None = None) -> None: ...

    async def executemany(self, sql: str, params: Sequence[Params]) -> None: ...

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]: ...

    async def fetchrow(self, sql: str, params: Params | None = None) -> Row | None: ...


class Database(Protocol):
    """An open database: transactions on demand, and the dialect its SQL speaks."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def migration_lock_sql(self) -> str | None:
        """A statement that serialises migrations across processes, run first in the
        migration transaction (None when the write transaction already does)."""
        ...

    def write(self) -> AbstractAsyncContextManager[Connection]:
        """A read-write transaction, committed durably when the block exits normally and
        rolled back when it raises."""
        ...

    async def write_one(self, sql: str, params: Params | None = None) -> list[Row]:
        """Run one statement as a transaction of its own (one round trip) and return its
        rows; committed durably when this returns. For hot single-statement writes."""
        ...

    def read(self) -> AbstractAsyncContextManager[Connection]:
        """A read-only transaction seeing one consistent snapshot of the database."""
        ...

    def listener(self) -> Listener:
        """A new :class:`~storage.signals.Listener` of notifications (``pg_notify``) on
        this database (one that never delivers on SQLite). Its owner closes it."""
        ...

    async def try_lock(self, name: str, numbers: Sequence[int]) -> SessionLock | int:
        """Take the process-wide locks ``(name, n)`` of this database for every ``n`` of
        ``numbers``, held together until released or until the process ends. All or none:
        when another process holds one, returns its number and holds nothing."""
        ...

    async def close(self) -> None: ...

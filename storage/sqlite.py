"""SQLite backend (aiosqlite): one writer connection, one reader connection.

Durability and concurrency:

* WAL journal, ``synchronous=FULL`` by default: a commit has reached the disk (the WAL is
  fsynced) before :meth:`SqliteDatabase.write` returns, so an acknowledged action survives
  a crash of the process *and* of the machine. ``synchronous=NORMAL`` (URL option) survives
  a process crash but may lose the last commits on power loss.
* All writes of the process go through one connection, serialised by an asyncio lock, each
  in a ``BEGIN IMMEDIATE`` transaction, so coroutines appending to many tables at once never
  interleave statements. Other processes are kept out by SQLite's own lock (busy timeout).
* **Group commit.** Single statements (:meth:`SqliteDatabase.write_one`: an action
  appended, a row updated) that arrive while another write holds the connection are
  committed together when it is free: one transaction, one fsync, each statement in its own
  savepoint (a statement that fails fails alone, the others commit), in arrival order; no
  caller returns before the commit that holds its statement. A lone statement commits by
  itself as before. With ``synchronous=FULL`` an fsync costs milliseconds, tens on a busy
  disk: without this, every table's action waited for every earlier one's
  (``docs/web.md``, "Benchmark").
* Reads use a second, query-only connection with its own lock; in WAL mode they do not wait
  for writers and see the last committed state. ``:memory:`` databases use one connection.
* Foreign keys are enforced on both connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Literal

import aiosqlite

from storage.codec import timestamp_text
from storage.driver import Row
from storage.errors import ConstraintViolation
from storage.signals import Listener, MemoryLock, NoListener, SessionLock, file_try_lock
from storage.sql import Dialect, Params, bind

Synchronous = Literal["FULL", "NORMAL"]
BUSY_TIMEOUT_MS = 10_000


def _value(value: object) -> object:
    if isinstance(value, dt.datetime):
        return timestamp_text(value)
    return value


class _SqliteConnection:
    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def execute(self, sql: str, params: Params | None = None) -> None:
        text, args = bind(sql, Dialect.SQLITE, params or {})
        try:
            await self._connection.execute(text, [_value(a) for a in args])
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def executemany(self, sql: str, params: Sequence[Params]) -> None:
        if not params:
            return
        text, _ = bind(sql, Dialect.SQLITE, params[0])
        rows = [[_value(a) for a in bind(sql, Dialect.SQLITE, p)[1]] for p in params]
        try:
            await self._connection.executemany(text, rows)
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc

    async def fetch(self, sql: str, params: Params | None = None) -> list[Row]:
        text, args = bind(sql, Dialect.SQLITE, params or {})
        try:
            rows = await self._connection.execute_fetchall(text, [_value(a) for a in args])
        except sqlite3.IntegrityError as exc:
            raise ConstraintViolation(str(exc)) from exc
        return list(rows)

    async def fetchrow(self, sql: str, params: Params | None = None) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None


class SqliteDatabase:
    """An open SQLite database file (see the module docstring for the guarantees)."""

    def __init__(self, writer: aiosqlite.Connection, reader: aiosqlite.Connection | None,
                 path: str = ":memory:") -> None:
        self._path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._read_lock = asyncio.Lock() if reader is not None else self._write_lock
        self._pending: list[tuple[str, Params | None, asyncio.Future[list[Row]]]] = []
        """Single statements waiting to be committed (module docstring: group commit)."""
        self._flusher: asyncio.Task[None] | None = None

    @property
    def dialect(self) -> Dialect:
        return Dialect.SQLITE

    @property
    def migration_lock_sql(self) -> str | None:
        return None  # BEGIN IMMEDIATE already excludes every other writer

    @classmethod
    async def open(cls, path: str, synchronous: Synchronous = "FULL") -> SqliteDatabase:
        """Open (creating if needed) the database file at ``path`` or ``:memory:``."""
        memory = path == ":memory:"
        writer = await _connect(path, synchronous, query_only=False)
        try:
            if not memory:
                await _enable_wal(writer)
            reader = None if memory else await _connect(path, synchronous, query_only=True)
        except BaseException:
            await writer.close()
            raise
        return cls(writer, reader, path)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[_SqliteConnection]:
        """One ``BEGIN IMMEDIATE`` transaction, committed when the block ends and rolled
        back when it raises — or when the caller is cancelled at any point, ``BEGIN``
        included: the SQLite thread runs a statement it was handed even when the awaiting
        task is cancelled, so the rollback is queued after it and the connection is never
        left inside a transaction (the next write would fail)."""
        async with self._write_lock:
            try:
                await self._writer.execute("BEGIN IMMEDIATE")
                yield _SqliteConnection(self._writer)
            except BaseException:
                await _rollback(self._writer)
                raise
            try:
                await self._writer.execute("COMMIT")
            except BaseException:
                await _rollback(self._writer)
                raise

    async def write_one(self, sql: str, params: Params | None = None) -> list[Row]:
        """One statement, committed (durably) before it returns, with the others waiting
        at the same moment (module docstring: group commit). A caller cancelled before
        its statement was taken writes nothing."""
        future: asyncio.Future[list[Row]] = asyncio.get_running_loop().create_future()
        item = (sql, params, future)
        self._pending.append(item)
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            if item in self._pending:
                self._pending.remove(item)
            else:  # taken: it is written all the same; nobody reads how it ended
                future.add_done_callback(_forget)
            raise

    async def _flush(self) -> None:
        """Commit the waiting statements, a batch at a time, until none waits."""
        while self._pending:
            async with self._write_lock:
                batch, self._pending = self._pending, []
                if not batch:
                    continue
                try:
                    if len(batch) == 1:
                        # In autocommit mode a lone statement is a transaction: it commits
                        # in the step that completes it (one trip to the SQLite thread).
                        sql, params, future = batch[0]
                        try:
                            rows = await _SqliteConnection(self._writer).fetch(sql, params)
                        except Exception as exc:
                            _settle(future, exc)
                        else:
                            _settle(future, rows)
                        continue
                    for future, outcome in await self._commit_together(batch):
                        _settle(future, outcome)
                except BaseException as exc:  # the whole batch failed (or we are stopped)
                    for _, _, future in batch:
                        _settle(future, exc if isinstance(exc, Exception)
                                else asyncio.CancelledError())
                    if not isinstance(exc, Exception):
                        raise

    async def _commit_together(
        self, batch: list[tuple[str, Params | None, asyncio.Future[list[Row]]]]
    ) -> list[tuple[asyncio.Future[list[Row]], list[Row] | Exception]]:
        """One transaction for ``batch``: a savepoint per statement, one commit."""
        connection = _SqliteConnection(self._writer)
        outcomes: list[tuple[asyncio.Future[list[Row]], list[Row] | Exception]] = []
        try:
            await self._writer.execute("BEGIN IMMEDIATE")
            for sql, params, future in batch:
                await self._writer.execute("SAVEPOINT one")
                try:
                    outcomes.append((future, await connection.fetch(sql, params)))
                except Exception as exc:
                    await self._writer.execute("ROLLBACK TO one")
                    outcomes.append((future, exc))
                await self._writer.execute("RELEASE one")
            await self._writer.execute("COMMIT")
        except BaseException:
            await _rollback(self._writer)
            raise
        return outcomes

    @asynccontextmanager
    async def read(self) -> AsyncIterator[_SqliteConnection]:
        connection = self._reader or self._writer
        async with self._read_lock:
            try:  # ended even when cancelled in BEGIN (see write): no snapshot left open
                await connection.execute("BEGIN")
                yield _SqliteConnection(connection)
            finally:
                await _rollback(connection)

    async def pragmas(self) -> dict[str, object]:
        """The settings that carry the durability promises, as the writer connection sees
        them (for diagnostics and tests)."""
        values: dict[str, object] = {}
        async with self._write_lock:
            for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
                rows = await self._writer.execute_fetchall(f"PRAGMA {name}")
                values[name] = next(iter(rows))[0]
        return values

    def listener(self) -> Listener:
        return NoListener()

    async def try_lock(self, name: str, numbers: Sequence[int]) -> SessionLock | int:
        """Exclusive ``flock`` s on ``<database>.<name>-<n>.lock`` (an in-memory database
        is private to this process: always granted)."""
        if self._path == ":memory:":
            return MemoryLock()
        got = file_try_lock([f"{self._path}.{name}-{n}.lock" for n in numbers])
        return numbers[got] if isinstance(got, int) else got

    async def close(self) -> None:
        async with self._write_lock:
            if self._reader is not None:
                await self._reader.close()
            await self._writer.close()


async def _connect(
    path: str, synchronous: Synchronous, *, query_only: bool
) -> aiosqlite.Connection:
    connection = await aiosqlite.connect(
        path,
        isolation_level=None,  # transactions are explicit
        timeout=BUSY_TIMEOUT_MS / 1000,
        cached_statements=256,
    )
    try:
        connection.row_factory = sqlite3.Row
        await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await connection.execute("PRAGMA foreign_keys = ON")
        await connection.execute(f"PRAGMA synchronous = {synchronous}")
        if query_only:
            await connection.execute("PRAGMA query_only = ON")
    except BaseException:
        await connection.close()
        raise
    return connection


async def _enable_wal(connection: aiosqlite.Connection) -> None:
    """Switch the file to WAL (a no-op once it is). Switching needs a moment of exclusive
    access, for which SQLite does not wait on its own, so retry while other connections
    (e.g. another process opening the same new file) hold it, up to the busy timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            rows = await connection.execute_fetchall("PRAGMA journal_mode = WAL")
            break
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or loop.time() > deadline:
                raise
            await asyncio.sleep(0.01)
    mode = str(next(iter(rows))[0]).lower()
    if mode != "wal":
        raise sqlite3.OperationalError(f"could not enable WAL (journal mode is {mode})")


def _forget(future: asyncio.Future[list[Row]]) -> None:
    if not future.cancelled():
        future.exception()


def _settle(future: asyncio.Future[list[Row]], outcome: list[Row] | BaseException) -> None:
    """Give a waiting statement its rows or its error (unless its caller is gone)."""
    if future.done():
        return
    if isinstance(outcome, BaseException):
        future.set_exception(outcome)
    else:
        future.set_result(outcome)


async def _rollback(connection: aiosqlite.Connection) -> None:
    """Roll back the open transaction, if any; never mask the error being handled."""
    # No transaction is open when e.g. COMMIT went through before a cancellation.
    with contextlib.suppress(sqlite3.Error):
        await connection.execute("ROLLBACK")

"""What several processes sharing one database use besides rows: wake-ups and locks.

* A :class:`Listener` delivers notifications sent with ``pg_notify`` inside a committed
  write (PostgreSQL ``LISTEN``/``NOTIFY``). Channel names are given without the schema; the
  backend prefixes the connection's ``current_schema()`` on both sides, so two
  deployments in two schemas of one database never wake each other. On SQLite nothing is
  ever delivered (``live`` is False): callers poll, which is all a single process needs.
* A :class:`SessionLock` is held by one process at a time, as long as that process lives:
  a PostgreSQL session advisory lock on a dedicated connection (the server releases it
  when the connection ends, so a killed process never leaves it behind), or on SQLite an
  exclusive ``flock`` on a file next to the database (released by the kernel on exit).

Notifications are only a wake-up: whoever receives one re-reads the rows it cares about,
and polls now and then anyway, so a notification lost with a dropped connection delays
work, never loses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import IO, Any, Final, Protocol

log = logging.getLogger(__name__)

GUILD_SETTINGS_CHANNEL: Final = "guild_settings"
"""Notified with the guild id when a guild's settings change (other processes re-read
them: a new server language shows at once everywhere)."""

PLAYER_LANGUAGE_CHANNEL: Final = "player_language"
"""Notified with the user id when a player's own language changes."""

Callback = Callable[[str], None]
"""Called with a notification's payload (on the event loop; must not block)."""


class Listener(Protocol):
    """Notifications of some channels, delivered to callbacks."""

    @property
    def live(self) -> bool:
        """Whether notifications are being delivered now (False: poll)."""
        ...

    async def listen(self, channel: str, callback: Callback) -> None:
        """Deliver every notification of ``channel`` to ``callback`` from now on."""
        ...

    async def ensure(self) -> bool:
        """Reconnect a dropped connection (listening again on every channel); returns
        :attr:`live`. Notifications sent while it was down are lost: re-read the rows."""
        ...

    async def close(self) -> None: ...


class SessionLock(Protocol):
    """A lock held until :meth:`release` or the end of the process."""

    @property
    def held(self) -> bool:
        """False once released, or when the connection that held it was lost."""
        ...

    def on_lost(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the event loop) the moment the lock is known lost: its
        connection ended (the server ended the session, or the network closed it)."""
        ...

    async def check(self, timeout: float) -> bool:
        """Whether the lock is still held, asking the server (within ``timeout``
        seconds). An unanswered check releases it: whoever cannot tell whether it holds
        the lock must behave as if it did not (and the server frees it for another)."""
        ...

    async def release(self) -> None: ...


class NoListener:
    """The SQLite listener: never delivers anything (one process polls its own rows)."""

    @property
    def live(self) -> bool:
        return False

    async def listen(self, channel: str, callback: Callback) -> None:
        return None

    async def ensure(self) -> bool:
        return False

    async def close(self) -> None:
        return None


class PgListener:
    """``LISTEN`` on one dedicated asyncpg connection (opened by ``connect``)."""

    def __init__(self, connect: Callable[[], Awaitable[Any]]) -> None:
        self._connect = connect
        self._connection: Any = None
        self._prefix = ""
        self._callbacks: dict[str, list[Callback]] = {}
        self._closed = False
        self._opening = asyncio.Lock()

    @property
    def live(self) -> bool:
        return self._connection is not None and not self._connection.is_closed()

    async def listen(self, channel: str, callback: Callback) -> None:
        self._callbacks.setdefault(channel, []).append(callback)
        if await self.ensure() and len(self._callbacks[channel]) == 1:
            await self._connection.add_listener(self._prefix + channel, self._deliver)

    async def ensure(self) -> bool:
        if self._closed:
            return False
        if self.live:
            return True
        async with self._opening:  # one reconnection at a time
            return self.live or await self._open()

    async def _open(self) -> bool:
        self._connection = None
        try:
            connection = await self._connect()
        except Exception as exc:
            log.warning("could not open the notification connection (%s); polling", exc)
            return False
        try:
            self._prefix = str(await connection.fetchval("SELECT current_schema()")) + "."
            for channel in self._callbacks:
                await connection.add_listener(self._prefix + channel, self._deliver)
        except Exception:
            await connection.close()
            raise
        self._connection = connection
        return True

    def _deliver(self, _connection: Any, _pid: int, channel: str, payload: str) -> None:
        for callback in list(self._callbacks.get(channel.removeprefix(self._prefix), ())):
            try:
                callback(payload)
            except Exception:
                log.exception("a notification callback of %s failed", channel)

    async def close(self) -> None:
        self._closed = True
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.close()


class PgSessionLock:
    """A session advisory lock held by a dedicated connection."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection
        self._on_lost: list[Callable[[], None]] = []
        connection.add_termination_listener(self._ended)

    @property
    def held(self) -> bool:
        return self._connection is not None and not self._connection.is_closed()

    def on_lost(self, callback: Callable[[], None]) -> None:
        self._on_lost.append(callback)

    def _ended(self, _connection: Any) -> None:
        for callback in list(self._on_lost):
            try:
                callback()
            except Exception:
                log.exception("a lock-lost callback failed")

    async def check(self, timeout: float) -> bool:
        connection = self._connection
        if connection is None or connection.is_closed():
            return False
        try:
            await connection.fetchval("SELECT 1", timeout=timeout)
            return True
        except Exception as exc:
            log.warning("the session holding a lock did not answer (%r); letting it go", exc)
            await self.release()
            self._ended(connection)
            return False

    async def release(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            # A release is no loss: no callback. Closing the session releases its locks.
            connection.remove_termination_listener(self._ended)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(connection.close(), 2.0)
            if not connection.is_closed():
                connection.terminate()


PG_TRY_LOCK_SQL = (
    "SELECT pg_try_advisory_lock(hashtext('tricktable:' || $1 || ':' || current_schema()), $2)"
)
"""One lock per (name, number) and schema: two deployments in two schemas never meet."""


async def pg_try_lock(connect: Callable[[], Awaitable[Any]], name: str,
                      numbers: Sequence[int]) -> PgSessionLock | int:
    """Take the advisory locks ``(name, n)`` for every ``n`` of ``numbers`` on one new
    connection; all or none: returns the first number another session holds (closing the
    connection, which frees the ones taken) when one is busy."""
    connection = await connect()
    try:
        for number in numbers:
            if not await connection.fetchval(PG_TRY_LOCK_SQL, name, number):
                await connection.close()
                return number
    except BaseException:
        await connection.close()
        raise
    return PgSessionLock(connection)


class FileLock:
    """Exclusive ``flock`` s on files (SQLite deployments)."""

    def __init__(self, handles: list[IO[bytes]]) -> None:
        self._handles = handles

    @property
    def held(self) -> bool:
        return bool(self._handles)

    def on_lost(self, callback: Callable[[], None]) -> None:
        return None  # held by the process itself: never lost

    async def check(self, timeout: float) -> bool:
        return self.held

    async def release(self) -> None:
        handles, self._handles = self._handles, []
        for handle in handles:
            handle.close()  # closing the descriptor drops the flock


class MemoryLock:
    """The lock of an in-memory database: no other process can open it."""

    def __init__(self) -> None:
        self._held = True

    @property
    def held(self) -> bool:
        return self._held

    def on_lost(self, callback: Callable[[], None]) -> None:
        return None  # never lost

    async def check(self, timeout: float) -> bool:
        return self._held

    async def release(self) -> None:
        self._held = False


def file_try_lock(paths: Sequence[str]) -> FileLock | int:
    """Take an exclusive, non-blocking ``flock`` on each of ``paths`` (created if needed);
    all or none: returns the index of the first path another process holds."""
    import fcntl  # POSIX only, like the deployments this serves

    handles: list[IO[bytes]] = []
    try:
        for index, path in enumerate(paths):
            handle = open(path, "ab")  # noqa: SIM115 - kept open while the lock is held
            handles.append(handle)
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                for taken in handles:
                    taken.close()
                return index
    except BaseException:
        for taken in handles:
            taken.close()
        raise
    return FileLock(handles)

"""A PostgreSQL outage for one test only: a TCP proxy in front of the test server.

The machine's PostgreSQL serves other tests at the same time, so a test never stops it.
Instead its processes reach the server through a :class:`CuttableProxy` on
``127.0.0.1``: :meth:`CuttableProxy.cut` closes every connection through it and refuses
new ones (to the processes, the server is gone: a restart, a network cut),
:meth:`CuttableProxy.restore` lets connections through again. :meth:`CuttableProxy.url`
turns a test server URL into the same URL through the proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class CuttableProxy:
    """Forwards TCP connections from ``127.0.0.1:port`` to ``target`` until cut."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    @classmethod
    async def before(cls, url: str) -> CuttableProxy:
        """A started proxy in front of the server of ``url``."""
        parts = urlsplit(url)
        proxy = cls(parts.hostname or "127.0.0.1", parts.port or 5432)
        await proxy.restore()
        return proxy

    def url(self, url: str) -> str:
        """``url`` with its host and port replaced by the proxy's."""
        parts = urlsplit(url)
        user = parts.netloc.rsplit("@", 1)[0] + "@" if "@" in parts.netloc else ""
        return urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{self.port}"))

    @property
    def up(self) -> bool:
        return self._server is not None

    async def restore(self) -> None:
        """Accept connections (on the same port as before, if any)."""
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
            self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        """Close every connection through the proxy and refuse new ones."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if server is not None:
            await server.wait_closed()

    async def close(self) -> None:
        await self.cut()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._server is None:
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._writers.update((writer, up_writer))
        pumps = [asyncio.create_task(_pump(reader, up_writer)),
                 asyncio.create_task(_pump(up_reader, writer))]
        self._tasks.update(pumps)
        try:
            await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pumps:
                task.cancel()
                self._tasks.discard(task)
            for w in (writer, up_writer):
                self._writers.discard(w)
                w.transport.abort()


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()

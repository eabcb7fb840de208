"""What the web application's parts share (:mod:`bot.web.server`, :mod:`bot.web.relay`,
:mod:`bot.web.activity`): the application's keys and :func:`serve`, which runs a viewer on
a request's socket. A leaf: it imports none of those parts."""

from __future__ import annotations

from collections.abc import Callable

from aiohttp import web

from bot.service import TableService
from bot.web.viewer import Viewer, WebConfig

SERVICE: web.AppKey[TableService] = web.AppKey("service", TableService)
CONFIG: web.AppKey[WebConfig] = web.AppKey("config", WebConfig)
ORIGINS: web.AppKey[frozenset[str]] = web.AppKey("origins", frozenset)


async def serve(request: web.Request, config: WebConfig,
                viewer: Callable[[web.WebSocketResponse], Viewer]) -> web.WebSocketResponse:
    """Open the request's socket and run ``viewer(socket)`` on it until it is done."""
    ws = web.WebSocketResponse(heartbeat=25.0, max_msg_size=max(4 * config.max_frame, 8192))
    await ws.prepare(request)
    config.sockets.add(ws)
    try:
        await viewer(ws).run()
    finally:
        config.sockets.discard(ws)
        await ws.close()
    return ws

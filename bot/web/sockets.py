"""What the web application's parts share (:mod:`bot.web.server`, :mod:`bot.web.relay`,
:mod:`bot.web.activity`): the application's keys and :func:`serve`, which runs a viewer on
a request's socket. A leaf: it imports none of those parts."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from aiohttp import web

from bot.i18n import SOURCE_LANGUAGE, Translator, match_language, translator
from bot.service import TableService
from bot.web.config import WebConfig
from bot.web.protocol import VERSION, ErrorFrame
from bot.web.viewer import Viewer

if TYPE_CHECKING:
    from bot.web.admission import Admission

SERVICE: web.AppKey[TableService] = web.AppKey("service", TableService)
CONFIG: web.AppKey[WebConfig] = web.AppKey("config", WebConfig)
ORIGINS: web.AppKey[frozenset[str]] = web.AppKey("origins", frozenset)


def page_language(request: web.Request) -> Translator:
    """The first language of the request's ``Accept-Language`` the bot speaks (else the
    source language): the words of a page whose user is not known yet."""
    tags = [t.split(";")[0].strip()
            for t in request.headers.get("Accept-Language", "")[:256].split(",")]
    return translator(next((m for m in map(match_language, tags) if m), SOURCE_LANGUAGE))


def client_address(request: web.Request, config: WebConfig) -> str:
    """Who opened the request: the connection's peer, or with ``config.forwarded`` the last
    address of ``X-Forwarded-For`` (the one the proxy in front added)."""
    if config.forwarded:
        forwarded = request.headers.get("X-Forwarded-For", "").rsplit(",", 1)[-1].strip()
        if forwarded:
            return forwarded[:64]
    return request.remote or "?"


async def serve(request: web.Request, config: WebConfig,
                admission: Callable[[str | None], Admission], *,
                counted: bool = True) -> web.WebSocketResponse:
    """Open the request's socket and run a viewer admitted by ``admission(address)`` on it
    until it is done. ``counted``: the socket counts against the per-address cap (a
    relayed socket was counted where it was received)."""
    address = client_address(request, config) if counted else None
    ws = web.WebSocketResponse(heartbeat=25.0, max_msg_size=max(4 * config.max_frame, 8192))
    await ws.prepare(request)
    t = page_language(request)
    full = config.sockets.opened(ws, address)
    try:
        if full is not None:
            refusal: ErrorFrame = {"v": VERSION, "type": "error", "code": "busy",
                                   "text": t.gettext(full), "fatal": True}
            await ws.send_json(refusal)
            return ws
        await Viewer(request.app[SERVICE], config, ws, admission(address), t).run()
    except ConnectionResetError:  # the page went away while we answered it
        pass
    finally:
        config.sockets.closed(ws)
        await ws.close()
    return ws

"""The web table's aiohttp application: the page, its assets and ``/ws``.

* ``GET /`` — the page (``bot/web/static/index.html``, built from ``web/`` and shipped in
  the package); ``GET /assets/…`` — its script, styles and card faces.
* ``GET /ws`` — one WebSocket per viewer (:class:`bot.web.viewer.Viewer`). Its ``Origin``
  must be the page's own origin (``TRICKTABLE_WEB_URL``'s when set, else the request's
  host): another site's page cannot open a socket with a visitor's cookies or key.
* ``GET /ws/relay`` — with several processes, the owner's side of a socket another
  process received (:mod:`bot.web.relay`).
* Every answer carries a Content-Security-Policy allowing only this origin (scripts,
  styles, images, the socket), no framing, no referrer.

:class:`WebServer` runs the application on a host and port and makes the links
(:mod:`bot.web.links`): ``server.link(table, user, "seat")`` is
``<base>/#k=<key>``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web

from bot.service import TableService
from bot.web import links
from bot.web.presence import Presence
from bot.web.sockets import CONFIG, ORIGINS, SERVICE, serve
from bot.web.viewer import LobbyRights, Viewer, WebConfig

if TYPE_CHECKING:
    from bot.web.activity import ActivityConfig

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
"""The built page (package data)."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


def origin_of(url: str) -> str:
    """``https://example.org/tables/`` → ``https://example.org``."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


@web.middleware
async def _headers(request: web.Request, handler: Any) -> web.StreamResponse:
    try:
        response: web.StreamResponse = await handler(request)
    except web.HTTPException as exc:  # refusals carry the policy too
        exc.headers.update(HEADERS)
        raise
    if not response.prepared:
        response.headers.update(HEADERS)
    return response


async def _page(request: web.Request) -> web.StreamResponse:
    index = STATIC / "index.html"
    if not index.exists():
        raise web.HTTPNotFound(text="the page is not built (npm run build in web/)")
    return web.FileResponse(index, headers={"Content-Type": "text/html; charset=utf-8"})


async def _socket(request: web.Request) -> web.StreamResponse:
    allowed = request.app[ORIGINS] or frozenset({f"{request.scheme}://{request.host}".lower()})
    origin = request.headers.get("Origin", "").lower()
    if origin not in allowed:
        raise web.HTTPForbidden(text="this socket serves the table's own page only")
    config, service = request.app[CONFIG], request.app[SERVICE]
    return await serve(request, config, lambda ws: Viewer(service, config, ws))


def create_app(service: TableService, config: WebConfig, *,
               public_url: str | None = None, activity: ActivityConfig | None = None
               ) -> web.Application:
    """The application serving ``service``'s tables (module docstring); with
    ``activity``, also the Discord Activity's routes (:mod:`bot.web.activity`)."""
    app = web.Application(middlewares=[_headers], client_max_size=64 * 1024)
    app[SERVICE] = service
    app[CONFIG] = config
    app[ORIGINS] = frozenset({origin_of(public_url)}) if public_url else frozenset()
    app.router.add_get("/", _page)
    app.router.add_get("/ws", _socket)
    assets = STATIC / "assets"
    if assets.is_dir():
        app.router.add_static("/assets/", assets, append_version=False)

    async def close_sockets(app: web.Application) -> None:
        for ws in list(config.sockets):  # 1012: the page may reconnect (to another process)
            await ws.close(code=WSCloseCode.SERVICE_RESTART)

    app.on_shutdown.append(close_sockets)
    if config.relay is not None:  # several processes: the owner's side of a relay
        from bot.web.relay import install as install_relay

        install_relay(app, service, config)
    if activity is not None:
        from bot.web.activity import install

        install(app, activity)
    return app


class WebServer:
    """The application on a host and port (``port`` 0: a free one)."""

    def __init__(self, service: TableService, config: WebConfig, *, host: str = "127.0.0.1",
                 port: int = 0, public_url: str | None = None,
                 activity: ActivityConfig | None = None) -> None:
        self.service = service
        self.activity = activity
        self.config = config
        self.host = host
        self.port = port
        self.public_url = public_url
        self.runner: web.AppRunner | None = None
        self._on_stop: list[Callable[[], Awaitable[None]]] = []

    def on_stop(self, call: Callable[[], Awaitable[None]]) -> None:
        """Await ``call()`` when the server stops (after its sockets closed)."""
        self._on_stop.append(call)

    async def start(self) -> str:
        """Listen; returns the base URL (``public_url`` when given)."""
        app = create_app(self.service, self.config, public_url=self.public_url,
                         activity=self.activity)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.host, self.port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        if sockets:
            self.port = int(sockets[0].getsockname()[1])
        return self.base_url

    @property
    def base_url(self) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def presence(self) -> Presence:
        """Who has a socket on which table (:mod:`bot.web.presence`)."""
        return self.config.presence

    def use_lobby(self, rights: LobbyRights) -> None:
        """Offer the lobby's actions on the web, with ``rights`` (the bot's Discord rights)."""
        self.config.lobby = rights

    link_ttl = links.DEFAULT_TTL
    """Seconds a link made by :meth:`link` works (the Discord adapter tells players)."""

    def link(self, table: int, user: int, role: links.Role = "seat") -> str:
        key = links.issue(self.config.secret, table, user, role, self.config.clock())
        return f"{self.base_url}/#k={key}"

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        for call in self._on_stop:
            await call()

"""The web table's aiohttp application: the page, its assets and ``/ws``.

* ``GET /`` — the page (``bot/web/static/index.html``, built from ``web/`` and shipped in
  the package); ``GET /assets/…`` — its script, styles and card faces.
* ``GET /ws`` — one WebSocket per viewer (:class:`bot.web.viewer.Viewer`, admitted by a
  link's key: :class:`bot.web.admission.LinkAdmission`). Its ``Origin`` must be the page's
  own origin (``TRICKTABLE_WEB_URL``'s when set, else the request's host): another site's
  page cannot open a socket with a visitor's cookies or key.
* Pages of their own, added by the composition root through :attr:`WebServer.routes`
  (a duplicate event's page: :mod:`bot.web_events`).
* ``GET /ws/relay`` — with several processes, the owner's side of a socket another
  process received (:mod:`bot.web.relay`).
* Every answer carries a Content-Security-Policy allowing only this origin (scripts,
  styles, images, the socket), no framing, no referrer.
* **Limits** (``docs/web.md``): a connection has ``header_timeout`` seconds to send a whole
  request and is closed after as long idle; sockets are capped per client address, per
  user, per link and in total (:mod:`bot.web.registry`); the loggers a client can make
  write are throttled (:mod:`bot.web.limits`).
* **Stopping**: every socket is closed with 1012 (service restart) and a reason; the page
  reconnects to whoever serves the table next.

:class:`WebServer` runs the application on a host and port and makes the links
(:mod:`bot.web.links`): ``server.link(table, user, "seat")`` is
``<base>/#k=<key>``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web

from bot.service import TableService
from bot.web import links
from bot.web.access import Access, ChannelAccess
from bot.web.admission import LinkAdmission
from bot.web.config import WebConfig
from bot.web.limits import throttle_logs
from bot.web.lobby import LobbyRights
from bot.web.presence import Presence
from bot.web.sockets import CONFIG, ORIGINS, SERVICE, serve

if TYPE_CHECKING:
    from bot.web.activity import ActivityConfig

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
"""The built page (package data)."""

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'none'")
RESTARTING = b"the server is restarting"
"""The reason of the 1012 close every socket gets when the server stops."""
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


async def _server_name(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, sockets' included, names the server without its software versions."""
    response.headers["Server"] = "tricktable"


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
    config = request.app[CONFIG]
    return await serve(request, config, lambda address: LinkAdmission(config.secret))


def create_app(service: TableService, config: WebConfig, *,
               public_url: str | None = None, activity: ActivityConfig | None = None,
               routes: Sequence[Callable[[web.Application], None]] = ()
               ) -> web.Application:
    """The application serving ``service``'s tables (module docstring); with
    ``activity``, also the Discord Activity's routes (:mod:`bot.web.activity`)."""
    app = web.Application(middlewares=[_headers], client_max_size=64 * 1024)
    app[SERVICE] = service
    app[CONFIG] = config
    app[ORIGINS] = frozenset({origin_of(public_url)}) if public_url else frozenset()
    app.on_response_prepare.append(_server_name)
    app.router.add_get("/", _page)
    app.router.add_get("/ws", _socket)
    assets = STATIC / "assets"
    if assets.is_dir():
        app.router.add_static("/assets/", assets, append_version=False)

    async def close_sockets(app: web.Application) -> None:
        # 1012: the page may reconnect (to another process)
        await asyncio.gather(*(ws.close(code=WSCloseCode.SERVICE_RESTART, message=RESTARTING)
                               for ws in config.sockets), return_exceptions=True)

    app.on_shutdown.append(close_sockets)
    if config.relay is not None:  # several processes: the owner's side of a relay
        from bot.web.relay import install as install_relay

        install_relay(app, service, config)
    if activity is not None:
        from bot.web.activity import install

        install(app, activity)
    for add in routes:  # pages of their own (a duplicate event's: bot.web_events)
        add(app)
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
        self.routes: list[Callable[[web.Application], None]] = []
        """Installers of pages of their own, added to the application at :meth:`start`."""

    def on_stop(self, call: Callable[[], Awaitable[None]]) -> None:
        """Await ``call()`` when the server stops (after its sockets closed)."""
        self._on_stop.append(call)

    async def start(self) -> str:
        """Listen; returns the base URL (``public_url`` when given)."""
        app = create_app(self.service, self.config, public_url=self.public_url,
                         activity=self.activity, routes=self.routes)
        throttle_logs()
        self.runner = web.AppRunner(app, access_log=None,
                                    keepalive_timeout=self.config.header_timeout,
                                    shutdown_timeout=5.0)
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

    @property
    def access(self) -> Access:
        """Who may still read a table's channel, and the admitted sockets by table and
        user (:meth:`Access.revoke` closes a user's pages: :mod:`bot.web.access`)."""
        return self.config.access

    def use_access(self, check: ChannelAccess) -> None:
        """Admit and keep a socket only while its user may read the table's channel,
        as ``check`` (the bot's Discord view) says."""
        self.config.access.check = check

    link_ttl = links.DEFAULT_TTL
    """Seconds a link made by :meth:`link` works (the Discord adapter tells players)."""

    def link(self, table: int, user: int, role: links.Role = "seat") -> str:
        key = links.issue(self.config.secret, table, user, role, self.config.clock())
        return f"{self.base_url}/#k={key}"

    async def revoke(self, table: int, user: int, reason: str, *,
                     role: links.Role | None = None) -> int:
        """End every socket ``user`` has open at ``table`` (only those of ``role`` when
        given): each page gets a ``closed`` frame saying ``reason`` (a message id,
        ``N_``, worded in its language) and does not reconnect; its link then opens the
        table only if the next admission allows it. Returns how many sockets ended. For
        the bot's revocations (a holder who lost the channel, was banned or left the
        seat)."""
        return await self.config.sockets.revoke(table, user, reason, role=role)

    async def stop(self) -> None:
        """Close every socket (1012, :data:`RESTARTING`), stop listening, then the
        ``on_stop`` calls; a second call does nothing."""
        runner, self.runner = self.runner, None
        if runner is None:
            return
        await runner.cleanup()
        for call in self._on_stop:
            await call()

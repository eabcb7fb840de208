"""``tricktable run`` with ``TRICKTABLE_WEB_PORT``: the bot's process also serves the web
table, on the bot's own table service.

Variables: ``TRICKTABLE_WEB_PORT`` (serve when set; ``0``: any free port),
``TRICKTABLE_WEB_HOST`` (default ``0.0.0.0``), ``TRICKTABLE_WEB_URL`` (the public base URL
put in links, e.g. ``https://tables.example.org``; its origin is the only one whose pages
may open a socket; default ``http://HOST:PORT``) and ``TRICKTABLE_WEB_SECRET`` (the key
that signs links, at least 32 characters; unset: one is made once and kept in the
database, so links survive restarts and work in every process on it);
``TRICKTABLE_WEB_INTERNAL_URL`` (with several processes: where the others reach this
one's server; default ``http://HOST:PORT``, the machine's name for ``0.0.0.0``).

:func:`attach` wraps a bot's ``setup_hook`` and ``close``: once the bot set up its table
service, the web server starts on it (``bot.web_server``: the
:class:`~bot.web.server.WebServer`, whose ``link(table, user, role)`` the Discord adapter
hands out); it stops when the bot closes. ``tricktable run`` also gives it the Discord
Activity's configuration (``DISCORD_CLIENT_SECRET``, ``docs/activity.md``) and the bot's
duplicate service (``bot.duplicate``: a finished board's reveal on the page), and binds the
table message's **Open table** links to it when ``TRICKTABLE_WEB_URL`` is set. A page's
words are in the player's chosen language (``/language``), else English.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from bot.cluster import ClusterNode
from bot.cluster.addresses import WebAddresses
from bot.web import links
from bot.web.activity import ActivityConfig
from bot.web.event_page import DuplicateWeb
from bot.web.relay import OwnerRelay
from bot.web.reveals import WebReveals
from bot.web.server import WebServer
from bot.web.viewer import WebConfig
from storage.base import Store

log = logging.getLogger(__name__)

SECRET_NAME = "web-links"
"""The name the generated link key is kept under (``storage.secrets``)."""


@dataclass(frozen=True)
class WebSettings:
    port: int
    host: str = "0.0.0.0"
    url: str | None = None
    internal: str | None = None
    """``TRICKTABLE_WEB_INTERNAL_URL``: where the other processes reach this one's server
    (None: :meth:`internal_url` derives it)."""

    def internal_url(self, port: int) -> str:
        """This server's address for the other processes: ``TRICKTABLE_WEB_INTERNAL_URL``,
        else ``http://HOST:PORT`` (the machine's name when listening on every address)."""
        if self.internal:
            return self.internal.rstrip("/")
        host = socket.gethostname() if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"

    @staticmethod
    def from_env(environ: Mapping[str, str] | None = None) -> WebSettings | None:
        """The settings, ``None`` when ``TRICKTABLE_WEB_PORT`` is not set; ValueError with
        one line naming the bad variable."""
        env = os.environ if environ is None else environ
        port = env.get("TRICKTABLE_WEB_PORT", "").strip()
        if not port:
            return None
        if not port.isdigit() or int(port) > 65535:
            raise ValueError("TRICKTABLE_WEB_PORT must be a port number from 0 to 65535")
        url = env.get("TRICKTABLE_WEB_URL", "").strip() or None
        if url is not None:
            parts = urlsplit(url)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError("TRICKTABLE_WEB_URL must be an http:// or https:// address")
        host = env.get("TRICKTABLE_WEB_HOST", "").strip() or "0.0.0.0"
        internal = env.get("TRICKTABLE_WEB_INTERNAL_URL", "").strip() or None
        if internal is not None:
            parts = urlsplit(internal)
            if parts.scheme not in ("http", "https") or not parts.netloc:
                raise ValueError(
                    "TRICKTABLE_WEB_INTERNAL_URL must be an http:// or https:// address")
        return WebSettings(int(port), host, url, internal)


async def web_secret(store: Store, environ: Mapping[str, str] | None = None) -> bytes:
    """``TRICKTABLE_WEB_SECRET``, else the key kept in the database (made the first
    time)."""
    env = dict(os.environ if environ is None else environ)
    if env.get(links.SECRET_ENV):
        return links.secret_from(env)
    kept = await store.keep_secret(SECRET_NAME, secrets.token_urlsafe(48))
    return kept.encode("ascii")


async def start(service: Any, store: Store, settings: WebSettings,
                environ: Mapping[str, str] | None = None, *,
                activity: ActivityConfig | None = None,
                node: ClusterNode | None = None,
                duplicate: DuplicateWeb | None = None) -> WebServer:
    """The web server of ``service``, listening (with the Discord Activity's routes when
    ``activity`` is given, :mod:`bot.web.activity`). With the ``node`` of a process that
    runs some of the shards, a socket for another process's table is relayed to its owner
    (:mod:`bot.web.relay`) and this process's address is recorded for its shards. With the
    process's ``duplicate`` service, a seat whose duplicate board ended gets its reveal
    (:mod:`bot.web.reveals`)."""

    async def language(user: int) -> str:
        return await store.get_player_language(user) or "en"

    config = WebConfig(secret=await web_secret(store, environ), language=language,
                       reveals=None if duplicate is None else WebReveals(duplicate))
    relay = None
    if node is not None and not node.ownership.everything:
        relay = config.relay = OwnerRelay(store, node.ownership, config)
    server = WebServer(service, config, host=settings.host, port=settings.port,
                       public_url=settings.url, activity=activity)
    if duplicate is not None:  # its events' pages (bot.web.event_page)
        from bot.web.event_page import EventPages

        server.event_pages = EventPages(duplicate, config.secret, config.clock)
        server.routes.append(server.event_pages.install)
    base = await server.start()
    if relay is not None and node is not None:
        await relay.listen(WebAddresses(store, node.ownership,
                                        settings.internal_url(server.port),
                                        lambda: node.locked))
        server.on_stop(relay.close)
    log.info("serving the web table at %s", base)
    return server


def attach(bot: Any, settings: WebSettings, *,
           activity: Callable[[], ActivityConfig | None] = lambda: None,
           started: Callable[[WebServer], None] = lambda server: None) -> None:
    """Serve the web table from ``bot`` once it is set up (module docstring): with the
    Activity's routes when ``activity()`` (asked once the bot is logged in) gives a
    configuration; ``started(server)`` is called once it listens (the Discord adapter binds
    its **Open table** links there)."""
    setup_hook, close = bot.setup_hook, bot.close
    bot.web_server = None

    async def setup_with_web() -> None:
        await setup_hook()
        bot.web_server = await start(bot.service, bot.store, settings, activity=activity(),
                                     node=getattr(bot, "node", None),
                                     duplicate=getattr(bot, "duplicate", None))
        started(bot.web_server)

    async def close_with_web() -> None:
        server = bot.web_server
        if server is not None:
            await server.stop()
        await close()

    bot.setup_hook = setup_with_web
    bot.close = close_with_web

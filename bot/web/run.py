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

:class:`WebSettings` reads them; :func:`start` starts a
:class:`~bot.web.server.WebServer` on a table service. The bot builds it in its
``setup_hook`` from its ``web`` constructor argument and stops it in ``close``
(:class:`bot.app.TricktableBot`): with the Discord Activity's configuration
(``DISCORD_CLIENT_SECRET``, ``docs/activity.md``), the duplicate service's reveals
(:class:`bot.web.reveals.Reveals`), and the table message's **Open table** links bound to
it when ``TRICKTABLE_WEB_URL`` is set. A page's words are in the player's chosen language
(``/language``), else English.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from bot.cluster import ClusterNode
from bot.cluster.addresses import WebAddresses
from bot.service import TableService
from bot.web import links
from bot.web.activity import ActivityConfig
from bot.web.relay import OwnerRelay
from bot.web.reveals import Reveals
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


async def start(service: TableService, store: Store, settings: WebSettings,
                environ: Mapping[str, str] | None = None, *,
                activity: ActivityConfig | None = None,
                node: ClusterNode | None = None,
                reveals: Reveals | None = None) -> WebServer:
    """The web server of ``service``, listening (with the Discord Activity's routes when
    ``activity`` is given, :mod:`bot.web.activity`). With the ``node`` of a process that
    runs some of the shards, a socket for another process's table is relayed to its owner
    (:mod:`bot.web.relay`) and this process's address is recorded for its shards. With the
    process's duplicate ``reveals``, a seat whose duplicate board ended gets its reveal
    (:mod:`bot.web.reveals`)."""

    async def language(user: int) -> str:
        return await store.get_player_language(user) or "en"

    config = WebConfig(secret=await web_secret(store, environ), language=language,
                       reveals=reveals)
    relay = None
    if node is not None and not node.ownership.everything:
        relay = config.relay = OwnerRelay(store, node.ownership, config)
    server = WebServer(service, config, host=settings.host, port=settings.port,
                       public_url=settings.url, activity=activity)
    base = await server.start()
    if relay is not None and node is not None:
        await relay.listen(WebAddresses(store, node.ownership,
                                        settings.internal_url(server.port),
                                        lambda: node.locked))
        server.on_stop(relay.close)
    log.info("serving the web table at %s", base)
    return server

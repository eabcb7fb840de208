"""``tricktable run`` with ``TRICKTABLE_WEB_PORT``: the bot's process also serves the web
table, on the bot's own table service.

Variables: ``TRICKTABLE_WEB_PORT`` (serve when set; ``0``: any free port),
``TRICKTABLE_WEB_HOST`` (default ``127.0.0.1``: behind a reverse proxy on the same
machine), ``TRICKTABLE_WEB_URL`` (the public base URL put in links, e.g.
``https://tables.example.org``; its origin is the only one whose pages may open a socket;
default ``http://HOST:PORT``), ``TRICKTABLE_WEB_PROXY`` (``forwarded``: a reverse proxy in
front sets ``X-Forwarded-For``, whose last address is the client's; ``none``: players
reach this port directly; required when listening on every interface, ``0.0.0.0`` or
``::``; default ``forwarded`` on a loopback address, else ``none``) and
``TRICKTABLE_WEB_SECRET`` (the key that signs links, at least 32 characters of some
variety; unset: one is made once and kept in the database, so links survive restarts and
work in every process on it); ``TRICKTABLE_WEB_INTERNAL_URL`` (with several processes:
where the others reach this one's server; default ``http://HOST:PORT``, the machine's name
for ``0.0.0.0``).

:meth:`WebSettings.from_env` checks them all before the bot logs in (one line naming the
variable, exit 2): a bad port or URL, a short or repetitive secret, an ``http://`` URL
with the Discord Activity on (``DISCORD_CLIENT_SECRET``: tokens and hands would cross the
internet in clear; a loopback URL is allowed, for trying it on one machine), and a
wildcard host without ``TRICKTABLE_WEB_PROXY`` (``docs/web.md``, "Behind a reverse
proxy").

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from aiohttp import web

from bot.cluster import ClusterNode
from bot.cluster.addresses import WebAddresses
from bot.service import TableService
from bot.web import links
from bot.web.activity import ActivityConfig
from bot.web.config import WebConfig
from bot.web.relay import OwnerRelay
from bot.web.reveals import Reveals
from bot.web.server import WebServer
from storage.base import Store

log = logging.getLogger(__name__)

SECRET_NAME = "web-links"
"""The name the generated link key is kept under (``storage.secrets``)."""


WILDCARDS = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "::1", "localhost")
PROXIES = ("forwarded", "none")
MIN_VARIETY = 8
"""Different characters a ``TRICKTABLE_WEB_SECRET`` holds at least (``aaaa…`` is not a
secret)."""


class WebSettingError(ValueError):
    """A web setting the bot refuses to start with (one line naming the variable)."""


@dataclass(frozen=True)
class WebSettings:
    port: int
    host: str = "127.0.0.1"
    url: str | None = None
    internal: str | None = None
    """``TRICKTABLE_WEB_INTERNAL_URL``: where the other processes reach this one's server
    (None: :meth:`internal_url` derives it)."""
    proxy: str = "forwarded"
    """``TRICKTABLE_WEB_PROXY`` (module docstring)."""

    def internal_url(self, port: int) -> str:
        """This server's address for the other processes: ``TRICKTABLE_WEB_INTERNAL_URL``,
        else ``http://HOST:PORT`` (the machine's name when listening on every address)."""
        if self.internal:
            return self.internal.rstrip("/")
        host = socket.gethostname() if self.host in WILDCARDS else self.host
        return f"http://{f'[{host}]' if ':' in host else host}:{port}"

    @staticmethod
    def from_env(environ: Mapping[str, str] | None = None) -> WebSettings | None:
        """The settings, ``None`` when ``TRICKTABLE_WEB_PORT`` is not set;
        :class:`WebSettingError` with one line naming the bad variable (module
        docstring)."""
        env = os.environ if environ is None else environ
        port = env.get("TRICKTABLE_WEB_PORT", "").strip()
        if not port:
            return None
        if not port.isdigit() or int(port) > 65535:
            raise WebSettingError("TRICKTABLE_WEB_PORT must be a port number from 0 to 65535")
        url = _address(env, "TRICKTABLE_WEB_URL")
        internal = _address(env, "TRICKTABLE_WEB_INTERNAL_URL")
        if (url is not None and urlsplit(url).scheme == "http"
                and env.get("DISCORD_CLIENT_SECRET", "").strip()
                and urlsplit(url).hostname not in LOOPBACK):
            raise WebSettingError(
                "TRICKTABLE_WEB_URL must be an https:// address when the Discord Activity is "
                "on (DISCORD_CLIENT_SECRET): put TLS at the reverse proxy (docs/web.md)")
        host = env.get("TRICKTABLE_WEB_HOST", "").strip() or "127.0.0.1"
        proxy = env.get("TRICKTABLE_WEB_PROXY", "").strip().lower()
        if proxy and proxy not in PROXIES:
            raise WebSettingError("TRICKTABLE_WEB_PROXY must be 'forwarded' (a reverse proxy "
                                  "sets X-Forwarded-For) or 'none'")
        if host in WILDCARDS and not proxy:
            raise WebSettingError(
                f"TRICKTABLE_WEB_HOST={host or '(empty)'} listens on every interface: set "
                "TRICKTABLE_WEB_HOST=127.0.0.1 behind a reverse proxy on this machine, or say "
                "TRICKTABLE_WEB_PROXY=forwarded (a proxy elsewhere reaches this port) or "
                "TRICKTABLE_WEB_PROXY=none (players reach it directly) (docs/web.md)")
        if not proxy:
            proxy = "forwarded" if host in LOOPBACK else "none"
        _check_secret(env.get(links.SECRET_ENV, ""))
        return WebSettings(int(port), host, url, internal, proxy)


def _address(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip() or None
    if value is not None:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise WebSettingError(f"{name} must be an http:// or https:// address")
    return value


def _check_secret(value: str) -> None:
    """``TRICKTABLE_WEB_SECRET`` (unset: fine, one is kept in the database): long enough
    and not a repetition. The value is never echoed."""
    if not value:
        return
    if len(value) < links.MIN_SECRET:
        raise WebSettingError(f"{links.SECRET_ENV} must be at least {links.MIN_SECRET} "
                              f"characters (it has {len(value)})")
    if len(set(value)) < MIN_VARIETY:
        raise WebSettingError(
            f"{links.SECRET_ENV} must hold at least {MIN_VARIETY} different characters: use "
            "a random one (python -c 'import secrets; print(secrets.token_urlsafe(48))')")


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
                reveals: Reveals | None = None,
                routes: Sequence[Callable[[web.Application], None]] = ()) -> WebServer:
    """The web server of ``service``, listening (with the Discord Activity's routes when
    ``activity`` is given, :mod:`bot.web.activity`). With the ``node`` of a process that
    runs some of the shards, a socket for another process's table is relayed to its owner
    (:mod:`bot.web.relay`) and this process's address is recorded for its shards. With the
    process's duplicate ``reveals``, a seat whose duplicate board ended gets its reveal
    (:mod:`bot.web.reveals`). ``routes`` add pages of their own to the application (a
    duplicate event's: :mod:`bot.web_events`)."""

    async def language(user: int) -> str:
        return await store.get_player_language(user) or "en"

    config = WebConfig(secret=await web_secret(store, environ), language=language,
                       reveals=reveals, forwarded=settings.proxy == "forwarded")
    relay = None
    if node is not None and not node.ownership.everything:
        relay = config.relay = OwnerRelay(store, node.ownership, config)
    server = WebServer(service, config, host=settings.host, port=settings.port,
                       public_url=settings.url, activity=activity)
    server.routes.extend(routes)
    base = await server.start()
    if relay is not None and node is not None:
        await relay.listen(WebAddresses(store, node.ownership,
                                        settings.internal_url(server.port),
                                        lambda: node.locked))
        server.on_stop(relay.close)
    log.info("serving the web table at %s", base)
    return server

"""The web table as a Discord Activity: the OAuth2 code exchange and the Activity viewer's
socket (``docs/activity.md``).

The page, inside Discord, gets an authorization code from the Embedded App SDK
(``commands.authorize``, scope ``identify``) and:

1. ``POST /api/token`` with ``{"code": CODE}`` → ``{"access_token": TOKEN}``: the server
   exchanges the code at Discord's token endpoint (``<api>/oauth2/token``, the API base
   of ``TRICKTABLE_DISCORD_API``) with the application id as client id and
   ``DISCORD_CLIENT_SECRET``. A code works once (Discord refuses a second exchange:
   ``invalid_grant``, answered 400 ``{"error": "invalid_grant"}``);
2. opens ``/ws/activity`` and sends first ``{"v": 1, "type": "activity", "access_token":
   TOKEN, "instance_id": INSTANCE}``. The server asks ``GET <api>/oauth2/@me`` with the
   token who it is for (a token of another application is refused: the user is learned
   from the same answer, as ``/users/@me`` would say it) and
   ``GET <api>/applications/{app}/activity-instances/{instance}`` with the bot token
   whether that user is in the instance; the instance's ``location.channel_id`` names the
   table (the open table of that channel). A seated user gets their seat, anyone else the
   public view; from there the socket is the web table's (:class:`bot.web.viewer.Viewer`).
   A channel without an open table where the user's duplicate entrant finished a board
   within :data:`AFTER_END` admits them to that board's (closed) table as a seat: the web
   table's after-the-end path sends the board's reveal, then ``closed`` (a reload after the
   board's end, as a seat's link gets it; ``docs/duplicate.md``).

**Security.** The client secret is read from the environment only, sent to Discord only
(in the body of the token request, never in a URL), never logged and never in an answer;
``repr`` of the config hides it and the bot token. An access token passes through the
server twice (the token answer, the socket's first frame) and is forgotten once the user
is known; neither it nor the code is logged. A user not in the instance, an unknown or
ended instance, a channel without an open table (and no board of the user's finished
there lately), a token Discord refuses or one issued
to another application: the socket gets a fatal error frame and nothing else.

**Ending.** Each socket re-checks its instance every ``recheck`` seconds (default 15);
the instance's answer is shared by the sockets of one instance for that long, so an
instance costs Discord one request per period whatever its number of viewers. When the
instance ended (Discord no longer knows it) or the user left it, the socket gets a
``closed`` frame and is closed. A check Discord could not answer (network, 5xx, 429)
keeps the socket.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from bot.i18n import N_, SOURCE_LANGUAGE, match_language, translator
from bot.service import TableService
from bot.web import links
from bot.web.protocol import VERSION
from bot.web.sockets import CONFIG, ORIGINS, SERVICE
from bot.web.viewer import BAD_LINK, Refuse, Viewer, WebConfig
from storage import ChannelLocation

log = logging.getLogger(__name__)

SECRET_ENV = "DISCORD_CLIENT_SECRET"
DISCORD_API = "https://discord.com/api/v10"
RECHECK = 15.0
MAX_FIELD = 512
_INSTANCE_ID = re.compile(r"[A-Za-z0-9_:.\-]{1,128}")
AFTER_END = dt.timedelta(hours=6)
"""How long after a duplicate board's end the Activity of its table's channel, finding no
open table there, still shows the board's reveal to the members of the entrant that
finished it."""

NOT_IN_INSTANCE = N_("This Activity does not open a table for you: close it and open it "
                     "again from the table message.")
NO_TABLE_HERE = N_("There is no open table in this Activity's channel.")
ACTIVITY_ENDED = N_("The Activity has ended.")


@dataclass(frozen=True)
class ActivityConfig:
    """How the server talks to Discord for the Activity (secrets hidden from ``repr``)."""

    application_id: int
    client_secret: str = field(repr=False)
    bot_token: str = field(repr=False)
    api: str = DISCORD_API
    """Discord's REST API base (``TRICKTABLE_DISCORD_API``), without a trailing slash."""
    recheck: float = RECHECK
    """Seconds between two checks of a socket's instance."""
    timeout: float = 10.0

    @staticmethod
    def from_env(application_id: int, bot_token: str, api: str | None = None,
                 environ: Mapping[str, str] | None = None) -> ActivityConfig | None:
        """The config when ``DISCORD_CLIENT_SECRET`` is set (None: no Activity)."""
        secret = (os.environ if environ is None else environ).get(SECRET_ENV, "").strip()
        if not secret:
            return None
        return ActivityConfig(application_id, secret, bot_token,
                              (api or DISCORD_API).rstrip("/"))


@dataclass(frozen=True)
class Instance:
    """What the server needs of an Activity instance."""

    instance_id: str
    guild_id: int | None
    channel_id: int
    users: frozenset[int]


class Denied(Exception):
    """Discord refused (``code``: ``invalid_grant``, ``invalid_client``, ``token``,
    ``application``)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class Unavailable(Exception):
    """Discord could not be asked now (network, 5xx, 429)."""


class DiscordAuth:
    """The three calls the Activity needs (module docstring), on one HTTP session."""

    def __init__(self, config: ActivityConfig,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.session: aiohttp.ClientSession | None = None
        self._instances: dict[str, tuple[float, Instance | None]] = {}
        self.faces: dict[int, str] = {}
        """The avatar URL of each user whose token was read (:func:`avatar_url`)."""

    async def start(self) -> None:
        self.session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=self.config.timeout))

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None

    async def _call(self, method: str, path: str, *, headers: dict[str, str],
                    data: dict[str, str] | None = None) -> tuple[int, Any]:
        assert self.session is not None, "DiscordAuth.start() first"
        try:
            async with self.session.request(method, self.config.api + path, headers=headers,
                                            data=data) as response:
                status = response.status
                try:
                    body = await response.json(content_type=None)
                except ValueError:
                    body = None
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise Unavailable(type(exc).__name__) from None
        if status == 429 or status >= 500:
            raise Unavailable(str(status))
        return status, body

    async def exchange(self, code: str) -> str:
        """The access token for an authorization code (:class:`Denied` ``invalid_grant``
        for a code Discord refuses, ``invalid_client`` when it refuses our secret)."""
        status, body = await self._call(
            "POST", "/oauth2/token",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            data={"client_id": str(self.config.application_id),
                  "client_secret": self.config.client_secret,
                  "grant_type": "authorization_code", "code": code})
        token = body.get("access_token") if isinstance(body, dict) else None
        if status == 200 and isinstance(token, str) and token:
            return token
        error = body.get("error") if isinstance(body, dict) else None
        if error == "invalid_client":
            log.error("Discord refused the Activity's client (check %s and the application "
                      "id)", SECRET_ENV)
            raise Denied("invalid_client")
        raise Denied("invalid_grant")

    async def user_of(self, access_token: str) -> int:
        """The user an access token of this application is for (:class:`Denied`
        ``token`` when Discord refuses it, ``application`` for another application's)."""
        status, body = await self._call("GET", "/oauth2/@me",
                                        headers={"Authorization": f"Bearer {access_token}"})
        if status != 200 or not isinstance(body, dict):
            raise Denied("token")
        app = body.get("application") or {}
        user = body.get("user") or {}
        if str(app.get("id")) != str(self.config.application_id):
            raise Denied("application")
        try:
            user_id = int(user["id"])
        except (KeyError, TypeError, ValueError):
            raise Denied("token") from None
        self.faces[user_id] = avatar_url(user_id, user.get("avatar"))
        return user_id

    async def instance(self, instance_id: str, *, fresh: bool = False) -> Instance | None:
        """The instance (None: Discord does not know it, or it ended). Answers are kept
        ``recheck`` seconds for the periodic checks; ``fresh`` asks Discord (a join)."""
        now = self.clock()
        held = self._instances.get(instance_id)
        if not fresh and held is not None and now - held[0] < self.config.recheck:
            return held[1]
        status, body = await self._call(
            "GET", f"/applications/{self.config.application_id}/activity-instances/"
                   f"{instance_id}",
            headers={"Authorization": f"Bot {self.config.bot_token}"})
        found = _instance(body) if status == 200 else None
        self._instances = {k: v for k, v in self._instances.items()
                           if now - v[0] < self.config.recheck}
        self._instances[instance_id] = (now, found)
        return found


CDN = "https://cdn.discordapp.com"
"""Discord's CDN, where avatars are (the Activity's pages may show its images)."""
_AVATAR_HASH = re.compile(r"(a_)?[0-9a-f]{32}")


def avatar_url(user_id: int, avatar: object) -> str:
    """A user's avatar on Discord's CDN (64 px, PNG): their own when ``avatar`` is its hash,
    else Discord's default avatar for the id (``(id >> 22) % 6``)."""
    if isinstance(avatar, str) and _AVATAR_HASH.fullmatch(avatar):
        return f"{CDN}/avatars/{user_id}/{avatar}.png?size=64"
    return f"{CDN}/embed/avatars/{(user_id >> 22) % 6}.png"


def _instance(body: Any) -> Instance | None:
    try:
        location = body["location"]
        guild = location.get("guild_id")
        return Instance(str(body["instance_id"]), None if guild is None else int(guild),
                        int(location["channel_id"]),
                        frozenset(int(u) for u in body.get("users") or []))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


class ActivityViewer(Viewer):
    """A socket opened by the Activity: joined with an access token and an instance
    (module docstring), closed when the instance ends or its user leaves it."""

    def __init__(self, service: TableService, config: WebConfig, ws: web.WebSocketResponse,
                 auth: DiscordAuth) -> None:
        super().__init__(service, config, ws)
        self.auth = auth
        self.instance_id = ""
        self.user = 0
        self._watch: asyncio.Task[None] | None = None
        self._after_end = False
        """Admitted to a finished duplicate board's table (:meth:`_finished_board`)."""

    async def run(self) -> None:
        try:
            await super().run()
        finally:
            if self._watch is not None:
                self._watch.cancel()
                await asyncio.gather(self._watch, return_exceptions=True)

    async def _admit(self) -> links.Pass:
        refused = Refuse("activity", self.t.gettext(NOT_IN_INSTANCE))
        try:
            msg = await self.ws.receive(timeout=self.config.join_timeout)
        except TimeoutError:
            raise refused from None
        frame = self._parse(msg)
        token = None if frame is None else frame.get("access_token")
        instance_id = None if frame is None else frame.get("instance_id")
        if (frame is None or frame.get("type") != "activity" or not isinstance(token, str)
                or not 0 < len(token) <= MAX_FIELD or not isinstance(instance_id, str)
                or not _INSTANCE_ID.fullmatch(instance_id)):
            raise Refuse("join", self.t.gettext(BAD_LINK))
        try:
            user = await self.auth.user_of(token)
            instance = await self.auth.instance(instance_id, fresh=True)
        except (Denied, Unavailable):
            raise refused from None
        del token  # the access token is not kept past this point
        self.t = translator(await self.config.language(user))
        if instance is None or user not in instance.users:
            raise Refuse("activity", self.t.gettext(NOT_IN_INSTANCE))
        face = self.auth.faces.get(user)
        if face is not None:  # shown with the user's seat on every page of the table
            self.config.avatars[user] = face
        admitted = await self._table_of(instance, user)
        if admitted is None:
            raise Refuse("table", self.t.gettext(NO_TABLE_HERE))
        self.instance_id, self.user = instance_id, user
        self._watch = asyncio.create_task(self._follow(), name=f"activity-{instance_id}")
        return admitted

    async def _table_of(self, instance: Instance, user: int) -> links.Pass | None:
        """The open table of the instance's channel, as a pass for ``user``: their seat
        when they sit there, else the public view. A table another process owns is found
        through the relay (``docs/scale.md``); without an open table, the duplicate board
        the user's entrant finished there lately (:meth:`_finished_board`)."""
        if instance.guild_id is None:
            return None
        where = ChannelLocation(instance.guild_id, instance.channel_id)
        table = self.service.find(where)
        if table is not None:
            seated = self.service.seat_of(table, user) is not None
            return links.Pass(table, user, "seat" if seated else "watch", 0)
        relay = self.config.relay
        found = None if relay is None else await relay.find(where, user)
        return found if found is not None else await self._finished_board(where, user)

    async def _finished_board(self, where: ChannelLocation, user: int) -> links.Pass | None:
        """A seat's pass to the table at ``where`` of the duplicate board ``user``'s entrant
        finished last, within :data:`AFTER_END` (module docstring); None: none. Who may see
        its reveal is decided where a seat's link decides it
        (:meth:`~bot.web.viewer.Viewer._revealed_after_end`)."""
        reveals = self.config.reveals
        if reveals is None:
            return None
        since = dt.datetime.fromtimestamp(self.config.clock(), dt.UTC) - AFTER_END
        table = await reveals.finished_table(where, user, since)
        if table is None:
            return None
        self._after_end = True
        return links.Pass(table, user, "seat", 0)

    async def _revealed_after_end(self, p: links.Pass) -> bool:
        """The viewer's after-the-end path; a finished board's table that shows nothing to
        this user (no reveal for them after all) gets the channel's usual refusal."""
        if await super()._revealed_after_end(p):
            return True
        if self._after_end:
            raise Refuse("table", self.t.gettext(NO_TABLE_HERE))
        return False

    async def _follow(self) -> None:
        """Close the socket once the instance ended or the user left it (module
        docstring)."""
        while not self.ws.closed:
            await asyncio.sleep(self.auth.config.recheck)
            try:
                instance = await self.auth.instance(self.instance_id)
            except Unavailable:
                continue
            if instance is None or self.user not in instance.users:
                await self._send({"v": VERSION, "type": "closed",
                                  "text": self.t.gettext(ACTIVITY_ENDED)})
                self.done = True
                await self.ws.close()
                return


# -- the routes ---------------------------------------------------------------------------
AUTH: web.AppKey[DiscordAuth] = web.AppKey("activity_auth", DiscordAuth)
DISCORD_FRAMES = "https://discord.com https://ptb.discord.com https://canary.discord.com"


def discordsays(application_id: int) -> str:
    """The origin of the Activity's frame (where Discord serves the page)."""
    return f"https://{application_id}.discordsays.com"


async def _token(request: web.Request) -> web.StreamResponse:
    """``POST /api/token`` (module docstring)."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    code = body.get("code") if isinstance(body, dict) else None
    if not isinstance(code, str) or not 0 < len(code) <= MAX_FIELD:
        return web.json_response({"error": "invalid_request"}, status=400)
    try:
        token = await request.app[AUTH].exchange(code)
    except Denied as exc:
        if exc.code == "invalid_client":
            return web.json_response({"error": "server_error"}, status=502)
        return web.json_response({"error": "invalid_grant"}, status=400)
    except Unavailable:
        return web.json_response({"error": "temporarily_unavailable"}, status=503)
    return web.json_response({"access_token": token})


def _page_config(application_id: int) -> Callable[[web.Request], Any]:
    """``GET /api/activity``: what the page needs before the handshake — the client id
    (the application id; the page's SDK needs it) and the sentence it shows when its
    code is refused, in the first language of ``Accept-Language`` the bot speaks."""

    async def answer(request: web.Request) -> web.StreamResponse:
        tags = [t.split(";")[0] for t in request.headers.get("Accept-Language", "").split(",")]
        language = next((m for m in map(match_language, tags) if m), SOURCE_LANGUAGE)
        return web.json_response({"client_id": str(application_id),
                                  "refused": translator(language).gettext(NOT_IN_INSTANCE)})

    return answer


def install(app: web.Application, config: ActivityConfig) -> None:
    """Add the Activity's routes to the web table's application: ``GET /api/activity``
    (the page's config), ``POST /api/token``, ``GET /ws/activity``; let Discord's clients
    frame the page (CSP ``frame-ancestors``); open and close the HTTP session with the
    application."""
    auth = DiscordAuth(config)
    app[AUTH] = auth
    frame = discordsays(config.application_id)

    async def socket(request: web.Request) -> web.StreamResponse:
        own = request.app[ORIGINS] or frozenset(
            {f"{request.scheme}://{request.host}".lower()})
        if request.headers.get("Origin", "").lower() not in own | {frame}:
            raise web.HTTPForbidden(text="this socket serves the table's own page only")
        web_config = request.app[CONFIG]
        ws = web.WebSocketResponse(heartbeat=25.0,
                                   max_msg_size=max(4 * web_config.max_frame, 8192))
        await ws.prepare(request)
        web_config.sockets.add(ws)
        try:
            await ActivityViewer(request.app[SERVICE], web_config, ws, auth).run()
        finally:
            web_config.sockets.discard(ws)
            await ws.close()
        return ws

    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        csp = response.headers.get("Content-Security-Policy")
        if csp:
            response.headers["Content-Security-Policy"] = csp.replace(
                "frame-ancestors 'none'", f"frame-ancestors {DISCORD_FRAMES}").replace(
                "img-src 'self' data:", f"img-src 'self' data: {CDN}")
            response.headers.pop("X-Frame-Options", None)
        if request.path == "/api/token":
            response.headers["Cache-Control"] = "no-store"

    async def start(app: web.Application) -> None:
        await auth.start()

    async def stop(app: web.Application) -> None:
        await auth.close()

    app.router.add_get("/api/activity", _page_config(config.application_id))
    app.router.add_post("/api/token", _token)
    app.router.add_get("/ws/activity", socket)
    app.on_response_prepare.append(headers)
    app.on_startup.append(start)
    app.on_cleanup.append(stop)

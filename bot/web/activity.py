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
is known (a SHA-256 digest of it is kept with Discord's answer, :class:`JoinLimits`);
neither it nor the code is logged. A user not in the instance, an unknown or ended
instance, a channel without an open table (and no board of the user's finished there
lately), a token Discord refuses or one issued to another application: the socket gets a
fatal error frame and nothing else.

**Budgets** (``docs/web.md``, "Limits"; issue 44). Anyone on the internet can open the
socket, so Discord is asked only what a real client could need: a token or an instance id
not shaped like Discord's is refused here (:data:`TOKEN`, :data:`INSTANCE_ID`); joins are
limited per client address, per user and in total; a token's answer is remembered; a
token not known yet is checked only while the budget of *refused* checks has room (the
most Discord can see refused from this server: 40 in a minute, 30 a minute after); the
bot-token look-ups have their own budget and, under ``tricktable run``, wait in the bot's
own discord.py rate limiter (:attr:`ActivityConfig.fetch`); ``POST /api/token`` is limited
per address and in total.

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
import hashlib
import logging
import os
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

from bot.i18n import N_, SOURCE_LANGUAGE, Translator, match_language, translator
from bot.web import links
from bot.web.admission import Admitting
from bot.web.config import BAD_LINK, Refuse
from bot.web.inbound import text_field
from bot.web.limits import Bucket, Buckets, Recent
from bot.web.sockets import CONFIG, ORIGINS, client_address, serve
from storage import ChannelLocation

log = logging.getLogger(__name__)

SECRET_ENV = "DISCORD_CLIENT_SECRET"
DISCORD_API = "https://discord.com/api/v10"
RECHECK = 15.0
MAX_FIELD = 512
TOKEN = re.compile(r"[A-Za-z0-9._~+/=-]{16,128}", re.ASCII)
"""An access token's shape (Discord's are 30 base64url characters): anything else is
refused without asking Discord."""
INSTANCE_ID = re.compile(r"i-[0-9]{1,20}-[a-z]{2}(?:-[0-9]{1,20}){1,2}", re.ASCII)
"""An instance id's shape, ``i-<launch>-gc-<guild>-<channel>`` (``pc-<channel>`` in a
private channel; Discord's snowflakes): anything else is refused without asking
Discord, and nothing else is ever put in a request's path."""
AFTER_END = dt.timedelta(hours=6)
"""How long after a duplicate board's end the Activity of its table's channel, finding no
open table there, still shows the board's reveal to the members of the entrant that
finished it."""

NOT_IN_INSTANCE = N_("This Activity does not open a table for you: close it and open it "
                     "again from the table message.")
NO_TABLE_HERE = N_("There is no open table in this Activity's channel.")
ACTIVITY_ENDED = N_("The Activity has ended.")
TOO_MANY_JOINS = N_("Too many attempts to open the Activity: wait a minute and open it "
                    "again.")

InstanceFetch = Callable[[int, str], Awaitable[tuple[int, Any]]]
"""``GET /applications/{app}/activity-instances/{instance}`` with the bot token: the
answer's status and JSON body. ``tricktable run`` sends it through the bot's own HTTP
client (discord.py's rate limiter, shared with every other request of the bot:
:func:`bot.discord_bot.activity_rest.instance_fetch`); without one, the Activity's own
session asks."""


@dataclass(frozen=True)
class JoinLimits:
    """How often the Activity asks Discord anything (``docs/web.md``, "Limits"):
    (rate per second, burst) pairs."""

    per_address: tuple[float, float] = (0.5, 20.0)
    """Activity joins from one client address (a household or a club shares one)."""
    per_user: tuple[float, float] = (0.25, 4.0)
    """Activity joins of one user (their token known)."""
    total: tuple[float, float] = (5.0, 20.0)
    """Activity joins of the whole server."""
    refused_tokens: tuple[float, float] = (0.5, 10.0)
    """``/oauth2/@me`` requests Discord refuses (401): a request for a token not known
    yet is made only while this budget has room, and a token Discord accepts gives its
    share back, so this is the most Discord can see refused from this server whatever
    clients send, and real players are not counted."""
    instances: tuple[float, float] = (2.0, 10.0)
    """Instance look-ups with the bot token (joins and re-checks together)."""
    exchanges_per_address: tuple[float, float] = (0.5, 20.0)
    """``POST /api/token`` from one client address."""
    exchanges: tuple[float, float] = (2.0, 20.0)
    """``POST /api/token`` of the whole server."""
    remember: float = 600.0
    """Seconds a token's answer (its user, or Discord's refusal) is kept."""


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
    limits: JoinLimits = field(default_factory=JoinLimits)
    fetch: InstanceFetch | None = field(default=None, repr=False, compare=False)
    """The bot's own way to ask for an instance (None: the Activity's session)."""

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
    """Discord could not be asked now (network, 5xx, 429, or this server's own budget
    for it spent)."""


class DiscordAuth:
    """The three calls the Activity needs (module docstring), on one HTTP session, each
    behind its budget (:class:`JoinLimits`): tokens Discord answered are remembered
    (:attr:`JoinLimits.remember`), instances kept ``recheck`` seconds for every socket."""

    def __init__(self, config: ActivityConfig,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.config = config
        self.clock = clock
        self.session: aiohttp.ClientSession | None = None
        self._instances: dict[str, tuple[float, Instance | None]] = {}
        limits = config.limits
        self.joins_by_address = Buckets(*limits.per_address, clock=clock)
        self.joins_by_user = Buckets(*limits.per_user, clock=clock)
        self.joins = Bucket(*limits.total, clock=clock)
        self.exchanges_by_address = Buckets(*limits.exchanges_per_address, clock=clock)
        self.exchanges = Bucket(*limits.exchanges, clock=clock)
        self._refusals = Bucket(*limits.refused_tokens, clock=clock)
        self._lookups = Bucket(*limits.instances, clock=clock)
        self._refused = Recent(limits.remember, clock=clock)
        self._users: dict[bytes, tuple[float, int]] = {}
        """A token's digest → (when Discord answered, its user)."""
        self._asking: dict[str, asyncio.Future[Instance | None]] = {}
        """The look-ups under way: a second join of the instance waits for the first's."""
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
        _raise_unavailable(status)
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
        ``token`` when Discord refuses it or it is not shaped like one, ``application``
        for another application's; :class:`Unavailable` when the budget for refused
        tokens is spent). A token's answer is remembered (class docstring)."""
        if not TOKEN.fullmatch(access_token) or access_token in self._refused:
            raise Denied("token")
        digest = hashlib.sha256(access_token.encode("ascii")).digest()
        now = self.clock()
        known = self._users.get(digest)
        if known is not None and now - known[0] < self.config.limits.remember:
            return known[1]
        if not self._refusals.take():  # taken while asking, given back if accepted
            raise Unavailable("budget")
        try:
            status, body = await self._call(
                "GET", "/oauth2/@me", headers={"Authorization": f"Bearer {access_token}"})
            user = self._user_in(status, body)
        except Denied:
            self._refused.add(access_token)
            raise
        except Unavailable:
            self._refusals.give_back()
            raise
        self._refusals.give_back()
        if len(self._users) >= 10_000:
            self._users = {k: v for k, v in self._users.items()
                           if now - v[0] < self.config.limits.remember}
        self._users[digest] = (now, user)
        return user

    def _user_in(self, status: int, body: Any) -> int:
        if status != 200 or not isinstance(body, dict):
            raise Denied("token")
        app = body.get("application") or {}
        user = body.get("user") or {}
        if not isinstance(app, dict) or str(app.get("id")) != str(self.config.application_id):
            raise Denied("application")
        try:
            user_id = int(user["id"])
        except (KeyError, TypeError, ValueError):
            raise Denied("token") from None
        if len(self.faces) >= 10_000:  # bounded like the tokens' answers
            self.faces.clear()
        self.faces[user_id] = avatar_url(user_id, user.get("avatar"))
        return user_id

    async def instance(self, instance_id: str, *, user: int | None = None) -> Instance | None:
        """The instance (None: Discord does not know it, it ended, or the id is not shaped
        like one). Answers are kept ``recheck`` seconds for every socket; with ``user``
        (a join) a kept answer without that user is asked again. :class:`Unavailable`
        when the budget for look-ups is spent."""
        if not INSTANCE_ID.fullmatch(instance_id):
            return None
        now = self.clock()
        held = self._instances.get(instance_id)
        if held is not None and now - held[0] < self.config.recheck and (
                user is None or (held[1] is not None and user in held[1].users)):
            return held[1]
        asking = self._asking.get(instance_id)
        if asking is not None:  # another socket is asking now: its answer is this one's
            return await asyncio.shield(asking)
        if not self._lookups.take():
            raise Unavailable("budget")
        asking = self._asking[instance_id] = asyncio.get_running_loop().create_future()
        try:
            found = await self._look_up(instance_id, now)
        except BaseException as exc:
            asking.set_exception(Unavailable(str(exc)))
            asking.exception()  # retrieved: no "never retrieved" warning when none waits
            raise
        else:
            asking.set_result(found)
        finally:
            del self._asking[instance_id]
        return found

    async def _look_up(self, instance_id: str, now: float) -> Instance | None:
        fetch = self.config.fetch
        if fetch is None:
            status, body = await self._call(
                "GET", f"/applications/{self.config.application_id}/activity-instances/"
                       f"{instance_id}",
                headers={"Authorization": f"Bot {self.config.bot_token}"})
        else:
            status, body = await fetch(self.config.application_id, instance_id)
            _raise_unavailable(status)
        found = _instance(body) if status == 200 else None
        self._instances = {k: v for k, v in self._instances.items()
                           if now - v[0] < self.config.recheck}
        self._instances[instance_id] = (now, found)
        return found


def _raise_unavailable(status: int) -> None:
    if status == 429 or status >= 500:
        raise Unavailable(str(status))


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


class ActivityAdmission:
    """``/ws/activity``: admitted with an access token and an instance (module
    docstring), closed when the instance ends or its user leaves it. Joins are counted
    per client ``address``, per user and in total before Discord is asked."""

    first = "activity"
    relays = True

    def __init__(self, auth: DiscordAuth, address: str | None) -> None:
        self.auth = auth
        self.address = address
        self._watch: asyncio.Task[None] | None = None
        self._after_end = False
        """Admitted to a finished duplicate board's table (:meth:`_finished_board`)."""

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            await asyncio.gather(self._watch, return_exceptions=True)

    async def admit(self, frame: dict[str, Any], viewer: Admitting) -> links.Pass:
        t = viewer.t
        token = text_field(frame, "access_token", MAX_FIELD)
        instance_id = text_field(frame, "instance_id", MAX_FIELD)
        if token is None or instance_id is None:
            raise Refuse("join", t.gettext(BAD_LINK))
        if not TOKEN.fullmatch(token) or not INSTANCE_ID.fullmatch(instance_id):
            raise Refuse("activity", t.gettext(NOT_IN_INSTANCE))  # Discord is not asked
        auth = self.auth
        if not (auth.joins_by_address.take(self.address) and auth.joins.take()):
            raise Refuse("busy", t.gettext(TOO_MANY_JOINS))
        try:
            user = await auth.user_of(token)
        except Denied:
            raise Refuse("activity", t.gettext(NOT_IN_INSTANCE)) from None
        except Unavailable:
            raise Refuse("busy", t.gettext(TOO_MANY_JOINS)) from None
        del token  # the access token is not kept past this point
        viewer.t = t = translator(await viewer.config.language(user))
        if not auth.joins_by_user.take(user):
            raise Refuse("busy", t.gettext(TOO_MANY_JOINS))
        try:
            instance = await auth.instance(instance_id, user=user)
        except Unavailable:
            raise Refuse("busy", t.gettext(TOO_MANY_JOINS)) from None
        if instance is None or user not in instance.users:
            raise Refuse("activity", t.gettext(NOT_IN_INSTANCE))
        face = self.auth.faces.get(user)
        if face is not None:  # shown with the user's seat on every page of the table
            viewer.config.avatars[user] = face
        admitted = await self._table_of(viewer, instance, user)
        if admitted is None:
            raise Refuse("table", t.gettext(NO_TABLE_HERE))
        self._watch = asyncio.create_task(self._follow(viewer, instance_id, user),
                                          name=f"activity-{instance_id}")
        return admitted

    async def _table_of(self, viewer: Admitting, instance: Instance, user: int
                        ) -> links.Pass | None:
        """The open table of the instance's channel, as a pass for ``user``: their seat
        when they sit there, else the public view. A table another process owns is found
        through the relay (``docs/scale.md``); without an open table, the duplicate board
        the user's entrant finished there lately (:meth:`_finished_board`)."""
        if instance.guild_id is None:
            return None
        where = ChannelLocation(instance.guild_id, instance.channel_id)
        service = viewer.service
        table = service.find(where)
        if table is not None:
            seated = service.seat_of(table, user) is not None
            return links.Pass(table, user, "seat" if seated else "watch", 0)
        relay = viewer.config.relay
        found = None if relay is None else await relay.find(where, user)
        return found if found is not None else await self._finished_board(viewer, where,
                                                                          user)

    async def _finished_board(self, viewer: Admitting, where: ChannelLocation, user: int
                              ) -> links.Pass | None:
        """A seat's pass to the table at ``where`` of the duplicate board ``user``'s entrant
        finished last, within :data:`AFTER_END` (module docstring); None: none. Who may see
        its reveal is decided where a seat's link decides it
        (:meth:`~bot.web.viewer.Viewer._revealed_after_end`)."""
        reveals = viewer.config.reveals
        if reveals is None:
            return None
        since = dt.datetime.fromtimestamp(viewer.config.clock(), dt.UTC) - AFTER_END
        table = await reveals.finished_table(where, user, since)
        if table is None:
            return None
        self._after_end = True
        return links.Pass(table, user, "seat", 0)

    def nothing_after_end(self, t: Translator) -> Refuse | None:
        """A finished board's table that showed nothing to this user (no reveal for them
        after all) gets the channel's usual refusal."""
        return Refuse("table", t.gettext(NO_TABLE_HERE)) if self._after_end else None

    async def _follow(self, viewer: Admitting, instance_id: str, user: int) -> None:
        """End the socket once the instance ended or the user left it (module
        docstring)."""
        while not viewer.ws.closed:
            await asyncio.sleep(self.auth.config.recheck)
            try:
                instance = await self.auth.instance(instance_id)
            except Unavailable:
                continue
            if instance is None or user not in instance.users:
                await viewer.end(ACTIVITY_ENDED)
                return


# -- the routes ---------------------------------------------------------------------------
AUTH: web.AppKey[DiscordAuth] = web.AppKey("activity_auth", DiscordAuth)
DISCORD_FRAMES = "https://discord.com https://ptb.discord.com https://canary.discord.com"


def discordsays(application_id: int) -> str:
    """The origin of the Activity's frame (where Discord serves the page)."""
    return f"https://{application_id}.discordsays.com"


async def _token(request: web.Request) -> web.StreamResponse:
    """``POST /api/token`` (module docstring), at most as often as
    :class:`JoinLimits` allows per client address and in total (else 429)."""
    try:
        body = await request.json()
    except (ValueError, RecursionError, UnicodeError):
        body = None
    code = text_field(body, "code", MAX_FIELD) if isinstance(body, dict) else None
    if code is None:
        return web.json_response({"error": "invalid_request"}, status=400)
    auth = request.app[AUTH]
    address = client_address(request, request.app[CONFIG])
    if not (auth.exchanges_by_address.take(address) and auth.exchanges.take()):
        return web.json_response({"error": "rate_limited"}, status=429,
                                 headers={"Retry-After": "10"})
    try:
        token = await auth.exchange(code)
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
        return await serve(request, request.app[CONFIG],
                           lambda address: ActivityAdmission(auth, address))

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

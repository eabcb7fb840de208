"""A fake Discord on 127.0.0.1: the REST API a card-game bot uses and the gateway websocket,
good enough for an unmodified discord.py 2.x client.

* REST under ``/api/v10``: every request is recorded (:class:`RecordedRequest`: method,
  discord.py's route template, path parameters, JSON body or multipart ``payload_json`` and
  files, response) — unknown routes too, answered 404 with a Discord-style error.
* Messages get snowflake ids and are stored per channel (:class:`StoredMessage`) so edits,
  fetches and deletes work and tests can read what the bot posted, including ephemeral
  interaction responses (only visible to their user, never listed by the channel routes).
* Interactions follow Discord's rules: one callback per interaction (a second one is 400
  ``40060``), follow-ups and ``@original`` only after it (else 404 ``10015``), the first
  follow-up after a deferred ("thinking") response fills the loading message, updates
  (types 6 and 7) only for component and modal interactions.
* DMs: ``POST /users/@me/channels`` always works; sending to a user whose
  :attr:`FakeUser.dms_open` is False fails with 403 ``50007``.
* Bodies are checked against Discord's limits (:mod:`fakediscord.limits`).
* The gateway (``/ws``) speaks the protocol discord.py expects: HELLO, heartbeat ACKs,
  IDENTIFY → READY (guilds unavailable) then one GUILD_CREATE per guild, RESUME with replay,
  RECONNECT on request, REQUEST_GUILD_MEMBERS → GUILD_MEMBERS_CHUNK, ``zlib-stream`` (and
  ``zstd-stream`` when a zstd module is installed) transport compression, shards (guild
  ``(id >> 22) % shard_count``; DMs on shard 0), and intents (message events only with the
  message intents; content blanked without MESSAGE_CONTENT, as Discord does).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import mimetypes
import secrets
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import discord
from aiohttp import BodyPartReader, WSCloseCode, WSMsgType, web

from . import payloads as P
from .activities import LAUNCH_ACTIVITY, Activities
from .limits import DiscordError, FormErrors, check_command, check_message, check_modal
from .models import (
    BOT_PERMISSIONS,
    DM,
    EVERYONE_PERMISSIONS,
    GUILD_TEXT,
    MANAGER_PERMISSIONS,
    MESSAGE_FLAG_COMPONENTS_V2,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    PUBLIC_THREAD,
    CommandFile,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeRole,
    FakeUser,
    GatewayFrame,
    InteractionRecord,
    RecordedRequest,
    SnowflakeFactory,
    StoredAttachment,
    StoredMessage,
    UploadedFile,
    mentioned_user_ids,
)

API = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41250
T = TypeVar("T")

# Gateway intents (bits) the fake cares about.
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

# Message flags a bot may set on an ordinary message.
_SETTABLE_FLAGS = (1 << 2) | (1 << 12) | MESSAGE_FLAG_COMPONENTS_V2

Handler = Callable[[web.Request, RecordedRequest], Awaitable[Any]]


def counts_globally(record: RecordedRequest) -> bool:
    """Whether a request counts against Discord's global rate limit: every route used with
    the bot's token; not the interaction callbacks, the edits and follow-ups through an
    interaction's token (``/webhooks/{application}/{token}``), nor the OAuth2 routes."""
    route = record.route or ""
    return not route.startswith(("/interactions/", "/webhooks/", "/oauth2/token",
                                 "/oauth2/@me"))


class NotConnected(RuntimeError):
    """No bot is connected (identified) on the gateway shard an event is for."""


@dataclass(eq=False)
class Injection:
    """A canned error answer for the next ``times`` requests on ``route`` (see
    :meth:`FakeDiscord.fail_next`)."""

    route: str
    status: int
    body: Any
    headers: dict[str, str]
    times: int
    match: Callable[[RecordedRequest], bool] | None
    until: float | None = None
    """A deadline (``time.monotonic()``) instead of a count (:meth:`FakeDiscord.fail_for`)."""


@dataclass(eq=False)
class GatewaySession:
    """A gateway session (one per IDENTIFY): its shard, intents, sequence and every dispatch
    sent (``backlog``, replayed on RESUME); ``closed`` once the bot closed normally."""

    session_id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    backlog: list[dict[str, Any]] = field(default_factory=list)
    connection: GatewayConnection | None = None
    closed: bool = False
    presence: dict[str, Any] | None = None


class GatewayConnection:
    """One websocket. Frames are JSON text, or compressed binary: ``zlib-stream`` is one zlib
    stream per connection with every payload ending in a Z_SYNC_FLUSH (``00 00 ff ff``),
    ``zstd-stream`` one zstd frame stream flushed per payload."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compression = compress
        self.session: GatewaySession | None = None
        self._lock = asyncio.Lock()
        self._compress: Callable[[bytes], bytes] | None = None
        if compress == "zlib-stream":
            zctx = zlib.compressobj()
            self._compress = lambda b: zctx.compress(b) + zctx.flush(zlib.Z_SYNC_FLUSH)
        elif compress == "zstd-stream":
            self._compress = _zstd_stream()
        elif compress:
            raise ValueError(f"unsupported gateway compression {compress!r}")

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":")).encode()
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._compress is None:
                    await self.ws.send_str(text.decode())
                else:
                    await self.ws.send_bytes(self._compress(text))
            except (ConnectionError, RuntimeError):
                pass  # the bot is going away; dispatches stay in the backlog for RESUME


def _zstd_stream() -> Callable[[bytes], bytes]:
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]

        compressor = ZstdCompressor()
        return lambda b: bytes(compressor.compress(b, mode=ZstdCompressor.FLUSH_BLOCK))
    stream = zstandard.ZstdCompressor().compressobj()
    return lambda b: bytes(stream.compress(b) + stream.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK))


class FakeDiscord:
    """The fake API server and its world. Build the world (guilds, channels, users) before the
    bot connects: what is added later is served by REST and carried by interactions, but not
    announced on the gateway.

    The bot application's id is also its bot user's id, as for applications made today."""

    def __init__(self, *, token: str = "fake-bot-token", bot_name: str = "Tricktable",
                 shard_count: int = 1, privileged_intents: int = PRIVILEGED_INTENTS,
                 echo_messages: bool = True) -> None:
        self.snowflake = SnowflakeFactory()
        self.token = token
        self.shard_count = shard_count
        self.privileged_intents = privileged_intents
        self.echo_messages = echo_messages
        self.application_id = self.snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name.lower(), bot_name, bot=True)
        self.owner = FakeUser(self.snowflake(), "club-owner", "Club Owner")
        self.users: dict[int, FakeUser] = {u.id: u for u in (self.bot_user, self.owner)}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.dm_channels: dict[int, FakeChannel] = {}
        self.thread_members: dict[int, set[int]] = {}
        """Members added to each thread the bot created (``PUT …/thread-members/…``)."""
        self.bot_permissions = BOT_PERMISSIONS
        self.requests: list[RecordedRequest] = []
        self.frames: list[GatewayFrame] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.sessions: dict[str, GatewaySession] = {}
        self.uploads: dict[int, StoredAttachment] = {}
        self._messages: dict[int, list[StoredMessage]] = {}
        self._messages_by_id: dict[int, StoredMessage] = {}
        self._by_token: dict[str, InteractionRecord] = {}
        self._injections: list[Injection] = []
        self._waiters: list[asyncio.Future[None]] = []
        self._connections: set[GatewayConnection] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.activities = Activities(self)
        """Activity instances and OAuth2 grants (:mod:`fakediscord.activities`)."""
        self.global_limit: int | None = None
        """Discord's global rate limit (requests per second with the bot's token; the
        interaction and webhook-token routes are not bound to it): None, no limit; else
        a request past it in the last second is answered 429 with ``global: true``."""
        self.global_429s = 0
        """Requests answered with a global 429 (:attr:`global_limit`)."""
        self._counted_times: collections.deque[float] = collections.deque()

    # ------------------------------------------------------------------ lifecycle

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be set to."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/ws", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}",
                           self._get_attachment_file)
        app.router.add_get("/ephemeral-attachments/{channel_id}/{attachment_id}/{filename}",
                           self._get_attachment_file)
        for method, template, handler, auth in self._routes():
            app.router.add_route(method, API + template, self._endpoint(method, template,
                                                                          handler, auth))
        app.router.add_route("*", "/{tail:.*}", self._endpoint("*", None, self._unknown, False))
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def close(self) -> None:
        for connection in list(self._connections):
            await connection.ws.close(code=WSCloseCode.GOING_AWAY)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for waiter in self._waiters:
            waiter.cancel()

    # ------------------------------------------------------------------ world building

    def add_guild(self, name: str, *, guild_id: int | None = None) -> FakeGuild:
        """A guild with @everyone (member permissions), a "Club Manager" role (Manage
        Server), the bot's managed role, its owner and the bot as members."""
        gid = guild_id if guild_id is not None else self.snowflake()
        guild = FakeGuild(gid, name, self.owner.id)
        guild.roles[gid] = FakeRole(gid, "@everyone", EVERYONE_PERMISSIONS)
        manager = FakeRole(self.snowflake(), "Club Manager", MANAGER_PERMISSIONS, position=1)
        bot_role = FakeRole(self.snowflake(), self.bot_user.global_name or "bot",
                            self.bot_permissions, position=2, managed=True)
        guild.roles[manager.id] = manager
        guild.roles[bot_role.id] = bot_role
        self.guilds[gid] = guild
        guild.members[self.owner.id] = FakeMember(self.owner, gid)
        guild.members[self.bot_user.id] = FakeMember(self.bot_user, gid, [bot_role.id])
        return guild

    def add_text_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None
                         ) -> FakeChannel:
        channel = FakeChannel(self.snowflake(), GUILD_TEXT, name, guild.id,
                              position=len(guild.channels), topic=topic)
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_thread(self, parent: FakeChannel, name: str) -> FakeChannel:
        assert parent.guild_id is not None
        thread = FakeChannel(self.snowflake(), PUBLIC_THREAD, name, parent.guild_id,
                             parent_id=parent.id, owner_id=self.bot_user.id)
        self.guilds[parent.guild_id].channels[thread.id] = thread
        self.channels[thread.id] = thread
        return thread

    def add_user(self, username: str, *, global_name: str | None = None,
                 dms_open: bool = True, locale: str = "en-US") -> FakeUser:
        user = FakeUser(self.snowflake(), username, global_name, dms_open=dms_open,
                        locale=locale)
        self.users[user.id] = user
        return user

    def join(self, guild: FakeGuild, user: FakeUser, *, roles: Iterable[FakeRole] = (),
             nick: str | None = None) -> FakeMember:
        member = FakeMember(user, guild.id, [r.id for r in roles], nick)
        guild.members[user.id] = member
        return member

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (made on first use, as Discord does)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.snowflake(), DM, None, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def guild_of(self, channel: FakeChannel) -> FakeGuild | None:
        return None if channel.guild_id is None else self.guilds[channel.guild_id]

    # ------------------------------------------------------------------ reading records

    def messages(self, channel: FakeChannel | int, *, include_deleted: bool = False
                 ) -> list[StoredMessage]:
        """Every message in the channel, oldest first, ephemeral ones included."""
        channel_id = channel if isinstance(channel, int) else channel.id
        return [m for m in self._messages.get(channel_id, [])
                if include_deleted or not m.deleted]

    def message(self, message_id: int) -> StoredMessage:
        return self._messages_by_id[message_id]

    def calls(self, route: str | None = None, *, since: int = 0) -> list[RecordedRequest]:
        """Completed requests (``seq > since``), optionally only those on ``route``
        (``"METHOD /template"``, e.g. ``"PATCH /channels/{channel_id}/messages/{message_id}"``)."""
        return [r for r in self.requests if r.seq > since and r.status
                and (route is None or f"{r.method} {r.route}" == route)]

    def counted(self, *, since: int = 0) -> list[RecordedRequest]:
        """Completed requests (``seq > since``) that count against Discord's global rate
        limit: those made with the bot's token (not the interaction callbacks nor the
        edits through an interaction's token)."""
        return [r for r in self.calls(since=since) if counts_globally(r)]

    def counted_by_route(self, *, since: int = 0) -> dict[str, int]:
        """:meth:`counted` per ``"METHOD /template"``."""
        out: dict[str, int] = {}
        for r in self.counted(since=since):
            key = f"{r.method} {r.route}"
            out[key] = out.get(key, 0) + 1
        return out

    @property
    def unknown_requests(self) -> list[RecordedRequest]:
        return [r for r in self.requests if r.route is None]

    def received(self, op: int | None = None) -> list[GatewayFrame]:
        """Gateway payloads the bot sent, optionally only opcode ``op``."""
        return [f for f in self.frames if f.direction == "recv" and (op is None or f.op == op)]

    def dispatched(self, event: str | None = None) -> list[GatewayFrame]:
        """Dispatch events the gateway sent, optionally only ``event``."""
        return [f for f in self.frames
                if f.direction == "send" and f.op == 0 and (event is None or f.t == event)]

    # ------------------------------------------------------------------ waiting

    def notify(self) -> None:
        """Wake every :meth:`wait_until` to re-check its condition."""
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_until(self, condition: Callable[[], T | None], *, timeout: float,
                         what: str) -> T:
        """Wait until ``condition()`` is truthy (re-checked after every request, gateway
        frame or :meth:`notify`) and return it; ``AssertionError`` after ``timeout``
        seconds, naming ``what`` was awaited and the last requests seen."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = condition()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(repr(r) for r in self.requests[-8:]) or "(none)"
                raise AssertionError(f"timed out after {timeout}s waiting for {what}; "
                                     f"last requests:\n  {recent}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.append(waiter)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waiter, remaining)

    async def wait_for_request(self, route: str | None = None,
                               predicate: Callable[[RecordedRequest], bool] | None = None, *,
                               since: int = 0, timeout: float = 5.0) -> RecordedRequest:
        """The first completed request with ``seq > since`` on ``route`` matching
        ``predicate``."""
        def find() -> RecordedRequest | None:
            return next((r for r in self.calls(route, since=since)
                         if predicate is None or predicate(r)), None)
        return await self.wait_until(find, timeout=timeout, what=f"request {route or ''}")

    async def wait_for_message(self, channel: FakeChannel | int,
                               predicate: Callable[[StoredMessage], bool] | None = None, *,
                               timeout: float = 5.0) -> StoredMessage:
        """The first (oldest) message in ``channel`` for which ``predicate`` holds now or
        after a later create or edit."""
        def find() -> StoredMessage | None:
            return next((m for m in self.messages(channel)
                         if predicate is None or predicate(m)), None)
        return await self.wait_until(find, timeout=timeout, what=f"a message in {channel}")

    # ------------------------------------------------------------------ error injection

    def fail_next(self, route: str, *, status: int, body: Any = None,
                  headers: dict[str, str] | None = None, times: int = 1,
                  match: Callable[[RecordedRequest], bool] | None = None) -> None:
        """Answer the next ``times`` requests on ``route`` (``"POST /channels/{channel_id}/
        messages"``) matching ``match`` with ``status`` and ``body`` instead of handling them.
        A 429 needs ``{"retry_after": s, "global": false, ...}`` and a ``Via`` header for
        discord.py to treat it as a rate limit (added when missing). Avoid 500/502/504:
        discord.py retries them after sleeping 1, 3, 5, 7 s."""
        hdrs = dict(headers or {})
        if status == 429:
            hdrs.setdefault("Via", "1.1 google")
        self._injections.append(Injection(route, status, body, hdrs, times, match))

    def fail_burst(self, route: str, burst: Iterable[tuple[int, int]], *,
                   match: Callable[[RecordedRequest], bool] | None = None) -> None:
        """A burst of failures on ``route``: for each ``(status, times)`` in order, the
        next ``times`` matching requests get ``status`` — a 429 with ``retry_after`` 0
        (discord.py retries it at once, five tries, then raises), any other status a
        Discord-style error body. For 5xx prefer 503: discord.py raises it at once, where
        it sleeps 1-7 s before retrying 500/502/504."""
        for status, times in burst:
            body: dict[str, Any] = (
                {"message": "You are being rate limited.", "retry_after": 0.0,
                 "global": False, "code": 0} if status == 429
                else {"message": f"{status}: injected failure", "code": 0})
            self.fail_next(route, status=status, body=body, times=times, match=match)

    def fail_for(self, route: str, seconds: float, statuses: Iterable[int], *,
                 match: Callable[[RecordedRequest], bool] | None = None,
                 retry_after: float = 0.25) -> float:
        """Discord failing for a while: for ``seconds`` from now every matching request on
        ``route`` gets the next of ``statuses`` in turn (a 429 says ``retry_after``; a
        500/502/504 is retried by discord.py after sleeping 1, 3, 5, 7 s). Returns the
        ``time.monotonic()`` at which Discord answers normally again."""
        until = time.monotonic() + seconds
        for status in statuses:
            body: dict[str, Any] = (
                {"message": "You are being rate limited.", "retry_after": retry_after,
                 "global": False, "code": 0} if status == 429
                else {"message": f"{status}: injected failure", "code": 0})
            headers = {"Via": "1.1 google"} if status == 429 else {}
            self._injections.append(Injection(route, status, body, headers, 1, match, until))
        return until

    # ------------------------------------------------------------------ gateway API

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The newest open session on the shard for ``guild_id`` (shard 0 for DMs)."""
        for session in reversed(list(self.sessions.values())):
            shard = 0 if guild_id is None else (guild_id >> 22) % session.shard_count
            if session.shard_id == shard and not session.closed:
                return session
        return None

    @property
    def connected(self) -> bool:
        return any(s.connection is not None and not s.closed for s in self.sessions.values())

    async def dispatch(self, event: str, data: dict[str, Any], *,
                       guild_id: int | None = None) -> GatewaySession:
        """Send dispatch ``event`` to the bot's session for ``guild_id`` (shard 0 when None);
        buffered for RESUME while the bot is reconnecting. Raises :class:`NotConnected`."""
        session = self.session_for(guild_id)
        if session is None:
            raise NotConnected(f"no bot session for {event} (guild {guild_id})")
        if self._intents_allow(session, event, data):
            await self._send_dispatch(session, event, self._shape_for_intents(session, event,
                                                                                data))
        return session

    async def reconnect(self, guild_id: int | None = None) -> None:
        """Ask the bot to reconnect (opcode 7 RECONNECT): discord.py closes and RESUMEs."""
        session = self.session_for(guild_id)
        if session is None or session.connection is None:
            raise NotConnected("no connected session to reconnect")
        await self._send(session.connection, session.shard_id, {"op": 7, "d": None})

    # ------------------------------------------------------------------ interactions

    def new_interaction(self, *, interaction_type: int, data: dict[str, Any], user: FakeUser,
                        channel: FakeChannel, message: StoredMessage | None = None,
                        source_message_id: int | None = None) -> InteractionRecord:
        """Build and register an interaction (not yet sent: see :meth:`push_interaction`)."""
        guild = self.guild_of(channel)
        interaction_id = self.snowflake()
        token = f"aW50ZXJhY3Rpb24{secrets.token_urlsafe(48)}"
        permissions = guild.permissions_of(user.id) if guild else 0
        app_permissions = guild.permissions_of(self.bot_user.id) if guild else self.bot_permissions
        payload = P.interaction_payload(
            interaction_id=interaction_id, token=token, application_id=self.application_id,
            interaction_type=interaction_type, data=data, user=user, channel=channel,
            guild=guild, permissions=permissions, app_permissions=app_permissions,
            message=None if message is None else message.payload)
        record = InteractionRecord(interaction_id, token, interaction_type, payload, user,
                                   channel, guild, source_message_id)
        self.interactions[interaction_id] = record
        self._by_token[token] = record
        return record

    def upload(self, channel: FakeChannel, upload: CommandFile) -> dict[str, Any]:
        """Take a file a user attaches to a command option in ``channel`` (as the Discord
        client uploads it before sending the command) and return its attachment object for
        ``data.resolved.attachments``; the file is kept in :attr:`uploads` and served at the
        object's ``url``."""
        content_type = upload.content_type or mimetypes.guess_type(upload.filename)[0]
        attachment = StoredAttachment(self.snowflake(), upload.filename, upload.data,
                                      content_type)
        self.uploads[attachment.id] = attachment
        url = (f"{self.base_url}/ephemeral-attachments/{channel.id}/{attachment.id}/"
               f"{attachment.filename}")
        return P.attachment_payload(attachment, url, ephemeral=True)

    async def push_interaction(self, record: InteractionRecord) -> None:
        await self.dispatch("INTERACTION_CREATE", record.payload,
                            guild_id=None if record.guild is None else record.guild.id)

    async def post_user_message(self, user: FakeUser, channel: FakeChannel, content: str
                                ) -> StoredMessage:
        """A message typed by ``user`` (stored, then MESSAGE_CREATE as intents allow)."""
        message = self._store_message(channel, author=user, body={"content": content},
                                      files=[])
        await self._echo("MESSAGE_CREATE", message)
        return message

    # ------------------------------------------------------------------ HTTP plumbing

    def _routes(self) -> list[tuple[str, str, Handler, bool]]:
        wh = "/webhooks/{webhook_id}/{webhook_token}"
        return [
            ("GET", "/users/@me", self._get_me, False),
            ("GET", "/oauth2/@me", self._get_authorization, False),
            ("POST", "/oauth2/token", self._oauth_token, False),
            ("GET", "/applications/{application_id}/activity-instances/{instance_id}",
             self._get_activity_instance, True),
            ("POST", "/users/@me/channels", self._create_dm, True),
            ("GET", "/users/{user_id}", self._get_user, True),
            ("GET", "/gateway", self._get_gateway, False),
            ("GET", "/gateway/bot", self._get_gateway_bot, True),
            ("GET", "/oauth2/applications/@me", self._get_application, True),
            ("GET", "/applications/@me", self._get_application, True),
            ("GET", "/applications/{application_id}/commands", self._get_commands, True),
            ("PUT", "/applications/{application_id}/commands", self._put_commands, True),
            ("POST", "/applications/{application_id}/commands", self._post_command, True),
            ("GET", "/applications/{application_id}/commands/{command_id}",
             self._get_command, True),
            ("DELETE", "/applications/{application_id}/commands/{command_id}",
             self._delete_command, True),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands",
             self._get_commands, True),
            ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands",
             self._put_commands, True),
            ("POST", "/applications/{application_id}/guilds/{guild_id}/commands",
             self._post_command, True),
            ("GET", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
             self._get_command, True),
            ("DELETE", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}",
             self._delete_command, True),
            ("POST", "/interactions/{webhook_id}/{webhook_token}/callback", self._callback, False),
            ("POST", wh, self._execute_webhook, False),
            ("GET", wh + "/messages/@original", self._get_webhook_message, False),
            ("PATCH", wh + "/messages/@original", self._edit_webhook_message, False),
            ("DELETE", wh + "/messages/@original", self._delete_webhook_message, False),
            ("GET", wh + "/messages/{message_id}", self._get_webhook_message, False),
            ("PATCH", wh + "/messages/{message_id}", self._edit_webhook_message, False),
            ("DELETE", wh + "/messages/{message_id}", self._delete_webhook_message, False),
            ("GET", "/channels/{channel_id}", self._get_channel, True),
            ("GET", "/channels/{channel_id}/messages", self._get_messages, True),
            ("POST", "/channels/{channel_id}/messages", self._post_message, True),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message, True),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message, True),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}",
             self._delete_message, True),
            ("POST", "/channels/{channel_id}/typing", self._typing, True),
            ("POST", "/channels/{channel_id}/threads", self._create_thread, True),
            ("PUT", "/channels/{channel_id}/thread-members/{user_id}",
             self._add_thread_member, True),
            ("GET", "/guilds/{guild_id}", self._get_guild, True),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels, True),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member, True),
        ]

    def _endpoint(self, method: str, template: str | None, handler: Handler, auth: bool
                  ) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def endpoint(request: web.Request) -> web.StreamResponse:
            body, files = await _read_body(request)
            record = RecordedRequest(
                seq=len(self.requests) + 1, time=time.monotonic(), method=request.method,
                route=template, path=request.path.removeprefix(API),
                params=dict(request.match_info), query=dict(request.query), json=body,
                files=files, headers={k: v for k, v in request.headers.items()
                                      if k in ("Authorization", "X-Audit-Log-Reason",
                                               "Content-Type", "User-Agent")})
            self.requests.append(record)
            token = record.params.get("webhook_token")
            if token in self._by_token:
                self._by_token[token].requests.append(record)
            status, result, headers = await self._answer(request, record, handler, auth)
            if result is None and status < 300:
                status = 204
            record.status, record.response = status, result
            self.notify()
            if result is None:
                return web.Response(status=status, headers=headers)
            # discord.py parses a body as JSON only if Content-Type is exactly this.
            return web.Response(body=json.dumps(result).encode(), status=status,
                                headers={**headers, "Content-Type": "application/json"})
        return endpoint

    async def _answer(self, request: web.Request, record: RecordedRequest, handler: Handler,
                      auth: bool) -> tuple[int, Any, dict[str, str]]:
        if auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}, {}
        if self.global_limit is not None and counts_globally(record):
            limited = self._past_global_limit(self.global_limit)
            if limited is not None:
                self.global_429s += 1
                return 429, {"message": "You are being rate limited.",
                             "retry_after": limited, "global": True, "code": 0}, {
                    "Via": "1.1 google", "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global", "Retry-After": f"{limited:.3f}"}
        key = f"{record.method} {record.route}"
        for injection in self._injections:
            if injection.until is not None:
                if time.monotonic() >= injection.until or injection.route != key or (
                        injection.match is not None and not injection.match(record)):
                    continue
                self._injections.remove(injection)  # the next status answers next time
                self._injections.append(injection)
                return injection.status, injection.body, injection.headers
            if injection.route == key and injection.times > 0 and (
                    injection.match is None or injection.match(record)):
                injection.times -= 1
                return injection.status, injection.body, injection.headers
        try:
            return 200, await handler(request, record), {}
        except DiscordError as error:
            return error.status, error.body, {}

    def _past_global_limit(self, limit: int) -> float | None:
        """Count one request against the global limit (a sliding second); None when it
        may go, else the seconds until it could (the request is not counted)."""
        now = time.monotonic()
        times = self._counted_times
        while times and times[0] <= now - 1.0:
            times.popleft()
        if len(times) >= limit:
            return max(0.001, times[0] + 1.0 - now)
        times.append(now)
        return None

    async def _unknown(self, request: web.Request, record: RecordedRequest) -> Any:
        raise DiscordError(404, 0, "404: Not Found")

    # ------------------------------------------------------------------ REST: users, app

    async def _get_me(self, request: web.Request, record: RecordedRequest) -> Any:
        """The bot user for the bot token; the token's user for an OAuth2 Bearer token."""
        authorization = request.headers.get("Authorization")
        if authorization == f"Bot {self.token}":
            return P.client_user_payload(self.bot_user)
        grant = self.activities.bearer(authorization)
        if grant is None:
            raise DiscordError(401, 0, "401: Unauthorized")
        return self.activities.me(grant)

    async def _get_authorization(self, request: web.Request, record: RecordedRequest) -> Any:
        grant = self.activities.bearer(request.headers.get("Authorization"))
        if grant is None:
            raise DiscordError(401, 0, "401: Unauthorized")
        return self.activities.authorization_info(grant)

    async def _oauth_token(self, request: web.Request, record: RecordedRequest) -> Any:
        return self.activities.exchange(record, request.headers.get("Authorization"))

    async def _get_activity_instance(self, request: web.Request, record: RecordedRequest
                                     ) -> Any:
        return self.activities.get_instance(record)

    async def _get_user(self, request: web.Request, record: RecordedRequest) -> Any:
        return P.user_payload(self._user(record.params["user_id"]))

    async def _create_dm(self, request: web.Request, record: RecordedRequest) -> Any:
        user = self._user((record.json or {}).get("recipient_id"))
        return P.channel_payload(self.dm_channel(user))

    async def _get_gateway(self, request: web.Request, record: RecordedRequest) -> Any:
        return {"url": self.gateway_url}

    async def _get_gateway_bot(self, request: web.Request, record: RecordedRequest) -> Any:
        return {"url": self.gateway_url, "shards": self.shard_count,
                "session_start_limit": {"total": 1000, "remaining": 1000,
                                        "reset_after": 0, "max_concurrency": 1}}

    async def _get_application(self, request: web.Request, record: RecordedRequest) -> Any:
        flags = 0
        for intent, flag in ((INTENT_GUILD_PRESENCES, 1 << 12), (INTENT_GUILD_MEMBERS, 1 << 14),
                             (INTENT_MESSAGE_CONTENT, 1 << 18)):
            if self.privileged_intents & intent:
                flags |= flag
        return {
            "id": str(self.application_id), "name": self.bot_user.display_name, "icon": None,
            "description": "", "summary": "", "bot_public": True,
            "bot_require_code_grant": False, "owner": P.user_payload(self.owner),
            "verify_key": "0" * 64, "team": None, "flags": flags,
            "bot": P.user_payload(self.bot_user), "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds), "redirect_uris": [],
        }

    def _user(self, user_id: Any) -> FakeUser:
        try:
            return self.users[int(user_id)]
        except (KeyError, TypeError, ValueError):
            raise DiscordError(404, 10013, "Unknown User") from None

    # ------------------------------------------------------------------ REST: commands

    def _command_list(self, record: RecordedRequest) -> list[dict[str, Any]]:
        if record.params["application_id"] != str(self.application_id):
            raise DiscordError(403, 50001, "Missing Access")
        if "guild_id" not in record.params:
            return self.global_commands
        guild_id = int(record.params["guild_id"])
        if guild_id not in self.guilds:
            raise DiscordError(403, 50001, "Missing Access")
        return self.guild_commands.setdefault(guild_id, [])

    def _stored_command(self, body: dict[str, Any], record: RecordedRequest,
                        existing: list[dict[str, Any]]) -> dict[str, Any]:
        kind = body.get("type", 1)
        old = next((c for c in existing if c["name"] == body.get("name") and c["type"] == kind),
                   None)
        permissions = body.get("default_member_permissions")
        return {
            **{k: v for k, v in body.items() if k not in ("id",)},
            "id": old["id"] if old else str(self.snowflake()),
            "application_id": str(self.application_id),
            "version": str(self.snowflake()),
            "type": kind,
            "description": body.get("description", ""),
            "options": body.get("options") or [],
            "default_member_permissions": None if permissions is None else str(permissions),
            "nsfw": bool(body.get("nsfw", False)),
            "guild_id": record.params.get("guild_id"),
        }

    async def _get_commands(self, request: web.Request, record: RecordedRequest) -> Any:
        return self._command_list(record)

    async def _put_commands(self, request: web.Request, record: RecordedRequest) -> Any:
        existing = self._command_list(record)
        body = record.json or []
        errors = FormErrors()
        for i, command in enumerate(body):
            check_command(command, (str(i),), errors)
        if len(body) > 100:
            errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
        errors.raise_if_any()
        stored = [self._stored_command(c, record, existing) for c in body]
        existing[:] = stored
        return stored

    async def _post_command(self, request: web.Request, record: RecordedRequest) -> Any:
        existing = self._command_list(record)
        errors = FormErrors()
        check_command(record.json or {}, (), errors)
        errors.raise_if_any()
        command = self._stored_command(record.json, record, existing)
        existing[:] = [c for c in existing if c["id"] != command["id"]] + [command]
        return command

    async def _get_command(self, request: web.Request, record: RecordedRequest) -> Any:
        for command in self._command_list(record):
            if command["id"] == record.params["command_id"]:
                return command
        raise DiscordError(404, 10063, "Unknown application command")

    async def _delete_command(self, request: web.Request, record: RecordedRequest) -> Any:
        commands = self._command_list(record)
        await self._get_command(request, record)
        commands[:] = [c for c in commands if c["id"] != record.params["command_id"]]
        return None

    # ------------------------------------------------------------------ REST: interactions

    def _interaction(self, record: RecordedRequest, *, unknown: DiscordError) -> InteractionRecord:
        params = record.params
        interaction = self._by_token.get(params["webhook_token"])
        if interaction is None:
            raise unknown
        if record.route and record.route.startswith("/interactions/"):
            if params["webhook_id"] != str(interaction.id):
                raise unknown
        elif params["webhook_id"] != str(self.application_id):
            raise unknown
        return interaction

    async def _callback(self, request: web.Request, record: RecordedRequest) -> Any:
        interaction = self._interaction(
            record, unknown=DiscordError(404, 10062, "Unknown interaction"))
        if interaction.callback is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        body = record.json or {}
        kind = body.get("type")
        data = body.get("data") or {}
        allowed = {P.APPLICATION_COMMAND: {4, 5, 9, LAUNCH_ACTIVITY},
                   P.MESSAGE_COMPONENT: {4, 5, 6, 7, 9, LAUNCH_ACTIVITY},
                   P.AUTOCOMPLETE: {8},
                   P.MODAL_SUBMIT: {4, 5, 6, 7} if interaction.source_message_id else {4, 5}}
        if kind not in allowed[interaction.type]:
            errors = FormErrors()
            errors.add(("type",), "INTERACTION_RESPONSE_TYPE_INVALID",
                       f"Response type {kind} is invalid for interaction type "
                       f"{interaction.type}")
            errors.raise_if_any()
        if kind == LAUNCH_ACTIVITY:  # refused (nothing answered) when Activities are off
            launched = self.activities.launch(interaction)
            interaction.callback = record
            return launched
        if kind in (4, 7):
            check_message(data, files=len(record.files), creating=kind == 4)
        if kind == 9:
            check_modal(data)
        answer: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type,
                                  "response_message_loading": False,
                                  "response_message_ephemeral": False}
        resource: dict[str, Any] | None = {"type": kind}
        message: StoredMessage | None = None
        if kind in (4, 5):
            flags = int(data.get("flags") or 0)
            if kind == 5:
                data = {"content": "", "flags": MESSAGE_FLAG_LOADING
                        | (flags & MESSAGE_FLAG_EPHEMERAL)}
            message = self._store_message(
                interaction.channel, author=self.bot_user, body=data, files=record.files,
                interaction=interaction, allowed_flags=_SETTABLE_FLAGS | MESSAGE_FLAG_EPHEMERAL
                | MESSAGE_FLAG_LOADING)
            interaction.original_message_id = message.id
        elif kind in (6, 7):
            interaction.original_message_id = interaction.source_message_id
            if kind == 7:
                message = self._messages_by_id[interaction.source_message_id or 0]
                self._apply_edit(message, data, record.files)
        interaction.callback = record
        if message is not None:
            answer["response_message_id"] = str(message.id)
            answer["response_message_loading"] = message.loading
            answer["response_message_ephemeral"] = message.ephemeral
            if kind in (4, 7):
                resource = {"type": kind, "message": message.payload}
            await self._echo("MESSAGE_UPDATE" if kind == 7 else "MESSAGE_CREATE", message)
        return {"interaction": answer, "resource": resource}

    def _webhook_message(self, interaction: InteractionRecord, record: RecordedRequest
                         ) -> StoredMessage:
        raw = record.params.get("message_id")
        message_id = interaction.original_message_id if raw is None else int(raw)
        message = self._messages_by_id.get(message_id or 0)
        if message is None or message.deleted or (
                message.id != interaction.original_message_id
                and message.id not in interaction.followup_ids):
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    def _answered(self, record: RecordedRequest) -> InteractionRecord:
        interaction = self._interaction(record, unknown=DiscordError(404, 10015,
                                                                     "Unknown Webhook"))
        if interaction.callback is None:
            raise DiscordError(404, 10015, "Unknown Webhook")
        return interaction

    async def _execute_webhook(self, request: web.Request, record: RecordedRequest) -> Any:
        interaction = self._answered(record)
        body = record.json or {}
        check_message(body, files=len(record.files), creating=True)
        original = self._messages_by_id.get(interaction.original_message_id or 0)
        if original is not None and original.loading:
            self._apply_edit(original, body, record.files)
            message = original
            await self._echo("MESSAGE_UPDATE", message)
        else:
            message = self._store_message(
                interaction.channel, author=self.bot_user, body=body, files=record.files,
                interaction=interaction, allowed_flags=_SETTABLE_FLAGS | MESSAGE_FLAG_EPHEMERAL)
            interaction.followup_ids.append(message.id)
            await self._echo("MESSAGE_CREATE", message)
        return message.payload if record.query.get("wait") in ("1", "true", "True") else None

    async def _get_webhook_message(self, request: web.Request, record: RecordedRequest) -> Any:
        return self._webhook_message(self._answered(record), record).payload

    async def _edit_webhook_message(self, request: web.Request, record: RecordedRequest) -> Any:
        message = self._webhook_message(self._answered(record), record)
        check_message(record.json or {}, files=len(record.files), creating=False)
        self._apply_edit(message, record.json or {}, record.files)
        await self._echo("MESSAGE_UPDATE", message)
        return message.payload

    async def _delete_webhook_message(self, request: web.Request, record: RecordedRequest
                                      ) -> Any:
        message = self._webhook_message(self._answered(record), record)
        message.deleted = True
        await self._echo("MESSAGE_DELETE", message)
        return None

    # ------------------------------------------------------------------ REST: channels

    def _channel(self, record: RecordedRequest) -> FakeChannel:
        try:
            return self.channels[int(record.params["channel_id"])]
        except (KeyError, ValueError):
            raise DiscordError(404, 10003, "Unknown Channel") from None

    def _channel_message(self, record: RecordedRequest) -> StoredMessage:
        channel = self._channel(record)
        try:
            message = self._messages_by_id[int(record.params["message_id"])]
        except (KeyError, ValueError):
            raise DiscordError(404, 10008, "Unknown Message") from None
        if message.channel_id != channel.id or message.deleted or message.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _get_channel(self, request: web.Request, record: RecordedRequest) -> Any:
        return P.channel_payload(self._channel(record))

    async def _get_messages(self, request: web.Request, record: RecordedRequest) -> Any:
        channel = self._channel(record)
        limit = min(int(record.query.get("limit", 50)), 100)
        before = int(record.query.get("before", 0)) or None
        after = int(record.query.get("after", 0))
        found = [m for m in self.messages(channel) if not m.ephemeral and m.id > after
                 and (before is None or m.id < before)]
        found = found[:limit] if after else found[-limit:]
        return [m.payload for m in reversed(found)]

    async def _post_message(self, request: web.Request, record: RecordedRequest) -> Any:
        channel = self._channel(record)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        body = record.json or {}
        check_message(body, files=len(record.files), creating=True)
        message = self._store_message(channel, author=self.bot_user, body=body,
                                      files=record.files)
        await self._echo("MESSAGE_CREATE", message)
        return message.payload

    async def _get_message(self, request: web.Request, record: RecordedRequest) -> Any:
        return self._channel_message(record).payload

    async def _edit_message(self, request: web.Request, record: RecordedRequest) -> Any:
        message = self._channel_message(record)
        if message.author_id != self.bot_user.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        check_message(record.json or {}, files=len(record.files), creating=False)
        self._apply_edit(message, record.json or {}, record.files)
        await self._echo("MESSAGE_UPDATE", message)
        return message.payload

    async def _delete_message(self, request: web.Request, record: RecordedRequest) -> Any:
        message = self._channel_message(record)
        guild = self.guilds.get(message.guild_id or 0)
        own = message.author_id == self.bot_user.id
        if not own and (guild is None or not guild.permissions_of(self.bot_user.id)
                        & discord.Permissions(manage_messages=True).value):
            raise DiscordError(403, 50013, "Missing Permissions")
        message.deleted = True
        await self._echo("MESSAGE_DELETE", message)
        return None

    async def _typing(self, request: web.Request, record: RecordedRequest) -> Any:
        self._channel(record)
        return None

    async def _create_thread(self, request: web.Request, record: RecordedRequest) -> Any:
        """A thread without a starting message (the fake makes it a public thread; who was
        added is kept in :attr:`thread_members`)."""
        parent = self._channel(record)
        body = record.json or {}
        thread = self.add_thread(parent, str(body.get("name") or "thread"))
        self.thread_members[thread.id] = set()
        data = P.channel_payload(thread)
        await self.dispatch("THREAD_CREATE", {**data, "newly_created": True},
                            guild_id=thread.guild_id)
        return data

    async def _add_thread_member(self, request: web.Request, record: RecordedRequest) -> Any:
        thread = self._channel(record)
        self.thread_members.setdefault(thread.id, set()).add(int(record.params["user_id"]))
        return None

    # ------------------------------------------------------------------ REST: guilds

    def _guild(self, record: RecordedRequest) -> FakeGuild:
        try:
            return self.guilds[int(record.params["guild_id"])]
        except (KeyError, ValueError):
            raise DiscordError(404, 10004, "Unknown Guild") from None

    async def _get_guild(self, request: web.Request, record: RecordedRequest) -> Any:
        return P.rest_guild_payload(self._guild(record))

    async def _get_guild_channels(self, request: web.Request, record: RecordedRequest) -> Any:
        return [P.channel_payload(c) for c in self._guild(record).channels.values()
                if c.type != PUBLIC_THREAD]

    async def _get_member(self, request: web.Request, record: RecordedRequest) -> Any:
        guild = self._guild(record)
        member = guild.members.get(int(record.params["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return P.member_payload(member)

    async def _get_attachment_file(self, request: web.Request) -> web.StreamResponse:
        """The CDN: a message's attachment, or a file attached to a command option."""
        attachment_id = int(request.match_info["attachment_id"])
        places = [self.uploads, *(m.files for m in self._messages_by_id.values())]
        for files in places:
            if attachment_id in files:
                found = files[attachment_id]
                found.downloads += 1
                self.notify()
                return web.Response(body=found.data,
                                    content_type=found.content_type or "application/octet-stream")
        raise web.HTTPNotFound()

    # ------------------------------------------------------------------ messages

    def _store_message(self, channel: FakeChannel, *, author: FakeUser, body: dict[str, Any],
                       files: list[UploadedFile], interaction: InteractionRecord | None = None,
                       allowed_flags: int = _SETTABLE_FLAGS) -> StoredMessage:
        message_id = self.snowflake()
        flags = int(body.get("flags") or 0) & allowed_flags
        message_type = 0
        metadata = None
        if interaction is not None:
            message_type = 20 if interaction.type == P.APPLICATION_COMMAND else 0
            metadata = {"id": str(interaction.id), "type": interaction.type,
                        "user": P.user_payload(interaction.user),
                        "authorizing_integration_owners":
                            interaction.payload["authorizing_integration_owners"]}
            if interaction.source_message_id is not None:
                metadata["interacted_message_id"] = str(interaction.source_message_id)
        elif body.get("message_reference"):
            message_type = 19
        message = StoredMessage(
            id=message_id, channel_id=channel.id, guild_id=channel.guild_id,
            author_id=author.id, payload={}, interaction_id=None if interaction is None
            else interaction.id,
            ephemeral_for=interaction.user.id if interaction is not None
            and flags & MESSAGE_FLAG_EPHEMERAL else None)
        message.payload = P.message_payload(
            message_id=message_id, channel_id=channel.id, author=author,
            content=body.get("content") or "", embeds=body.get("embeds") or [],
            components=body.get("components") or [],
            attachments=self._attachments(message, body, files), flags=flags,
            tts=bool(body.get("tts")), mentions=self._mentions(body),
            message_type=message_type,
            application_id=self.application_id if interaction is not None else None,
            interaction_metadata=metadata)
        if body.get("message_reference"):
            message.payload["message_reference"] = body["message_reference"]
        self._messages.setdefault(channel.id, []).append(message)
        self._messages_by_id[message_id] = message
        return message

    def _apply_edit(self, message: StoredMessage, body: dict[str, Any],
                    files: list[UploadedFile]) -> None:
        """Change the fields present in ``body``; ``attachments`` lists the attachments to
        keep (by id) and the new files (by upload index); new files without an
        ``attachments`` list are added to the existing ones. Filling a loading (deferred)
        response clears its loading flag and keeps its ephemerality."""
        message.history.append(json.loads(json.dumps(message.payload)))
        payload = message.payload
        for key in ("content", "embeds", "components"):
            if key in body:
                payload[key] = body[key] if body[key] is not None else (
                    "" if key == "content" else [])
        flags = payload["flags"]
        if "flags" in body and body["flags"] is not None:
            flags = (flags & MESSAGE_FLAG_EPHEMERAL) | (int(body["flags"]) & _SETTABLE_FLAGS)
        payload["flags"] = flags & ~MESSAGE_FLAG_LOADING
        if "attachments" in body or files:
            payload["attachments"] = self._attachments(message, body, files)
        payload["mentions"] = [P.user_payload(u) for u in self._mentions(payload)]
        payload["edited_timestamp"] = P.iso()

    def _attachments(self, message: StoredMessage, body: dict[str, Any],
                     files: list[UploadedFile]) -> list[dict[str, Any]]:
        uploads = {f.field: f for f in files}
        entries: list[dict[str, Any]] | None = body.get("attachments")
        if entries is None:
            kept = [a.id for a in message.attachments] if message.payload else []
            entries = [{"id": a} for a in kept] + [{"id": i} for i in range(len(files))]
        result = []
        for entry in entries:
            ident = int(entry["id"])
            if ident in message.files:
                attachment = message.files[ident]
            else:
                upload = uploads.get(f"files[{ident}]")
                if upload is None:
                    raise DiscordError(400, 50035, "Invalid Form Body", {"attachments": {
                        "_errors": [{"code": "ATTACHMENT_NOT_FOUND",
                                     "message": f"Attachment data not found: {ident}"}]}})
                filename = str(entry.get("filename") or upload.filename)
                description = entry.get("description")
                attachment = StoredAttachment(
                    self.snowflake(), filename, upload.data,
                    mimetypes.guess_type(filename)[0] or upload.content_type,
                    None if description is None else str(description))
                message.files[attachment.id] = attachment
            url = f"{self.base_url}/attachments/{message.channel_id}/{attachment.id}/" \
                  f"{attachment.filename}"
            result.append(P.attachment_payload(attachment, url))
        return result

    def _mentions(self, body: dict[str, Any]) -> list[FakeUser]:
        """Users mentioned in the content, minus those ``allowed_mentions`` suppresses."""
        allowed = body.get("allowed_mentions")
        found = [self.users[i] for i in mentioned_user_ids(body.get("content") or "")
                 if i in self.users]
        if allowed is None or "users" in allowed.get("parse", []):
            return found
        listed = {int(u) for u in allowed.get("users", [])}
        return [u for u in found if u.id in listed]

    async def _echo(self, event: str, message: StoredMessage) -> None:
        """The gateway event Discord sends about a (non-ephemeral) message change."""
        if not self.echo_messages or message.ephemeral:
            return
        session = self.session_for(message.guild_id)
        if session is None:
            return
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel_id)}
        else:
            data = dict(message.payload)
        if message.guild_id is not None:
            data["guild_id"] = str(message.guild_id)
            member = self.guilds[message.guild_id].members.get(message.author_id)
            if member is not None and event != "MESSAGE_DELETE":
                data["member"] = P.member_payload(member, with_user=False)
        await self.dispatch(event, data, guild_id=message.guild_id)

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if request.query.get("encoding", "json") != "json":
            await ws.close(code=4002, message=b"Decode error")
            return ws
        try:
            connection = GatewayConnection(ws, request.query.get("compress"))
        except ValueError:
            await ws.close(code=4002, message=b"Decode error")
            return ws
        self._connections.add(connection)
        try:
            await self._send(connection, 0, {"op": 10, "d": {
                "heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fakediscord"]}})
            async for msg in ws:
                if msg.type in (WSMsgType.TEXT, WSMsgType.BINARY):
                    await self._on_frame(connection, json.loads(msg.data))
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
                # A normal close (1000/1001) ends the session; others leave it resumable.
                if ws.close_code in (1000, 1001):
                    session.closed = True
            self.notify()
        return ws

    async def _send(self, connection: GatewayConnection, shard_id: int,
                    payload: dict[str, Any]) -> None:
        payload = {"op": payload["op"], "d": payload["d"], "s": payload.get("s"),
                   "t": payload.get("t")}
        self.frames.append(GatewayFrame("send", shard_id, payload["op"], payload["t"],
                                        payload["s"], payload["d"]))
        await connection.send(payload)
        self.notify()

    async def _send_dispatch(self, session: GatewaySession, event: str, data: Any) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.backlog.append(payload)
        if session.connection is not None:
            await self._send(session.connection, session.shard_id, payload)

    async def _on_frame(self, connection: GatewayConnection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        data: Any = payload.get("d")
        shard = connection.session.shard_id if connection.session else 0
        if op == 2 and isinstance(data, dict) and data.get("shard"):
            shard = data["shard"][0]
        self.frames.append(GatewayFrame("recv", shard, int(op or 0), None, None, data))
        self.notify()
        if op == 1:
            await self._send(connection, shard, {"op": 11, "d": None})
        elif op == 2:
            await self._identify(connection, data)
        elif op == 3 and connection.session is not None:
            connection.session.presence = data
        elif op == 4:
            pass  # voice state update: recorded, not acted on
        elif op == 6:
            await self._resume(connection, data)
        elif op == 8 and connection.session is not None:
            await self._member_chunk(connection.session, data)
        else:
            await connection.ws.close(code=4001, message=b"Unknown opcode")

    async def _identify(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await connection.ws.close(code=4004, message=b"Authentication failed")
            return
        intents = int(data.get("intents", 0))
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await connection.ws.close(code=4014, message=b"Disallowed intent(s)")
            return
        shard_id, shard_count = data.get("shard") or (0, 1)
        session = GatewaySession(secrets.token_hex(16), shard_id, shard_count, intents,
                                 connection=connection)
        connection.session = session
        self.sessions[session.session_id] = session
        guilds = [g for g in self.guilds.values() if (g.id >> 22) % shard_count == shard_id]
        await self._send_dispatch(session, "READY", {
            "v": 10,
            "user": P.client_user_payload(self.bot_user),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        })
        for guild in guilds:
            members = list(guild.members.values()) if intents & INTENT_GUILD_PRESENCES else [
                guild.members[self.bot_user.id]]
            await self._send_dispatch(session, "GUILD_CREATE",
                                      P.guild_create_payload(guild, members=members))

    async def _resume(self, connection: GatewayConnection, data: dict[str, Any]) -> None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None or session.closed or data.get("token") != self.token:
            await self._send(connection, 0, {"op": 9, "d": False})
            return
        session.connection = connection
        connection.session = session
        missed = [p for p in session.backlog if p["s"] > (data.get("seq") or 0)]
        for payload in missed:
            await self._send(connection, session.shard_id, payload)
        await self._send_dispatch(session, "RESUMED", {"_trace": ["fakediscord"]})

    async def _member_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.guilds.get(int(data["guild_id"]))
        if guild is None:
            return
        members = list(guild.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.user.id in wanted]
        elif data.get("query"):
            query = str(data["query"]).lower()
            members = [m for m in members if m.user.username.lower().startswith(query)]
        if data.get("limit"):
            members = members[:int(data["limit"])]
        chunk: dict[str, Any] = {"guild_id": str(guild.id),
                                 "members": [P.member_payload(m) for m in members],
                                 "chunk_index": 0, "chunk_count": 1, "not_found": []}
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._send_dispatch(session, "GUILD_MEMBERS_CHUNK", chunk)

    def _intents_allow(self, session: GatewaySession, event: str, data: dict[str, Any]) -> bool:
        if event.startswith("MESSAGE_"):
            needed = INTENT_DIRECT_MESSAGES if "guild_id" not in data else INTENT_GUILD_MESSAGES
            return bool(session.intents & needed)
        return True

    def _shape_for_intents(self, session: GatewaySession, event: str, data: dict[str, Any]
                           ) -> dict[str, Any]:
        """Without MESSAGE_CONTENT, Discord blanks content, embeds, attachments and
        components of guild messages not written by the bot and not mentioning it."""
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or session.intents & (
                INTENT_MESSAGE_CONTENT) or "guild_id" not in data:
            return data
        author = int(data.get("author", {}).get("id", 0))
        mentioned = any(int(u["id"]) == self.bot_user.id for u in data.get("mentions", []))
        if author == self.bot_user.id or mentioned:
            return data
        return {**data, "content": "", "embeds": [], "attachments": [], "components": []}


async def _read_body(request: web.Request) -> tuple[Any, list[UploadedFile]]:
    """The JSON body, or for multipart the parsed ``payload_json`` part and the files."""
    if request.content_type.startswith("multipart/"):
        body: Any = None
        files: list[UploadedFile] = []
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                continue
            data = await part.read()
            if part.name == "payload_json":
                body = json.loads(bytes(data))
            elif part.filename is not None:
                files.append(UploadedFile(part.name or "", part.filename,
                                          part.headers.get("Content-Type",
                                                           "application/octet-stream"),
                                          bytes(data)))
        return body, files
    raw = await request.read()
    if not raw:
        return None, []
    try:
        return json.loads(raw), []
    except ValueError:
        return raw.decode(errors="replace"), []

"""The web table across processes: a page's socket reaches the table's owner through any
process (``docs/scale.md``, "The web table across processes").

Every process serves the same public URL behind a plain reverse proxy; a table is driven
by the process that owns its shard. A socket may reach any process:

1. **The receiving process authenticates, once.** It verifies the page's first frame as
   it would for its own table (a link key's signature and expiry; for the Activity, the
   access token and the instance with Discord, :mod:`bot.web.activity`). A table it does
   not hold goes to :meth:`OwnerRelay.carry`.
2. **It finds the owner**: the table's row names its guild, so its shard
   (:class:`bot.cluster.Ownership`), and the registry the address of the process holding
   that shard's lock (:class:`bot.cluster.addresses.WebAddresses`).
3. **It relays.** It opens ``/ws/relay`` on the owner's internal address and sends first
   ``{"v": 1, "type": "relay", "pass": PASS, "nonce": NONCE}``: a *relay pass*, signed
   with a key derived from the web secret and a fresh random nonce (:func:`relay_secret`;
   never a valid link, and a link never a valid relay pass) for the same user, table and
   role, working :data:`PASS_TTL` seconds. From then on it copies frames both ways,
   unchanged. The page's link key and the Activity's access token never leave the
   receiving process.
4. **The owner authorizes** (:class:`RelayAdmission`): it admits the pass as it admits a
   link on its own socket — the seat as it is now, the same refusals, caps, rate limits
   and hostile-frame checks — and never relays further. A pass works once: its nonce is
   remembered until the pass expires, and a second socket with it is refused
   (``forged``). ``/ws/relay`` refuses a request that carries an ``Origin`` (a
   browser's).

**The owner changing.** When the owner's socket ends without the owner closing it for
good (the process stops: its server closes every socket with 1012; it is killed or cut
off), when the owner cannot be reached, or when the registry names another process for
the shard (checked every :data:`~bot.cluster.addresses.PERIOD` seconds), the page's socket
is closed with a *reconnect hint*: 1012 (service restart) or 1013 (try again later), no
``closed`` frame. A socket a process serves itself is closed likewise once the registry
names another process for its table's shard (this one lost the shard's lock to it), and a
process relays a table it still holds whose shard another process is recorded for. The
page reconnects (with backoff) and lands on the new owner. A socket the owner closed for
good (the match ended, the user lost the seat) is closed with the owner's own code, after
its last frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
from typing import Any

import aiohttp
from aiohttp import WSCloseCode, WSMsgType, web

from bot.cluster.addresses import WebAddresses
from bot.cluster.ownership import Ownership
from bot.i18n import Translator
from bot.service import TableService
from bot.service.seats import seat_of, seats_from_json
from bot.web import links
from bot.web.admission import Admitting, KeyAdmission
from bot.web.config import BAD_LINK, Refuse, WebConfig
from bot.web.inbound import text_field
from bot.web.limits import Recent
from bot.web.protocol import VERSION, RelayFrame
from bot.web.sockets import serve
from storage import Store
from storage.models import ChannelLocation, Location

log = logging.getLogger(__name__)

PATH = "/ws/relay"
PASS_TTL = 30
"""Seconds a relay pass works (it is used at once)."""
RESTART = WSCloseCode.SERVICE_RESTART
"""1012: the table's process went away or changed; reconnect."""
TRY_AGAIN = WSCloseCode.TRY_AGAIN_LATER
"""1013: the table's process cannot be reached now; reconnect later."""
DONE = WSCloseCode.OK
"""1000: the owner ended the socket for good (its last frame said why); passed on."""


def relay_secret(secret: bytes, nonce: str = "") -> bytes:
    """The key relay passes with ``nonce`` are signed with, derived from the web secret."""
    return hmac.new(secret, b"tricktable web relay" + nonce.encode("ascii"),
                    hashlib.sha256).digest()


class RelayAdmission(KeyAdmission):
    """The owner's side of a relayed socket: admitted by a relay pass used once (module
    docstring), then an ordinary viewer of this process's table."""

    relays = False

    def __init__(self, secret: bytes, used: Recent) -> None:
        super().__init__(secret, "relay", "pass")
        self.used = used

    async def admit(self, frame: dict[str, Any], viewer: Admitting) -> links.Pass:
        nonce = text_field(frame, "nonce", 64)
        if nonce is None or nonce in self.used:
            raise Refuse("forged", viewer.t.gettext(BAD_LINK))
        p = await KeyAdmission(relay_secret(self.secret, nonce), self.first,
                               self.field).admit(frame, viewer)
        self.used.add(nonce)
        return p


class OwnerRelay:
    """The receiving side (module docstring): finds a table's owner and relays a socket
    to it. :meth:`listen` once the web server listens; :meth:`close` with it."""

    def __init__(self, store: Store, ownership: Ownership, config: WebConfig, *,
                 timeout: float = 5.0) -> None:
        self.store = store
        self.ownership = ownership
        self.config = config
        self.timeout = timeout
        self.addresses: WebAddresses | None = None
        self.session: aiohttp.ClientSession | None = None

    async def listen(self, addresses: WebAddresses) -> None:
        """Record this process's address (``addresses``) and start relaying."""
        self.session = aiohttp.ClientSession(
            timeout=aiohttp.ClientTimeout(total=None, connect=self.timeout))
        self.addresses = addresses
        await addresses.start()

    async def close(self) -> None:
        if self.addresses is not None:
            await self.addresses.close()
        if self.session is not None:
            await self.session.close()
            self.session = None

    async def find(self, location: ChannelLocation, user: int) -> links.Pass | None:
        row = await self.store.find_open_table(location)
        if row is None:
            return None
        seated = seat_of(seats_from_json(row.seats), user) is not None
        return links.Pass(row.id, user, "seat" if seated else "watch", 0)

    async def serves(self, service: TableService, table: int) -> bool:
        if not service.holds(table):
            return False
        shard = self.ownership.owner_shard(service.info(table).location)
        if self.addresses is None or shard is None:
            return True
        return await self.addresses.owner(shard) in (self.addresses.url, None)

    def guard(self, ws: web.WebSocketResponse,
              location: Location) -> asyncio.Task[None] | None:
        shard = self.ownership.owner_shard(location)
        if self.addresses is None or shard is None:
            return None
        return asyncio.create_task(_close_when_moved(ws, self.addresses, shard),
                                   name="web-owner-guard")

    async def carry(self, page: web.WebSocketResponse, t: Translator,
                    admitted: links.Pass) -> None:
        row = await self.store.get_table(admitted.table)
        shard = None if row is None else self.ownership.owner_shard(row.location)
        if row is None or shard is None or row.status not in ("lobby", "playing"):
            raise Refuse("table", t.gettext(BAD_LINK))
        addresses, session = self.addresses, self.session
        owner = None if addresses is None else await addresses.owner(shard)
        if addresses is None or session is None or owner is None or owner == addresses.url:
            await page.close(code=TRY_AGAIN)  # no owner serving it yet
            return
        nonce = secrets.token_urlsafe(16)
        key = links.sign(relay_secret(self.config.secret, nonce), links.Pass(
            admitted.table, admitted.user, admitted.role,
            int(self.config.clock()) + PASS_TTL))
        connected = await self._connect(session, addresses, shard, owner)
        if connected is None:
            log.info("table %s: its owner (shard %s) cannot be reached", admitted.table,
                     shard)
            await page.close(code=TRY_AGAIN)
            return
        upstream, owner = connected
        try:
            first: RelayFrame = {"v": VERSION, "type": "relay", "pass": key, "nonce": nonce}
            await upstream.send_str(json.dumps(first))
            code = await self._pipe(page, upstream, shard, owner, addresses)
        finally:
            await upstream.close()
        await page.close(code=code)

    async def _connect(self, session: aiohttp.ClientSession, addresses: WebAddresses,
                       shard: int, owner: str
                       ) -> tuple[aiohttp.ClientWebSocketResponse, str] | None:
        """The owner's ``/ws/relay`` and its address; when the address read last does not
        answer, the registry is read again and a newer address tried (the shard's process
        restarted elsewhere). None: no owner answers."""
        tried: set[str] = set()
        while owner not in tried and owner != addresses.url:
            tried.add(owner)
            try:
                return await session.ws_connect(owner + PATH, heartbeat=25.0,
                                                max_msg_size=0), owner
            except (aiohttp.ClientError, OSError, TimeoutError) as exc:
                log.debug("the web address %s does not answer (%r)", owner, exc)
            owner = await addresses.owner(shard, fresh=True) or owner
        return None

    async def _pipe(self, page: web.WebSocketResponse,
                    upstream: aiohttp.ClientWebSocketResponse, shard: int, owner: str,
                    addresses: WebAddresses) -> int:
        """Copy frames both ways until one side ends or the owner changes; returns the
        code to close the page's socket with (module docstring)."""
        down = asyncio.create_task(_copy_down(upstream, page), name="relay-down")
        up = asyncio.create_task(_copy_up(page, upstream), name="relay-up")
        moved = asyncio.create_task(_moved(addresses, shard, owner), name="relay-owner")
        tasks = (down, up, moved)
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        ended = down.done() and not down.cancelled() and down.exception() is None
        return int(DONE) if ended and upstream.close_code == DONE else int(RESTART)


async def _copy_down(upstream: aiohttp.ClientWebSocketResponse,
                     page: web.WebSocketResponse) -> None:
    """The owner's frames to the page, until the owner's socket ends."""
    async for msg in upstream:
        if msg.type != WSMsgType.TEXT or page.closed:
            break
        await page.send_str(msg.data)


async def _copy_up(page: web.WebSocketResponse,
                   upstream: aiohttp.ClientWebSocketResponse) -> None:
    """The page's frames to the owner (checked there), until the page's socket ends."""
    async for msg in page:
        if upstream.closed:
            break
        if msg.type == WSMsgType.TEXT:
            await upstream.send_str(msg.data)
        elif msg.type == WSMsgType.BINARY:
            await upstream.send_bytes(msg.data)


async def _moved(addresses: WebAddresses, shard: int, owner: str) -> None:
    """Return once the registry names another process for ``shard``."""
    while True:
        await asyncio.sleep(addresses.period)
        with contextlib.suppress(Exception):  # the store out: keep the socket meanwhile
            if await addresses.owner(shard) not in (owner, None):
                return


async def _close_when_moved(ws: web.WebSocketResponse, addresses: WebAddresses,
                            shard: int) -> None:
    """Close a socket this process serves once another is recorded for ``shard``."""
    await _moved(addresses, shard, addresses.url)
    await ws.close(code=RESTART)


def install(app: web.Application, service: TableService, config: WebConfig) -> None:
    """Add ``/ws/relay`` (the owner's side) to the web table's application."""
    used = Recent(ttl=PASS_TTL + 5)

    async def socket(request: web.Request) -> web.StreamResponse:
        if "Origin" in request.headers:  # a browser's: relays come from processes only
            raise web.HTTPForbidden(text="this socket serves the bot's own processes only")
        return await serve(request, config,
                           lambda address: RelayAdmission(config.secret, used),
                           counted=False)

    app.router.add_get(PATH, socket)


"""What every socket of a web application shares (:class:`WebConfig`), and the words and
refusal every door uses: a leaf under :mod:`bot.web.viewer` and
:mod:`bot.web.admission`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from aiohttp import web

from bot.i18n import N_, Translator
from bot.service import TableService
from bot.web import links
from bot.web.access import Access
from bot.web.fanout import FrameCache
from bot.web.lobby import LobbyRights
from bot.web.presence import Presence
from bot.web.registry import Sockets
from storage.models import ChannelLocation, Location

if TYPE_CHECKING:
    from bot.web.reveals import Reveals

BAD_LINK = N_("This link does not open a table here: ask for a new one.")
EXPIRED = N_("This link has expired: ask for a new one.")
NO_SEAT = N_("You no longer sit at this table.")

Again = Callable[[int, int], Awaitable[str | None]]
"""Start a new match like table ``table`` for user ``user`` (local play's **Play again**):
the signed key of the new table's seat, or None when none could start."""

Languages = Callable[[int], Awaitable[str]]
"""The language of a user's page (a user id → a language code)."""


async def english(user: int) -> str:
    return "en"


@dataclass
class WebConfig:
    """What every socket of an application shares."""

    secret: bytes
    language: Languages = english
    max_frame: int = 2048
    """The largest frame a page may send (bytes)."""
    rate: float = 8.0
    burst: int = 16
    strikes: int = 20
    """Bad frames (unreadable, of no known type, over the budget) a socket may send; the
    next one closes it."""
    join_timeout: float = 10.0
    """Seconds an opened socket has to send its first frame."""
    header_timeout: float = 15.0
    """Seconds a connection has to send a whole request (headers included), and the most
    an idle HTTP connection is kept open (aiohttp's ``keepalive_timeout``)."""
    clock: Callable[[], float] = time.time
    """The wall clock links expire on (tests move it)."""
    sockets: Sockets = field(default_factory=Sockets)
    """Every open socket, with the caps on them, and who is at which table (the
    spectators counted; :mod:`bot.web.registry`)."""
    forwarded: bool = False
    """Whether a client's address is the last entry of ``X-Forwarded-For`` (a reverse
    proxy in front sets it) rather than the connection's peer."""
    relay: Relay | None = None
    """Several processes: how a socket reaches its table's owner (None: one process)."""
    presence: Presence = field(default_factory=Presence)
    """Who has a socket on which table (the table message names them)."""
    lobby: LobbyRights | None = None
    """Who may do what in a lobby (None: the page offers no lobby action)."""
    frames: FrameCache = field(default_factory=FrameCache)
    """Frames worded once for every socket that receives them (:mod:`bot.web.fanout`)."""
    reveals: Reveals | None = None
    """A duplicate service's board reveals (:class:`bot.web.reveals.Reveals`, given by the
    composition root; None: no duplicate events in this process)."""
    avatars: dict[int, str] = field(default_factory=dict)
    """Users' avatar URLs on Discord's CDN, when known (the Activity learns its users'),
    shown with their seats."""
    again: Again | None = None
    """Local play: start a new match after one is over (None: no **Play again**)."""
    access: Access = field(default_factory=Access)
    """Whether a user may still read a table's channel (asked when a socket joins); it
    closes, among :attr:`sockets`, those of a user who lost it (:mod:`bot.web.access`)."""

    def __post_init__(self) -> None:
        self.access.bind(self.sockets)


class Refuse(Exception):
    """End the socket with this error frame."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(code)
        self.code = code
        self.text = text


class Relay(Protocol):
    """Carries a socket whose table another process owns to that process
    (:mod:`bot.web.relay`; ``docs/scale.md``, "The web table across processes")."""

    async def serves(self, service: TableService, table: int) -> bool:
        """Whether this process drives ``table``'s socket itself: it holds the table and
        no other process is recorded for its shard."""
        ...

    async def carry(self, ws: web.WebSocketResponse, t: Translator,
                    admitted: links.Pass) -> None:
        """Relay the page's socket ``ws`` (its words: ``t``) to the process that owns
        ``admitted``'s table, until it ends."""
        ...

    def guard(self, ws: web.WebSocketResponse,
              location: Location) -> asyncio.Task[None] | None:
        """A task closing ``ws`` with the reconnect hint once another process is recorded
        for the shard of ``location`` (None: nothing to watch)."""
        ...

    async def find(self, location: ChannelLocation, user: int) -> links.Pass | None:
        """The open table at ``location`` wherever it is held, as a pass for ``user``
        (their seat when they sit there, else the public view)."""
        ...

"""Who may still read a table's channel, and closing the pages of those who no longer may
(``docs/web.md``, "Revocation").

A link (:mod:`bot.web.links`) is a bearer key working for hours; what it opens must end
when its holder can no longer read the table's channel (an overwrite or a role changed,
banned, gone from the server) or no longer sits at the table. Two discord-free hooks:

* :class:`ChannelAccess` — bound by the bot (:mod:`bot.discord_bot.tables.web_access`):
  asked when a socket joins (a seat, watch, relayed or Activity socket alike), so a link
  of someone who lost the channel opens nothing;
* :class:`Access` — holds that check and reads the admitted sockets by table and user
  from the socket registry (:class:`bot.web.registry.Sockets`). :meth:`Access.revoke`
  closes a user's sockets at a table with a ``closed`` frame saying why (a final close:
  the page does not reconnect): the bot calls it when Discord tells it of a ban, and
  :meth:`Access.recheck` when a channel's overwrites or a role's permissions change.
  While any socket is open, every :data:`RECHECK` seconds each user is checked again
  with Discord (``fresh``): what the bot is not told without the privileged Server
  Members intent (a member who left, a role taken away) ends their pages then.

A seat's socket whose user leaves the seat is closed by the viewer itself (the lobby
event that emptied the seat).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from bot.i18n import N_

if TYPE_CHECKING:
    from bot.web.registry import Sockets

log = logging.getLogger(__name__)

NO_ACCESS = N_("You can no longer see this table's channel on Discord, so this link no "
               "longer opens its table.")


RECHECK = 60.0
"""Seconds between two re-checks of every open socket's user (what Discord does not tell
the bot without a privileged intent: a member who left, a role taken away)."""


class ChannelAccess(Protocol):
    """Whether a user may still read a table's channel (the bot binds one)."""

    async def may_view(self, table: int, user: int, *, fresh: bool = False) -> bool:
        """False when ``user`` can no longer read ``table``'s channel (no View Channel,
        banned, not a member); True when they can, or when it cannot be known now
        (Discord not answering: the next re-check asks again). ``fresh``: ask Discord
        again rather than a recent answer."""
        ...


class Access:
    """The bound :class:`ChannelAccess` and the revocation of the sockets it no longer
    admits (module docstring). Which sockets are open, and whose at which table, is the
    socket registry's (:class:`bot.web.registry.Sockets`, bound by
    :class:`bot.web.config.WebConfig`): one place holds them for the caps, the spectators'
    count and this."""

    def __init__(self, check: ChannelAccess | None = None, *, period: float = RECHECK
                 ) -> None:
        self.check = check
        """None: a valid link is enough (no Discord to ask)."""
        self.period = period
        self._registry: Sockets | None = None
        self._task: asyncio.Task[None] | None = None

    def bind(self, registry: Sockets) -> None:
        """Read the admitted sockets from ``registry``."""
        self._registry = registry

    @property
    def registry(self) -> Sockets:
        if self._registry is None:
            raise RuntimeError("Access.bind was not called")
        return self._registry

    async def admits(self, table: int, user: int) -> bool:
        """Whether a socket of ``user`` may join ``table`` (asked when it joins)."""
        return self.check is None or await self.check.may_view(table, user)

    def watch(self) -> None:
        """A socket was admitted: the periodic re-check runs while any is (it ends by
        itself once none is left)."""
        if self.check is not None and self._task is None:
            self._task = asyncio.create_task(self._periodically(), name="web-access")

    def held(self) -> list[tuple[int, int]]:
        """Every (table, user) with an admitted socket, now."""
        return self.registry.held()

    def sockets(self, table: int, user: int) -> int:
        """How many sockets ``user`` has open at ``table``."""
        return self.registry.count(table, user)

    async def recheck(self, tables: Callable[[int], bool] | None = None, *,
                      fresh: bool = False) -> int:
        """Ask again for every held (table, user) whose table ``tables`` selects (all when
        None) and close the sockets of those who lost the channel; returns how many
        users lost it."""
        check = self.check
        if check is None:
            return 0
        lost = 0
        for table, user in self.held():
            if tables is not None and not tables(table):
                continue
            try:
                allowed = await check.may_view(table, user, fresh=fresh)
            except Exception:
                log.exception("table %s: could not check a web user's access", table)
                continue
            if not allowed:
                lost += 1
                await self.revoke(table, user)
        return lost

    async def revoke(self, table: int, user: int, text: str = NO_ACCESS) -> int:
        """Close every socket of ``user`` at ``table``: a ``closed`` frame with ``text``
        (a message id, worded in each page's language; a final close, the page does not
        reconnect), then the close. Returns how many were closed."""
        closed = await self.registry.revoke(table, user, text)
        if closed:
            log.info("table %s: closed %d web socket(s) of a user who lost access", table,
                     closed)
        return closed

    async def _periodically(self) -> None:
        try:
            while self.held():
                await asyncio.sleep(self.period)
                await self.recheck(fresh=True)
        finally:
            if self._task is asyncio.current_task():
                self._task = None

"""Every open socket of a web server, with the caps on how many one client may hold
(``docs/web.md``, "Limits"), who is at which table, and the one way to end a user's
sockets from outside.

A socket is counted from its opening (its client's address, the total) and again once
admitted (its user; its link: user, table and role). Each cap refused is an error frame
in player words (:mod:`bot.web.viewer`); the counts drop when the socket ends, however it
ends. The sockets at a table in the ``watch`` role are its spectators: whenever their
number changes, every other socket at the table is told (:meth:`Held.tell_spectators`).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from aiohttp import web

from bot.i18n import N_

K = TypeVar("K")

FULL = N_("The table server is full right now: try again in a few minutes.")
ADDRESS_FULL = N_("Too many pages are open from your network: close some and try again.")
USER_FULL = N_("You have too many table pages open: close one and try again.")
LINK_FULL = N_("This table is already open in too many of your pages: close one and try "
               "again.")


@dataclass(frozen=True)
class Caps:
    """How many sockets are allowed (``docs/web.md``, "Limits")."""

    total: int = 5000
    per_address: int = 32
    """Sockets opened from one client address (a household or a school behind one
    address holds several players)."""
    per_user: int = 8
    """Admitted sockets of one user, over every table."""
    per_link: int = 4
    """Admitted sockets of one user at one table in one role (a page needs one; two tabs,
    two)."""


class Held(Protocol):
    """What the registry needs of a socket's viewer: to tell it the spectators' count and
    to end it with a reason."""

    def tell_spectators(self, count: int) -> None:
        """Send the page the table's spectators' count (in the background)."""
        ...

    async def end(self, reason: str) -> None:
        """Send a ``closed`` frame saying ``reason`` (a message id, ``N_``, worded in the
        viewer's language) and close the socket for good."""
        ...


@dataclass
class Entry:
    ws: web.WebSocketResponse
    address: str | None
    """The client's address (None: a relayed socket, counted where it was received)."""
    viewer: Held | None = None
    link: tuple[int, int, str] | None = None
    """(table, user, role) once admitted."""


@dataclass
class Sockets:
    """The open sockets (module docstring)."""

    caps: Caps = field(default_factory=Caps)
    _entries: dict[web.WebSocketResponse, Entry] = field(default_factory=dict)
    _addresses: Counter[str] = field(default_factory=Counter)
    _users: Counter[int] = field(default_factory=Counter)
    _links: Counter[tuple[int, int, str]] = field(default_factory=Counter)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[web.WebSocketResponse]:
        return iter(list(self._entries))

    def opened(self, ws: web.WebSocketResponse, address: str | None) -> str | None:
        """Count a socket just opened from ``address``; the refusal (a message id) when a
        cap is reached, the socket then not counted."""
        if len(self._entries) >= self.caps.total:
            return FULL
        if address is not None and self._addresses[address] >= self.caps.per_address:
            return ADDRESS_FULL
        self._entries[ws] = Entry(ws, address)
        if address is not None:
            self._addresses[address] += 1
        return None

    def admitted(self, ws: web.WebSocketResponse, viewer: Held, table: int, user: int,
                 role: str) -> str | None:
        """Count the socket's user and link; the refusal (a message id) when a cap is
        reached."""
        entry = self._entries.get(ws)
        if entry is None:
            return None
        self._forget_link(entry)
        link = (table, user, role)
        if self._users[user] >= self.caps.per_user:
            return USER_FULL
        if self._links[link] >= self.caps.per_link:
            return LINK_FULL
        entry.viewer, entry.link = viewer, link
        self._users[user] += 1
        self._links[link] += 1
        self._changed(entry, None, link)
        return None

    def moved(self, ws: web.WebSocketResponse, link: tuple[int, int, str]) -> None:
        """The socket's page is at another link now (a lobby seat taken, **Play again**):
        counted there, without a cap (the socket is already counted)."""
        entry = self._entries.get(ws)
        if entry is None or entry.link is None:
            return
        old = entry.link
        _drop(self._links, old)
        _drop(self._users, old[1])
        entry.link = link
        self._links[link] += 1
        self._users[link[1]] += 1
        self._changed(entry, old, link)

    def closed(self, ws: web.WebSocketResponse) -> None:
        entry = self._entries.pop(ws, None)
        if entry is None:
            return
        self._forget_link(entry)
        if entry.address is not None:
            _drop(self._addresses, entry.address)

    def _forget_link(self, entry: Entry) -> None:
        old = entry.link
        if old is None:
            return
        _drop(self._users, old[1])
        _drop(self._links, old)
        entry.link = entry.viewer = None
        self._changed(entry, old, None)

    def spectators(self, table: int) -> int:
        """How many sockets watch ``table`` (the public view)."""
        return sum(e.link is not None and e.link[0] == table and e.link[2] == "watch"
                   for e in self._entries.values())

    def _changed(self, moved: Entry, old: tuple[int, int, str] | None,
                 new: tuple[int, int, str] | None) -> None:
        """The socket of ``moved`` left ``old`` and is at ``new``: tell the other sockets
        of the tables whose spectators' count changed."""
        tables = {link[0] for link in (old, new)
                  if link is not None and link[2] == "watch"}
        if old is not None and new is not None and old[0] == new[0] and old[2] == new[2]:
            tables.clear()
        for table in tables:
            count = self.spectators(table)
            for entry in list(self._entries.values()):
                if (entry is not moved and entry.viewer is not None
                        and entry.link is not None and entry.link[0] == table):
                    entry.viewer.tell_spectators(count)

    def held(self) -> list[tuple[int, int]]:
        """Every (table, user) with an admitted socket, now."""
        return list(dict.fromkeys(e.link[:2] for e in self._entries.values()
                                  if e.link is not None))

    def count(self, table: int, user: int) -> int:
        """How many admitted sockets ``user`` has at ``table`` (any role)."""
        return sum(e.link is not None and e.link[:2] == (table, user)
                   for e in self._entries.values())

    async def revoke(self, table: int, user: int, reason: str, *,
                     role: str | None = None) -> int:
        """End every admitted socket of ``user`` at ``table`` (only those of ``role`` when
        given) with a ``closed`` frame saying ``reason`` (a message id, ``N_``, worded in
        each page's language); the page does not reconnect. Returns how many ended."""
        ending = [e.viewer for e in self._entries.values()
                  if e.viewer is not None and e.link is not None and not e.ws.closed
                  and e.link[:2] == (table, user) and role in (None, e.link[2])]
        for viewer in ending:
            with contextlib.suppress(ConnectionResetError, RuntimeError):
                await viewer.end(reason)  # the page may have gone meanwhile
        return len(ending)


def _drop(counter: Counter[K], key: K) -> None:
    counter[key] -= 1
    if counter[key] <= 0:
        del counter[key]

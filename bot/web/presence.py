"""Who is at a table on the web: the users with an open socket (a page or the Discord
Activity) on each table this process serves.

A discord-free hook (``docs/web.md``, "With the bot"): every admitted socket
:meth:`Presence.enter` s its table and :meth:`Presence.leave` s it when it ends; the table
message reads :meth:`Presence.users` when it draws. ``on_change(table)`` is called only
when the *set* of users of a table changes (a user's first socket opens or their last one
closes), never per socket of a user with several tabs; the table message then redraws
through its usual coalescing, so socket churn costs no request of its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable


class Presence:
    """The users with open sockets, per table (module docstring)."""

    def __init__(self) -> None:
        self._tables: dict[int, Counter[int]] = {}
        self.on_change: Callable[[int], None] | None = None
        """Called with a table whose set of users changed (set by the bot's binding)."""

    def users(self, table: int) -> tuple[int, ...]:
        """The users with a socket on ``table``, in the order they arrived."""
        return tuple(self._tables.get(table, ()))

    def enter(self, table: int, user: int) -> None:
        sockets = self._tables.setdefault(table, Counter())
        sockets[user] += 1
        if sockets[user] == 1:
            self._changed(table)

    def leave(self, table: int, user: int) -> None:
        sockets = self._tables.get(table)
        if sockets is None or sockets[user] <= 0:
            return
        sockets[user] -= 1
        if sockets[user] == 0:
            del sockets[user]
            if not sockets:
                del self._tables[table]
            self._changed(table)

    def _changed(self, table: int) -> None:
        if self.on_change is not None:
            self.on_change(table)

"""The receiving side: hand a request for another process's table to its owner.

Discord delivers every DM click to shard 0, whatever the table's guild. The process that
receives a click for a table it does not own first acknowledges the interaction (within
Discord's 3 seconds: defer it), then calls :meth:`ForwardingClient.forward`:

1. the table's row says its guild, and so its owner's shard (a closed table is answered
   ``no_table`` at once);
2. the request is written to the inbox for that shard (durable; PostgreSQL ``NOTIFY``
   wakes the owner) under the caller's ``key`` — the interaction id, so a click handled
   twice is written once;
3. it waits up to ``timeout`` seconds for the owner's outcome (woken by the owner's
   ``NOTIFY`` on completion, polling as a fallback) and returns it. The owner has already
   answered the player through the :class:`~bot.cluster.protocol.AnswerCallback`; the
   returned outcome is for the caller's logs and tests.
4. When the owner does not answer in time (or the database does not answer a read of the
   outcome: the request is written, so waiting is right) the result is ``timeout``: tell
   the player privately that their table's process is not answering. The request stays
   in the inbox and is applied at most once when the owner is back (within
   :data:`bot.cluster.inbox.MAX_AGE`), so nothing is lost and nothing is applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.cluster.ownership import Ownership
from bot.cluster.protocol import ForwardOutcome, ForwardRequest
from bot.service.errors import TABLE_GONE
from storage import ForwardedAction, Listener, Store, Table
from storage.inbox import DONE_CHANNEL
from storage.models import JsonObject

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 3.0
"""Seconds to wait for the owner's outcome before telling the player it is not answering."""


class ForwardingClient:
    """Forwards requests to their tables' owners (see the module docstring)."""

    def __init__(self, store: Store, ownership: Ownership, *,
                 timeout: float = DEFAULT_TIMEOUT, poll_seconds: float = 0.5,
                 listener: Listener | None = None) -> None:
        """``listener``: a shared listener (its owner closes it); default: one of its own."""
        self.store = store
        self.ownership = ownership
        self.timeout = timeout
        self.poll_seconds = poll_seconds
        self._waiting: dict[int, asyncio.Event] = {}
        self._given_listener = listener
        self._listener: Listener | None = None

    async def start(self) -> None:
        """Listen for completions (without it, :meth:`forward` polls)."""
        self._listener = self._given_listener or self.store.listener()
        await self._listener.listen(DONE_CHANNEL, self._completed)

    async def close(self) -> None:
        if self._listener is not None and self._given_listener is None:
            await self._listener.close()
        self._listener = None

    def _completed(self, payload: str) -> None:
        with contextlib.suppress(ValueError):
            event = self._waiting.get(int(payload))
            if event is not None:
                event.set()

    async def forward(self, request: ForwardRequest, *, key: str,
                      reply_to: JsonObject | None = None,
                      timeout: float | None = None,
                      table: Table | None = None) -> ForwardOutcome:
        """Write ``request`` for its table's owner and wait for the outcome (at most
        ``timeout`` seconds, default :attr:`timeout`). ``key`` identifies the request
        (the interaction id); ``reply_to`` is what the owner's answer callback needs to
        answer the player (kept only until the request is done). ``table``: the table's
        row when the caller has just read it (one read less on the player's path)."""
        if table is None or table.id != request.table_id:
            table = await self.store.get_table(request.table_id)
        shard = None if table is None else self.ownership.owner_shard(table.location)
        if table is None or shard is None or table.status not in ("lobby", "playing"):
            return ForwardOutcome("no_table", TABLE_GONE)
        entry = await self.store.forward_action(table.id, shard, key, request.to_json(),
                                                reply_to=reply_to)
        return await self.wait(entry, self.timeout if timeout is None else timeout)

    async def wait(self, entry: ForwardedAction, timeout: float) -> ForwardOutcome:
        """The outcome of an inbox entry, waiting at most ``timeout`` seconds for it."""
        event = self._waiting.setdefault(entry.id, asyncio.Event())
        if self._listener is not None and not self._listener.live:
            with contextlib.suppress(Exception):
                await self._listener.ensure()  # reconnect a dropped one (else: polling)
        try:
            current: ForwardedAction | None = entry
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    while current is not None:
                        if current.status == "done":
                            return ForwardOutcome.from_json(current.outcome)
                        with contextlib.suppress(TimeoutError):
                            async with asyncio.timeout(self.poll_seconds):
                                await event.wait()
                        # Clear before reading: a completion notified during the read
                        # wakes the next wait at once.
                        event.clear()
                        try:
                            current = await self.store.get_forward(entry.id)
                        except Exception as exc:  # written already: wait for the owner
                            log.info("request %s: its outcome could not be read (%r)",
                                     entry.id, exc)
                    return ForwardOutcome("no_table", TABLE_GONE)
            log.info("table %s: its owner (shard %s) did not answer request %s in time",
                     entry.table_id, entry.shard, entry.id)
            return ForwardOutcome("timeout")
        finally:
            self._waiting.pop(entry.id, None)

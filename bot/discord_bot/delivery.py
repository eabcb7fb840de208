"""Every edit eventually lands or is superseded: :class:`LiveMessage`.

A live message is one Discord message (a table's public message, a seat's DM panel, an
ephemeral panel) that must show the newest state its owner wants. The owner calls
:meth:`LiveMessage.mark` whenever that state changed; one worker task per message then

1. waits for the owner's pacing (``wait_before``: coalescing of a burst of changes),
2. draws the wanted state *now* (``draw``: from what the owner keeps; an unchanged drawing
   costs no request),
3. edits the message, or sends it when there is none yet.

Failures (:func:`classify`):

* a rate limit that discord.py gave up on (429), a Discord server error (5xx) or a network
  error: the worker waits (backoff 0.5 s, doubling up to :data:`MAX_BACKOFF`) and tries
  again **with the newest state** — so an edit is retried until it lands or a newer state
  replaces it. The first failure of a run is logged once at WARNING with the message's
  name (table and seat); the retries are not logged again; the success after them is
  logged at INFO.
* the message is gone (10008 Unknown Message): it is sent anew (``send``).
* DMs closed (50007): ``on_closed`` is called once and the message is given up.
* any other refusal (a 4xx: the drawing itself is wrong): logged at WARNING and that
  drawing is dropped; the next change is tried again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

import aiohttp
import discord

log = logging.getLogger(__name__)

MAX_BACKOFF = 30.0
FIRST_BACKOFF = 0.5

Outcome = Literal["retry", "gone", "closed", "refused"]


@dataclass(frozen=True, slots=True)
class Drawn:
    """One drawing of a message: what to send, and the key that decides whether it
    differs from what is shown."""

    key: str
    send: Callable[[], Awaitable[int]]
    """Post the drawing as a new message; returns its id."""
    edit: Callable[[int], Awaitable[None]]
    """Edit message ``id`` to show the drawing."""


def classify(exc: BaseException) -> Outcome | None:
    """What a failed request means for a live message (None: not a delivery failure)."""
    if isinstance(exc, discord.NotFound) and exc.code in (10008, 10015, 10003):
        return "gone"
    if isinstance(exc, discord.Forbidden) and exc.code == 50007:
        return "closed"
    if isinstance(exc, discord.HTTPException):
        if exc.status == 429 or exc.status >= 500:
            return "retry"
        return "refused"
    if isinstance(exc, (aiohttp.ClientError, OSError, asyncio.TimeoutError)):
        return "retry"
    return None


class LiveMessage:
    """One message kept showing its owner's newest state (see the module docstring).

    ``name`` names it in logs (``table 12 seat 2 DM``); ``draw`` returns the drawing of
    the wanted state, or None when there is nothing to show; ``wait_before`` is awaited
    before each drawing (pacing); ``on_sent`` is told the id of a message sent (a first
    one, or a replacement of a deleted one); ``on_closed`` is called once on 50007."""

    def __init__(self, name: str, draw: Callable[[], Awaitable[Drawn | None]], *,
                 message_id: int | None = None,
                 wait_before: Callable[[], Awaitable[None]] | None = None,
                 on_sent: Callable[[int], Awaitable[None]] | None = None,
                 on_closed: Callable[[], Awaitable[None]] | None = None,
                 can_send: bool = True) -> None:
        self.name = name
        self.message_id = message_id
        self.shown: str | None = None
        """The key of the drawing the message shows (None: unknown, e.g. after a
        restart)."""
        self.failures = 0
        """Failed attempts in the current run of failures (0 once one landed)."""
        self.closed = False
        self._draw = draw
        self._wait_before = wait_before
        self._on_sent = on_sent
        self._on_closed = on_closed
        self._can_send = can_send
        self._dirty = False
        self._task: asyncio.Task[None] | None = None

    @property
    def busy(self) -> bool:
        """A change is waiting or being delivered."""
        return self._task is not None and not self._task.done()

    def mark(self) -> None:
        """The wanted state changed: (re)draw and deliver it soon."""
        if self.closed:
            return
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"live message {self.name}")

    def shown_as(self, key: str, message_id: int | None = None) -> None:
        """Record a drawing shown by other means (an interaction's answer)."""
        self.shown = key
        if message_id is not None:
            self.message_id = message_id

    def close(self) -> None:
        """Stop delivering (the owner is gone)."""
        self.closed = True
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()

    async def _run(self) -> None:
        backoff = FIRST_BACKOFF
        while self._dirty and not self.closed:
            if self._wait_before is not None:
                await self._wait_before()
            self._dirty = False
            try:
                landed = await self._deliver()
            except Exception as exc:
                outcome = classify(exc)
                if outcome is None:
                    log.exception("%s: drawing failed", self.name)
                    continue
                if outcome == "closed":
                    self.closed = True
                    if self._on_closed is not None:
                        await self._on_closed()
                    return
                if outcome == "gone":
                    log.info("%s: message %s is gone; sending it anew", self.name,
                             self.message_id)
                    self.message_id, self.shown = None, None
                    self._dirty = True
                    continue
                if outcome == "refused":
                    log.warning("%s: Discord refused the update (%s)", self.name, exc)
                    continue
                self.failures += 1
                if self.failures == 1:
                    log.warning("%s: update failed (%s); retrying until it lands", self.name,
                                _short(exc))
                self._dirty = True
                await asyncio.sleep(backoff)
                backoff = min(MAX_BACKOFF, backoff * 2)
                continue
            if landed and self.failures:
                log.info("%s: update landed after %d failed attempts", self.name,
                         self.failures)
            if landed:
                self.failures = 0
                backoff = FIRST_BACKOFF

    async def _deliver(self) -> bool:
        """Draw and send or edit; True when a request was made and succeeded."""
        drawn = await self._draw()
        if drawn is None or drawn.key == self.shown:
            return False
        if self.message_id is None:
            if not self._can_send:
                return False
            self.message_id = await drawn.send()
            self.shown = drawn.key
            if self._on_sent is not None:
                await self._on_sent(self.message_id)
            return True
        await drawn.edit(self.message_id)
        self.shown = drawn.key
        return True


def _short(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status}" + (f", code {exc.code}" if exc.code else "")
    return type(exc).__name__

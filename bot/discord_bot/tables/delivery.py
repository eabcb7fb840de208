"""Every edit eventually lands or is superseded: :class:`LiveMessage`.

A live message is one Discord message (a table's public message, a seat's DM panel, an
ephemeral panel) that must show the newest state its owner wants. The owner calls
:meth:`LiveMessage.mark` whenever that state changed; one worker task per message then

1. waits for the owner's pacing (``wait_before``: coalescing of a burst of changes),
2. draws the wanted state (``draw``: from what the owner keeps; an unchanged drawing
   costs no request) and takes room in the bot's REST budget (:mod:`bot.discord_bot.
   rest_budget`: the seat to act at once, the others as the budget allows),
3. gets in at the process's gate (:mod:`bot.discord_bot.tables.gate`: when Discord holds the bot
   back, the most urgent message goes first — the panel of a seat to act), and draws the
   newest state again if it waited at either,
4. edits the message, or sends it when there is none yet.

**One try per attempt.** discord.py retries a request itself on a 5xx (sleeping 1, 3, 5,
7 s between five tries) and on a 429, always with the drawing it was given, however
outdated. A live message's requests are made inside :func:`single_try`: with the trace
:func:`single_tries` installed in the client (``http_trace``, :mod:`bot.app`), such a
request ends at its first 5xx or non-global 429 with :class:`RetryLater`, and the worker
tries again itself, with the newest drawing. A global 429 is left to discord.py (it holds
every request of the bot until it is over). A request is never cancelled once under way:
discord.py's rate-limit bookkeeping (a bucket's tokens, the global lock) is updated after
the answer, and a cancelled request can leave a bucket empty, so that the next edit in the
same channel waits until the bucket's reset (30 s when Discord named none) — :meth:`close`
lets a request under way finish.

Failures (:func:`classify`):

* a rate limit (429), a Discord server error (5xx), a request timeout (408: what a REST
  proxy in front of Discord answers when Discord is slow) or a network error: the worker
  waits (backoff 0.5 s, doubling up to :data:`MAX_BACKOFF`, and at least the 429's
  ``retry_after``) and tries again **with the newest state** — so an edit is retried until
  it lands or a newer state replaces it, and a player's controls arrive at most
  :data:`MAX_BACKOFF` seconds (plus one request) after Discord answers normally again.
  What the message shows is then unknown (a 5xx may have come after the edit was done):
  the next drawing is sent even when it equals the last one. The first failure of a run is
  logged once at WARNING with the message's name (table and seat); the retries are not
  logged again; the success after them is logged at INFO.
* the message is gone (10008 Unknown Message): it is sent anew (``send``).
* DMs closed (50007): ``on_closed`` is called once and the message is given up.
* any other refusal (a 4xx: the drawing itself is wrong): logged at WARNING and that
  drawing is dropped; the next change is tried again.

**Shown by other means.** :meth:`LiveMessage.shown_as` records a drawing an interaction's
answer showed. When that happens while the worker's own request is under way, which of
the two Discord applied last is unknown: once the request is done, the message is drawn
again (with the newest state) rather than trusted — a stale drawing never stays.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import aiohttp
import discord

from bot.discord_bot.rest_budget import process_budget
from bot.discord_bot.tables.gate import TABLE, Gate, process_gate

log = logging.getLogger(__name__)

MAX_BACKOFF = 3.0
"""Seconds between a live message's tries at most (after a run of failures): a player's
controls arrive at most this long after Discord answers normally again. discord.py's own
retries of one request come about as often (1, 3, 5, 7 s apart)."""
FIRST_BACKOFF = 0.5

T = TypeVar("T")

_SINGLE_TRY: ContextVar[bool] = ContextVar("tricktable_single_try", default=False)


class RetryLater(aiohttp.ClientError):
    """Discord answered a request made inside :func:`single_try` with a server error (5xx)
    or a rate limit (a non-global 429): the request ends there, without discord.py's own
    retries. ``retry_after``: seconds Discord asks to wait (0 for a 5xx)."""

    def __init__(self, status: int, retry_after: float = 0.0) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status
        self.retry_after = retry_after


@contextlib.contextmanager
def single_try() -> Iterator[None]:
    """Requests made inside (in this task) get one try each (:class:`RetryLater`), when
    the client was made with :func:`single_tries`."""
    token = _SINGLE_TRY.set(True)
    try:
        yield
    finally:
        _SINGLE_TRY.reset(token)


def single_tries() -> aiohttp.TraceConfig:
    """The trace for ``discord.Client(http_trace=...)`` that makes :func:`single_try` work:
    a response to a request made inside it with a 5xx or a non-global 429 raises
    :class:`RetryLater` in aiohttp (which closes the response) before discord.py reads it.
    Requests outside :func:`single_try` are untouched."""
    trace = aiohttp.TraceConfig()
    trace.on_request_end.append(_end_single_try)
    return trace


async def _end_single_try(session: aiohttp.ClientSession, context: Any,
                          params: aiohttp.TraceRequestEndParams) -> None:
    if not _SINGLE_TRY.get():
        return
    response = params.response
    if response.status >= 500:
        raise RetryLater(response.status)
    if response.status != 429:
        return
    data: Any = None
    with contextlib.suppress(Exception):
        data = await response.json(content_type=None)
    body = data if isinstance(data, dict) else {}
    scope = response.headers.get("X-RateLimit-Scope", "")
    if (body.get("global") or scope == "global"
            or response.headers.get("X-RateLimit-Global", "").lower() == "true"):
        return  # discord.py holds every request until a global limit is over
    wait = body.get("retry_after", response.headers.get("Retry-After", 1.0))
    try:
        retry_after = max(0.0, float(wait))
    except (TypeError, ValueError):
        retry_after = 1.0
    raise RetryLater(429, retry_after)

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
    free_edit: bool = False
    """The edit goes through an interaction's token: it does not count against the bot's
    REST budget, so it does not wait for room in it."""
    send_requests: int = 1
    """Requests :attr:`send` makes (a first DM: the DM channel, then the message)."""


def classify(exc: BaseException) -> Outcome | None:
    """What a failed request means for a live message (None: not a delivery failure)."""
    if isinstance(exc, discord.NotFound) and exc.code in (10008, 10015, 10003):
        return "gone"
    if isinstance(exc, discord.Forbidden) and exc.code == 50007:
        return "closed"
    if isinstance(exc, discord.HTTPException):
        if exc.status in (408, 429) or exc.status >= 500:
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
    one, or a replacement of a deleted one); ``on_closed`` is called once on 50007.
    ``urgency`` says where the message waits at the process's :class:`~bot.discord_bot.
    gate.Gate` (``gate``, by default the process's) when Discord holds the bot back
    (default :data:`~bot.discord_bot.tables.gate.TABLE`); the drawing is made once it is in."""

    def __init__(self, name: str, draw: Callable[[], Awaitable[Drawn | None]], *,
                 message_id: int | None = None,
                 wait_before: Callable[[], Awaitable[None]] | None = None,
                 on_sent: Callable[[int], Awaitable[None]] | None = None,
                 on_closed: Callable[[], Awaitable[None]] | None = None,
                 can_send: bool = True, urgency: Callable[[], int] | None = None,
                 gate: Gate | None = None) -> None:
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
        self._urgency = urgency
        self._gate = gate
        self._dirty = False
        self._task: asyncio.Task[None] | None = None
        self._requesting = False
        """A request of the worker is under way (it is never cancelled)."""
        self._shown_meanwhile = False
        """:meth:`shown_as` was called while a request was under way."""

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
        """Record a drawing shown by other means (an interaction's answer); during a
        request of the worker, the message is drawn again after it (module docstring)."""
        self.shown = key
        if message_id is not None:
            self.message_id = message_id
        if self._requesting:
            self._shown_meanwhile = True

    def close(self) -> None:
        """Stop delivering (the owner is gone). A request under way is let finish (module
        docstring); nothing is tried after it."""
        self.closed = True
        if (self._task is not None and self._task is not asyncio.current_task()
                and not self._requesting):
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
                self.shown = None  # a 5xx may come after the edit was done: unknown
                self._dirty = True
                await asyncio.sleep(max(backoff, getattr(exc, "retry_after", 0.0)))
                backoff = min(MAX_BACKOFF, backoff * 2)
                continue
            if landed and self.failures:
                log.info("%s: update landed after %d failed attempts", self.name,
                         self.failures)
            if landed:
                self.failures = 0
                backoff = FIRST_BACKOFF

    async def _deliver(self) -> bool:
        """Take room in the REST budget, get in at the gate, draw and send or edit; True
        when a request was made and succeeded."""
        gate = self._gate or process_gate()
        urgency = self._urgency or _table
        drawn: Drawn | None = await self._draw()  # a first look: anything to send?
        if drawn is None or drawn.key == self.shown or (
                self.message_id is None and not self._can_send):
            return False
        budget = process_budget()
        counted = self.message_id is None or not drawn.free_edit
        takes = drawn.send_requests if self.message_id is None else 1
        waited = False
        for _ in range(takes if counted else 0):
            waited = await budget.take(urgency) or waited
        if waited:
            drawn = None  # it waited: the newest state is drawn once in
        async with gate.turn(urgency()) as waited:
            if drawn is None or waited:
                drawn = await self._draw()
            if drawn is None or drawn.key == self.shown:
                for _ in range(takes if counted else 0):
                    budget.refund()
                return False
            if self.message_id is not None:
                await self._request(drawn.edit(self.message_id))
                self._landed(drawn.key)
                return True
            if not self._can_send:
                for _ in range(takes if counted else 0):
                    budget.refund()
                return False
            self.message_id = await self._request(drawn.send())
            self._landed(drawn.key)
        if self._on_sent is not None:  # a store write: not while holding a place
            await self._on_sent(self.message_id)
        return True

    async def _request(self, request: Awaitable[T]) -> T:
        """One try of ``request`` (:func:`single_try`), never cancelled by :meth:`close`."""
        self._requesting, self._shown_meanwhile = True, False
        try:
            with single_try():
                return await request
        finally:
            self._requesting = False

    def _landed(self, key: str) -> None:
        """The drawing ``key`` landed; if an answer showed another meanwhile, which one
        Discord applied last is unknown: draw again."""
        if self._shown_meanwhile:
            self.shown, self._shown_meanwhile = None, False
            self._dirty = True
        else:
            self.shown = key


def _table() -> int:
    return TABLE


def _short(exc: BaseException) -> str:
    if isinstance(exc, discord.HTTPException):
        return f"HTTP {exc.status}" + (f", code {exc.code}" if exc.code else "")
    if isinstance(exc, RetryLater):
        return f"HTTP {exc.status}"
    return type(exc).__name__

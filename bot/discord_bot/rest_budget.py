"""One REST budget for the whole bot, counted ahead: :class:`RestBudget`.

Discord lets a bot make :data:`DISCORD_LIMIT` REST requests per second over all its
shards and processes (interaction answers and the edits through an interaction's token
aside); past it every request gets a 429 with ``global: true``, and an address that makes
10,000 refused requests in 10 minutes is blocked for a while. So the bot does not wait to
learn of the limit from a 429:

* **Counted.** Every request a process makes with the bot's token is counted as it
  leaves (the client's trace, :func:`count_requests`; the interaction routes are not).
* **Shared.** About once a second each process records in the database what it made and
  what it wanted to make (requests per second, those it held back included) and reads the
  others' (:meth:`storage.base.ClusterStore.share_rest_use`). Its **share** of the bot's
  budget (``TRICKTABLE_REST_BUDGET``, default :data:`DEFAULT_BUDGET`: a margin under 50)
  is what it wants plus an even part of the room the processes leave while the sum fits
  (so that all of them may burst at once), else the budget split in proportion to what
  each wants. A single process running every shard has the whole budget and writes
  nothing.
* **Counted ahead.** Before a live message's request (a table message, a DM panel), the
  process takes room in its share (:meth:`RestBudget.take`): a token bucket refilled at
  the share per second. The live panel of a **seat to act never waits** (its request is
  counted all the same); the others wait, table messages before other panels, then in the
  order they came, and draw their newest state once let through (a backlog costs one
  request per message).
* **Slowing what matters least first.** The **level** (:attr:`RestBudget.level`) rises
  when what the process wants nears its share (more than :data:`RISE_AT` of it) and falls
  when it is well under (:data:`FALL_AT`, after :data:`HOLD` seconds at a level): the
  public table messages are edited per card (:data:`LIVE`), then once per trick
  (:data:`PER_TRICK`), then once per deal (:data:`PER_DEAL`); at :data:`PANELS` the
  share is spent and other panels wait their turn at the bucket as well. A table played on
  the web costs its deal's edit in every case.
* **Seen.** A line per minute at INFO (what the process made, its share, the bot's use,
  the level, how many requests waited, any global 429) and ``/admin status`` for the owner
  (:meth:`RestBudget.report`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import os
import socket
import time
import uuid
import weakref
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, Protocol

import aiohttp

from bot.discord_bot.tables.gate import LATER, TABLE, TO_ACT
from storage.rest_budget import RestUse

log = logging.getLogger(__name__)

DISCORD_LIMIT: Final = 50
"""Discord's global limit: REST requests per second per bot token."""
DEFAULT_BUDGET: Final = 45.0
"""The bot's budget by default: a margin under :data:`DISCORD_LIMIT` for the requests no
one counts ahead (a command's own reads, a result posted) and the clocks' drift."""
SYNC_EVERY: Final = 1.0
"""Seconds between two records of a process's use (and reads of the others')."""
WITHIN: Final = 3.0
"""A process whose use was not recorded in the last this many seconds is gone."""
LOG_EVERY: Final = 60.0
"""Seconds between two INFO lines of the budget's use."""
BURST: Final = 0.1
"""Seconds of its share a process may spend at once after a quiet while: Discord counts
any second, so a burst adds to the next second's requests."""
RECHECK: Final = 0.25
"""Seconds a waiting request re-reads its urgency (it may have become the seat to act)."""

LIVE: Final = 0
PER_TRICK: Final = 1
PER_DEAL: Final = 2
PANELS: Final = 3
LEVEL_NAMES: Final = {LIVE: "per card", PER_TRICK: "per trick", PER_DEAL: "per deal",
                      PANELS: "per deal, panels waiting"}
RISE_AT: Final = 0.85
"""The level rises when a process wants more than this part of its share."""
FALL_AT: Final = 0.5
"""… and falls when it wants less than this part (after :data:`HOLD` seconds)."""
HOLD: Final = 5.0

_PAID: ContextVar[int] = ContextVar("tricktable_rest_paid", default=0)
"""Requests of this task already paid for by :meth:`RestBudget.take`."""


@dataclass(frozen=True, slots=True)
class BudgetReport:
    """What ``/admin status`` shows: requests per second over the last minute."""

    budget: float
    share: float
    made: float
    bot_made: float
    processes: int
    level: int
    waited: int
    global_429s: int


class UseStore(Protocol):
    """What the budget reads and writes of the store (:mod:`storage.rest_budget`)."""

    async def share_rest_use(self, process: str, made: float, wanted: float, *,
                             within: float) -> list[RestUse]: ...

    async def forget_rest_use(self, process: str) -> None: ...


class RestBudget:
    """This process's part of the bot's REST budget (module docstring)."""

    def __init__(self, budget: float = DEFAULT_BUDGET, *,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.share = budget
        """Requests per second this process may make now."""
        self.level = LIVE
        self.processes = 1
        self.bot_made = 0.0
        """Requests per second the bot's processes made, as last recorded."""
        self.process_key = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._clock = clock
        self._tokens = max(1.0, budget * BURST)
        self._refilled = clock()
        self._made: deque[float] = deque()
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._timer: asyncio.TimerHandle | None = None
        self._level_since = clock()
        self._waited = 0
        self._global_429s = 0
        self._minute: dict[str, float] = {"made": 0, "waited": 0, "429": 0, "level": 0}

    # -- counting -----------------------------------------------------------------------
    def made(self) -> None:
        """A request with the bot's token left (:func:`count_requests`)."""
        now = self._clock()
        self._made.append(now)
        self._minute["made"] += 1
        paid = _PAID.get()
        if paid:  # this request was paid when it was let through (take)
            _PAID.set(paid - 1)
        else:
            self._refill(now)
            self._tokens -= 1

    def global_429(self) -> None:
        """Discord answered a global 429 all the same (counted ahead too little)."""
        self._global_429s += 1
        self._minute["429"] += 1

    def rate(self, window: float = 2.0) -> float:
        """Requests per second this process made over the last ``window`` seconds."""
        now = self._clock()
        while self._made and self._made[0] <= now - max(window, LOG_EVERY):
            self._made.popleft()
        return sum(1 for t in self._made if t > now - window) / window

    def wanted(self) -> float:
        """Requests per second this process wants: made, plus those waiting now."""
        return self.rate() + len(self._waiting) / 2.0

    # -- counted ahead ------------------------------------------------------------------
    async def take(self, urgency: Callable[[], int]) -> bool:
        """Room for one request of urgency ``urgency()`` (re-read while it waits): the
        seat to act goes at once; the others wait for the bucket, most urgent first.
        Returns whether it waited (the caller then draws its newest state again)."""
        if urgency() == TO_ACT:
            self._pay()
            return False
        self._refill(self._clock())
        if self._tokens >= 1 and not self._waiting:
            self._pay()
            return False
        self._waited += 1
        self._minute["waited"] += 1
        place: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (urgency(), next(self._order), place)
        heapq.heappush(self._waiting, entry)
        self._schedule()
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(place), RECHECK)
                    _PAID.set(_PAID.get() + 1)  # let through: paid by _pump
                    return True
                if urgency() == TO_ACT:  # became the seat to act meanwhile: go now
                    self._remove(entry)
                    self._pay()
                    return True
        except asyncio.CancelledError:
            self._remove(entry)
            if place.done() and not place.cancelled():
                self._tokens += 1  # let through, then cancelled: give it back
            raise

    def refund(self) -> None:
        """The request taken for was not made after all (nothing changed to show)."""
        self._tokens += 1
        _PAID.set(max(0, _PAID.get() - 1))

    def _pay(self) -> None:
        self._refill(self._clock())
        self._tokens -= 1
        _PAID.set(_PAID.get() + 1)  # the task's next request is not taken again

    def _remove(self, entry: tuple[int, int, asyncio.Future[None]]) -> None:
        with contextlib.suppress(ValueError):
            self._waiting.remove(entry)
            heapq.heapify(self._waiting)

    def _refill(self, now: float) -> None:
        cap = max(1.0, self.share * BURST)
        self._tokens = min(cap, self._tokens + (now - self._refilled) * self.share)
        self._refilled = now

    def _schedule(self) -> None:
        if self._timer is not None or not self._waiting:
            return
        wait = max(0.005, (1 - self._tokens) / max(self.share, 0.1))
        self._timer = asyncio.get_running_loop().call_later(wait, self._pump)

    def _pump(self) -> None:
        self._timer = None
        self._refill(self._clock())
        while self._waiting and self._tokens >= 1:
            _, _, place = heapq.heappop(self._waiting)
            if place.done():
                continue
            self._tokens -= 1
            place.set_result(None)
        self._schedule()

    # -- shared -------------------------------------------------------------------------
    def shared(self, uses: list[RestUse]) -> None:
        """Take this process's share from every process's recorded use (its own
        included), and move the level."""
        others = [u for u in uses if u.process != self.process_key]
        mine = self.wanted()
        wanted = mine + sum(u.wanted for u in others)
        self.processes = len(others) + 1
        self.bot_made = self.rate() + sum(u.made for u in others)
        if wanted > self.budget:
            self.share = max(1.0, self.budget * mine / wanted)
        else:  # what it wants, and an even part of the room left (all may burst at once)
            self.share = max(1.0, mine + (self.budget - wanted) / self.processes)
        self._move_level(mine / self.share)

    def _move_level(self, pressure: float) -> None:
        now = self._clock()
        if pressure > RISE_AT and self.level < PANELS:
            self.level += 1
        elif pressure < FALL_AT and self.level > LIVE and now - self._level_since >= HOLD:
            self.level -= 1
        else:
            return
        self._level_since = now
        self._minute["level"] = max(self._minute["level"], self.level)
        log.info("REST budget: table messages now %s (this process wants %.1f requests/s "
                 "of its share %.1f)", LEVEL_NAMES[self.level], pressure * self.share,
                 self.share)

    def report(self) -> BudgetReport:
        return BudgetReport(self.budget, self.share, self.rate(LOG_EVERY),
                            max(self.bot_made, self.rate()), self.processes, self.level,
                            self._waited, self._global_429s)

    def log_minute(self) -> None:
        m = self._minute
        log.info("REST budget: this process made %.1f requests/s over the last minute "
                 "(its share now %.1f of the bot's %.0f; the bot's %d process(es) %.1f/s); "
                 "table messages %s (at most %s); %d request(s) waited; %d global 429(s)",
                 m["made"] / LOG_EVERY, self.share, self.budget, self.processes,
                 max(self.bot_made, self.rate()), LEVEL_NAMES[self.level],
                 LEVEL_NAMES[int(m["level"])], m["waited"], m["429"])
        if m["429"]:
            log.warning("REST budget: Discord answered %d global 429(s) in the last minute",
                        m["429"])
        self._minute = {"made": 0, "waited": 0, "429": 0, "level": self.level}

    async def run(self, store: UseStore | None) -> None:
        """Record and read the use every :data:`SYNC_EVERY` seconds (``store`` None: one
        process has the whole budget), log every minute; until cancelled."""
        logged = self._clock()
        try:
            while True:
                uses: list[RestUse] = []
                if store is not None:
                    try:
                        uses = await store.share_rest_use(self.process_key, self.rate(),
                                                          self.wanted(), within=WITHIN)
                    except Exception as exc:  # the database away: keep the last share
                        log.debug("REST budget: could not share the use (%r)", exc)
                        self._move_level(self.wanted() / self.share)
                        await asyncio.sleep(SYNC_EVERY)
                        continue
                self.shared(uses)
                if self._clock() - logged >= LOG_EVERY:
                    logged = self._clock()
                    self.log_minute()
                await asyncio.sleep(SYNC_EVERY)
        finally:
            if store is not None:
                with contextlib.suppress(Exception):
                    await asyncio.shield(store.forget_rest_use(self.process_key))


def counts_globally(method: str, url: str) -> bool:
    """Whether a request counts against Discord's global limit: every route used with
    the bot's token, not the interaction routes (``/interactions/…`` callbacks, the
    ``/webhooks/{application}/{token}`` edits and follow-ups)."""
    path = url.split("?", 1)[0]
    return "/interactions/" not in path and "/webhooks/" not in path


_budgets: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, RestBudget] = (
    weakref.WeakKeyDictionary())


def process_budget() -> RestBudget:
    """The REST budget of this process (of the running event loop)."""
    loop = asyncio.get_running_loop()
    budget = _budgets.get(loop)
    if budget is None:
        budget = _budgets[loop] = RestBudget()
    return budget


def use_budget(budget: RestBudget) -> None:
    """Make ``budget`` this process's (the bot's setup, with the configured size)."""
    _budgets[asyncio.get_running_loop()] = budget


def count_requests(trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
    """Count every request ``trace``'s client makes with the bot's token in this
    process's budget, and the global 429s Discord still answers."""
    trace.on_request_start.append(_started)
    trace.on_request_end.append(_ended)
    return trace


async def _started(session: aiohttp.ClientSession, context: Any,
                   params: aiohttp.TraceRequestStartParams) -> None:
    if counts_globally(params.method, str(params.url)):
        with contextlib.suppress(RuntimeError):
            process_budget().made()


async def _ended(session: aiohttp.ClientSession, context: Any,
                 params: aiohttp.TraceRequestEndParams) -> None:
    response = params.response
    if response.status == 429 and (
            response.headers.get("X-RateLimit-Global", "").lower() == "true"
            or response.headers.get("X-RateLimit-Scope", "") == "global"):
        with contextlib.suppress(RuntimeError):
            process_budget().global_429()


def start_budget(budget: float, store: UseStore | None) -> asyncio.Task[None]:
    """Make a budget of ``budget`` requests per second the process's and run it (shared
    through ``store`` when several processes drive the bot); cancel the task to stop."""
    made = RestBudget(budget)
    use_budget(made)
    return asyncio.get_running_loop().create_task(made.run(store), name="REST budget")


__all__ = ["LATER", "TABLE", "TO_ACT", "BudgetReport", "RestBudget", "count_requests",
           "process_budget", "start_budget", "use_budget"]

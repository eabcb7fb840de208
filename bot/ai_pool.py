"""AI decisions in a pool of worker processes, so a search never stalls the event loop.

``games/`` may not import asyncio, so the asynchronous face of the AI lives here.
:class:`AIPool` wraps a :class:`concurrent.futures.ProcessPoolExecutor`: each decision is
sent to a worker as picklable data — ``(game, view, legal actions, level, budget, seed,
options)`` — and the worker returns the chosen :class:`~games.actions.Action`. The event
loop only awaits a future (``loop.run_in_executor``), so it keeps serving other tables,
heartbeats and Discord while players think. Workers run at a lower CPU priority (``nice``)
than the event loop's process.

``random`` decisions and decisions with a single legal action are answered at once in the
calling process (they cost microseconds); ``rules`` and ``search`` go to the pool.

**Overload.** A decision that has not come back ``max_wait_ms`` after it was asked for
(the workers are busy with other tables' moves) is given up — taken out of the queue if no
worker has started it, its answer ignored otherwise — and the ``rules`` move is played
instead, chosen at once in the calling process (about a millisecond). The time a decision
already waited before it reached the pool (``waited_ms``: the table service's turn waiting
for one of its AI slots) counts against the limit, and a decision that arrives with none
of it left is not queued at all. So a table never waits much longer than ``max_wait_ms``
for an AI, and under overload every table degrades alike to rule-based play rather than
some tables stalling; ``fallbacks`` counts these moves and each one is logged. The setting
is ``TRICKTABLE_AI_MAX_WAIT_MS`` (:data:`DEFAULT_MAX_WAIT_MS`; 0 waits for every search
however long).

Usage::

    async with AIPool(workers=2) as pool:
        action = await pool.choose("turup", view, legal, level="search",
                                   budget=Budget(ms=200), seed="table:3:17")
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import multiprocessing
import os
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from types import TracebackType
from typing import Any

from games.actions import Action
from games.ai import DEFAULT_BUDGET, Budget, make_player

log = logging.getLogger(__name__)

DEFAULT_MAX_WAIT_MS = 1000.0
"""How long a table waits for a pooled AI decision before it gets the ``rules`` move."""


def decide(game: str, view: Mapping[str, Any], legal: Sequence[Action], level: str,
           budget: Budget, seed: int | str | None,
           options: Mapping[str, Any] | None) -> Action:
    """One decision (runs in a worker process; also usable in-process)."""
    if view.get("game") != game:
        raise ValueError(f"the view is of {view.get('game')!r}, not {game!r}")
    return make_player(level, seed=seed, options=options).choose(view, list(legal), budget)


def _init_worker(nice: int) -> None:
    if nice and hasattr(os, "nice"):
        with contextlib.suppress(OSError):  # not permitted on this system: run as is
            os.nice(nice)
    importlib.import_module("games.ai").warm_up()  # load the engine before the first move


def _ping() -> int:
    return os.getpid()


class AIPool:
    """A pool of AI worker processes.

    ``workers``: number of processes (default: the CPU count, at most 4). ``nice``: how
    much lower the workers' scheduling priority is than the caller's (POSIX only).
    ``max_wait_ms``: the overload limit (module docstring; ``None`` or 0: no limit).
    """

    def __init__(self, workers: int | None = None, *, nice: int = 5,
                 start_method: str = "spawn",
                 max_wait_ms: float | None = DEFAULT_MAX_WAIT_MS) -> None:
        count = workers if workers is not None else min(4, os.cpu_count() or 1)
        self.workers = max(1, count)
        self.max_wait_ms = max_wait_ms if max_wait_ms and max_wait_ms > 0 else None
        self.fallbacks = 0
        """Decisions answered with the ``rules`` move because the pool was too slow."""
        ctx = multiprocessing.get_context(start_method)
        self._executor = ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx,
                                             initializer=_init_worker, initargs=(nice,))
        self._closed = False

    async def warm_up(self) -> None:
        """Start every worker now (otherwise they start on the first decisions)."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, _ping)
                               for _ in range(self.workers)))

    async def choose(
        self,
        game: str,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        level: str = "search",
        budget: Budget = DEFAULT_BUDGET,
        seed: int | str | None = None,
        options: Mapping[str, Any] | None = None,
        waited_ms: float = 0.0,
    ) -> Action:
        """The action an AI of ``level`` chooses for the seat whose ``view`` this is;
        ``waited_ms``: how long the decision waited before it was asked here (it counts
        against the overload limit)."""
        if self._closed:
            raise RuntimeError("the AI pool is closed")
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        args = (game, dict(view), list(legal), level, budget, seed,
                dict(options) if options else None)
        if level == "random":
            return decide(*args)
        loop = asyncio.get_running_loop()
        if self.max_wait_ms is None:
            return await loop.run_in_executor(self._executor, decide, *args)
        left_ms = self.max_wait_ms - waited_ms
        if left_ms > 0:
            pending = loop.run_in_executor(self._executor, decide, *args)
            try:
                return await asyncio.wait_for(pending, left_ms / 1000.0)
            except TimeoutError:
                pass  # wait_for has cancelled ``pending``: a queued decision leaves the queue
        self.fallbacks += 1
        log.info("AI pool overloaded: a %s %s move waited over %.0f ms; playing the rules "
                 "move", game, level, self.max_wait_ms)
        return decide(game, args[1], args[2], "rules", Budget.samples(1), seed, args[6])

    def close(self, wait: bool = True) -> None:
        """Shut the workers down. Decisions no worker has taken yet are cancelled (their
        callers get ``CancelledError``: a closing bot has no table left to play them at,
        and a long queue must not hold its exit); with ``wait``, the ones being thought
        about are finished first."""
        if not self._closed:
            self._closed = True
            self._executor.shutdown(wait=wait, cancel_futures=True)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    async def __aenter__(self) -> AIPool:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> None:
        await self.aclose()

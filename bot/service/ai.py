"""The one place where the table service asks an AI player for a move.

:func:`choose_action` is asynchronous and never blocks the event loop. With an
:class:`bot.ai_pool.AIPool` (what the bot uses) the ``rules`` and ``search`` levels run in
its worker processes; without one (tests, the terminal, the benchmark) they run in a worker
thread (``asyncio.to_thread``). ``random`` and single-choice decisions are answered at once.

Every decision uses a fresh player seeded from the table seed, the seat and the table
version, so an AI-only match with deterministic budgets is a pure function of its seed: a
recovered table makes the same choices an uninterrupted one would have made.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from games.actions import Action
from games.ai import Budget, has_ai, make_player

DEFAULT_BUDGET_MS = 50.0
"""Longest thinking time of a ``search`` move: search normally stops earlier, at its
game's default number of worlds (:data:`games.ai.players.DEFAULT_WORLDS`); the ceiling
binds only on a loaded machine."""


class Pool(Protocol):
    """What the service needs of ``bot.ai_pool.AIPool``."""

    async def choose(self, game: str, view: Mapping[str, Any], legal: Sequence[Action],
                     level: str = ..., budget: Budget = ..., seed: int | str | None = ...,
                     options: Mapping[str, Any] | None = ...,
                     waited_ms: float = ...) -> Action: ...


def effective_level(game: str, level: str) -> str:
    """``level``, or ``random`` for a game that has no rule-based AI yet."""
    if level != "random" and not has_ai(game):
        return "random"
    return level


def decision_seed(table_seed: object, seat: int, version: int) -> str:
    return f"{table_seed}:{seat}:{version}"


def budget_for(level: str, budget_ms: float) -> Budget:
    """Search thinks for ``budget_ms``; the other levels need one sample (deterministic)."""
    return Budget(ms=budget_ms) if level == "search" else Budget.samples(1)


def _choose(level: str, seed: str, view: Mapping[str, Any], legal: Sequence[Action],
            options: Mapping[str, Any], budget: Budget) -> Action:
    return make_player(level, seed=seed, options=options).choose(view, legal, budget)


async def choose_action(
    game: str,
    level: str,
    view: Mapping[str, Any],
    legal: Sequence[Action],
    *,
    seed: str,
    options: Mapping[str, Any] | None = None,
    budget_ms: float = DEFAULT_BUDGET_MS,
    pool: Pool | None = None,
    waited_ms: float = 0.0,
) -> Action:
    """One of ``legal`` for the seat whose ``view`` this is, chosen by an AI of ``level``;
    ``waited_ms``: how long the turn already waited (the pool's overload limit counts it)."""
    if not legal:
        raise ValueError("no legal action to choose from")
    if len(legal) == 1:
        return legal[0]
    level = effective_level(game, level)
    opts = dict(options or {})
    budget = budget_for(level, budget_ms)
    if level == "random":
        return _choose(level, seed, view, legal, opts, budget)
    if pool is not None:
        return await pool.choose(game, view, legal, level, budget, seed, opts, waited_ms)
    return await asyncio.to_thread(_choose, level, seed, view, legal, opts, budget)

"""The three AI levels: ``random``, ``rules`` and ``search``.

``rules`` and ``search`` delegate the game-specific parts to the game's
:class:`~games.ai.adapter.GameAI` (see :func:`games.ai.registry.adapter_for`).

The search player is determinized Monte-Carlo (PIMC): for each sampled world consistent
with the view it tries every candidate action in a copy of the world and finishes the deal
with the game's rollout policy; the candidate with the best total over the worlds is
played — but the rules choice (which adapters list first) is kept unless the winner beats
it on the same worlds by more than :data:`CONFIDENCE` standard errors; after 8, 16, 32, …
worlds the worse half of the other candidates is dropped, so later worlds go to the
contenders.
Sampling stops at the
budget's sample cap, or when the next world would overrun the time budget (the first world
is always completed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.actions import Action
from games.ai.base import DEFAULT_BUDGET, Budget, Player
from games.ai.registry import adapter_for

HALVING_START = 8
"""Successive halving: after 8, 16, 32, … worlds the worse half of the candidates still
compared (all of them evaluated on the same worlds) is dropped; the rules choice is never
dropped, and at least one challenger stays."""


CONFIDENCE = 1.0
"""Search leaves the rules choice only for a candidate whose mean advantage over it, on
the same worlds, exceeds this many standard errors (noise from few worlds must not
overturn a sound move)."""


class RulesPlayer(Player):
    """The game's rule-based player."""

    level = "rules"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action],
               budget: Budget = DEFAULT_BUDGET) -> Action:
        if len(legal) == 1:
            return legal[0]
        ai = adapter_for(view["game"])
        action = ai.rules_choose(view, legal, self.rng, self.table_options(view))
        if action not in legal:  # pragma: no cover - a defect in an adapter
            raise AssertionError(f"rules player chose {action} which is not legal")
        return action


class SearchPlayer(Player):
    """Determinized Monte-Carlo search over sampled worlds (see the module docstring).

    ``last_samples`` is the number of worlds the last decision used (for benchmarks).
    """

    level = "search"

    def __init__(self, seed: int | str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        super().__init__(seed, options)
        self.last_samples = 0

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action],
               budget: Budget = DEFAULT_BUDGET) -> Action:
        start = time.perf_counter()
        self.last_samples = 0
        if len(legal) == 1:
            return legal[0]
        ai = adapter_for(view["game"])
        options = self.table_options(view)
        rng = random.Random(self.rng.getrandbits(64))
        shortcut = ai.search_shortcut(view, legal, rng, options)
        if shortcut is not None:
            return shortcut
        cands = ai.candidates(view, legal, options)
        if len(cands) == 1:
            return ai.decorate(view, legal, cands[0], rng, options)
        seat: int = view["seat"]
        deadline = budget.deadline(start)
        cap = budget.cap()
        sampler = ai.sampler(view, legal, options, rng)
        sums = [0.0] * len(cands)
        diff = [0.0] * len(cands)  # paired differences with the rules choice (index 0)
        diff2 = [0.0] * len(cands)
        alive = list(range(len(cands)))
        n = 0
        cut = HALVING_START
        while n < cap:
            t0 = time.perf_counter()
            world = sampler.sample()
            seed = rng.getrandbits(32)
            last = len(alive) - 1
            values = {}
            for j, i in enumerate(alive):
                w = world if j == last else ai.clone(world)
                ai.step(w, seat, cands[i])
                values[i] = ai.rollout(w, seat, random.Random(seed))
                sums[i] += values[i]
            if 0 in values:
                for i, v in values.items():
                    d = v - values[0]
                    diff[i] += d
                    diff2[i] += d * d
            n += 1
            if n >= cut and len(alive) > 2:  # the rules choice always stays
                ranked = sorted((i for i in alive if i), key=lambda i: (-sums[i], i))
                alive = [0, *sorted(ranked[:max(1, len(alive) // 2)])]
                cut *= 2
            now = time.perf_counter()
            if now + (now - t0) > deadline:
                break
        self.last_samples = n
        best = max(alive, key=lambda i: (sums[i], -i))
        if best != 0 and 0 in alive and not _clearly_better(diff[best], diff2[best], n):
            best = 0
        return ai.decorate(view, legal, cands[best], rng, options)


def _clearly_better(total: float, squares: float, n: int) -> bool:
    """Whether paired differences (sum ``total``, sum of squares ``squares`` over ``n``
    worlds) show a candidate better than the rules choice: mean above
    :data:`CONFIDENCE` standard errors."""
    if n < 2:
        return total > 0
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    return bool(mean > CONFIDENCE * math.sqrt(var / n))

"""The AI levels: ``random``, ``rules`` and ``search``, and ``oracle`` for measurement.

``rules`` and ``search`` delegate the game-specific parts to the game's
:class:`~games.ai.adapter.GameAI` (see :func:`games.ai.registry.adapter_for`).

The search player is determinized Monte-Carlo (PIMC): for each sampled world consistent
with the view it tries every candidate action in a copy of the world and finishes the deal
with the game's rollout policy; the candidate with the best total over the worlds is
played — but the rules choice (which adapters list first) is kept unless the winner beats
it on the same worlds by more than :data:`CONFIDENCE` standard errors; after 8, 16, 32, …
worlds the worse half of the other candidates is dropped, so later worlds go to the
contenders. Worlds count by their sampler's ``weight`` (how well a world explains what
the other players did, where the game's sampler measures it): totals, means and standard
errors are weighted (:class:`Weights`).

A sampler that cannot build a world consistent with the view (a bug in its inference, or
facts too rare for its draws) ends the search with the worlds it has, and with none the
rules choice is played: a table never stalls on a failed search. Sampling stops at the
budget's sample cap (by default the game's :data:`DEFAULT_WORLDS`), when the stop rule
(:data:`STOP_Z`) finds the rules choice safe, or when the next world would overrun the
time budget (the first world is always completed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.actions import Action
from games.ai.adapter import GameAI, WorldSampler
from games.ai.base import DEFAULT_BUDGET, Budget, Player
from games.ai.registry import adapter_for
from games.ai.sampling import ImpossibleDeal
from games.base import Deal

HALVING_START = 8
"""Successive halving: after 8, 16, 32, … worlds the worse half of the candidates still
compared (all of them evaluated on the same worlds) is dropped; the rules choice is never
dropped, and at least one challenger stays."""


CONFIDENCE = 1.0
"""Search leaves the rules choice only for a candidate whose mean advantage over it, on
the same worlds, exceeds this many standard errors (noise from few worlds must not
overturn a sound move)."""


STOP_MIN = 8
"""The stop rule looks at the worlds only from this many on."""

STOP_Z = 2.0
"""Stop rule: sampling stops early once no challenger still compared could plausibly
beat the rules choice — for each one, its mean advantage over the rules choice on the
same worlds plus this many standard errors is at most zero (its chance of ending
clearly better is then negligible, so more worlds would not change the move)."""

DEFAULT_WORLDS: dict[str, int] = {
    "arbaa_turub": 24,
    "turup": 128,
    "tarabish": 32,
    "truf": 24,
    "albastini": 64,
}
"""Worlds per move when the budget sets no cap, per game: chosen from the strength curve
(``python bench/ai.py --curve``: duplicate score against ``rules`` by worlds per move) as
the smallest count past which more worlds gained nothing measurable, within a 50 ms p95
move time on one core."""

DEFAULT_WORLDS_OTHER = 32
"""Worlds per move for a game missing from :data:`DEFAULT_WORLDS`."""


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
    uses_fitted = True
    """Whether decisions the game fits beforehand (:meth:`GameAI.fitted_choice`) are
    taken from the fit; the oracle, which sees the deal, searches them instead."""

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
        if shortcut is None and self.uses_fitted:
            shortcut = ai.fitted_choice(view, legal, options)
        if shortcut is not None:
            return shortcut
        cands = ai.candidates(view, legal, options)
        if len(cands) == 1:
            return ai.decorate(view, legal, cands[0], rng, options)
        sampler = self.worlds(ai, view, legal, options, rng)
        cap = budget.cap(DEFAULT_WORLDS.get(view["game"], DEFAULT_WORLDS_OTHER))
        best = self._search(ai, view["seat"], cands, sampler, cap, budget.deadline(start), rng)
        return ai.decorate(view, legal, cands[best], rng, options)

    def worlds(self, ai: GameAI, view: Mapping[str, Any], legal: Sequence[Action],
               options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        """Where the worlds come from: sampled consistently with the view."""
        return ai.sampler(view, legal, options, rng)

    def _search(self, ai: GameAI, seat: int, cands: Sequence[Action], sampler: WorldSampler,
                cap: int, deadline: float, rng: random.Random) -> int:
        """The index of the candidate to play (0, the rules choice, unless another one is
        clearly better on the same worlds)."""
        sums = [0.0] * len(cands)
        diff = [0.0] * len(cands)  # weighted paired differences with the rules choice
        diff2 = [0.0] * len(cands)
        weights = Weights()
        alive = list(range(len(cands)))
        n = 0
        cut = HALVING_START
        while n < cap:
            t0 = time.perf_counter()
            try:
                world = sampler.sample()
            except ImpossibleDeal:  # the view's facts defeated the sampler: keep what we have
                break
            w = sampler.weight
            seed = rng.getrandbits(32)
            last = len(alive) - 1
            values = {}
            for j, i in enumerate(alive):
                x = world if j == last else ai.clone(world)
                ai.step(x, seat, cands[i])
                values[i] = ai.rollout(x, seat, random.Random(seed))
                sums[i] += w * values[i]
            for i, v in values.items():
                d = v - values[0]
                diff[i] += w * d
                diff2[i] += w * d * d
            weights.add(w)
            n += 1
            if n >= cut and len(alive) > 2:  # the rules choice always stays
                ranked = sorted((i for i in alive if i), key=lambda i: (-sums[i], i))
                alive = [0, *sorted(ranked[:max(1, len(alive) // 2)])]
                cut *= 2
            if n >= STOP_MIN and all(
                    weights.upper(diff[i], diff2[i], STOP_Z) <= 0.0 for i in alive if i):
                break
            now = time.perf_counter()
            if now + (now - t0) > deadline:
                break
        self.last_samples = n
        if n == 0:
            return 0
        best = max(alive, key=lambda i: (sums[i], -i))
        if best != 0 and not weights.lower(diff[best], diff2[best], CONFIDENCE) > 0.0:
            best = 0
        return best


class Weights:
    """The weights of the worlds seen so far, and weighted means with their standard
    errors (effective sample size ``(Σw)² / Σw²``; with equal weights these are the
    ordinary mean and standard error)."""

    def __init__(self) -> None:
        self.total = 0.0
        self.squares = 0.0

    def add(self, w: float) -> None:
        self.total += w
        self.squares += w * w

    def _mean_se(self, total: float, squares: float) -> tuple[float, float]:
        """Weighted mean and standard error of values with weighted sum ``total`` and
        weighted sum of squares ``squares``."""
        if self.total <= 0.0:
            return 0.0, math.inf
        mean = total / self.total
        n_eff = self.total * self.total / self.squares
        if n_eff <= 1.0:
            return mean, math.inf
        var = max(0.0, squares / self.total - mean * mean) * n_eff / (n_eff - 1.0)
        return mean, math.sqrt(var / n_eff)

    def upper(self, total: float, squares: float, z: float) -> float:
        """The mean plus ``z`` standard errors."""
        mean, se = self._mean_se(total, squares)
        return mean + z * se

    def lower(self, total: float, squares: float, z: float) -> float:
        """The mean minus ``z`` standard errors (with one world: the mean itself)."""
        mean, se = self._mean_se(total, squares)
        return mean - z * se if se != math.inf else mean


class ShownTheDeal:
    """A measurement player handed the real deal before each decision (:mod:`bot.simulate`
    calls :meth:`see`): the oracle, and benches' partly sighted players. Never offered at
    a table."""

    _deal: Deal | None = None

    def see(self, deal: Deal) -> None:
        """The real deal of the next decision."""
        self._deal = deal


class OraclePlayer(ShownTheDeal, SearchPlayer):
    """The ceiling, for measurement only: the search player given the real deal.

    It sees every hand (and the stock), so it is never offered to players
    (:data:`games.ai.PLAYABLE_LEVELS` leaves it out); :mod:`bot.simulate` hands it the
    deal with :meth:`see` before each decision and marks it in its results. Its one
    world is the real deal (the rollouts are deterministic policies, so more copies of
    it would add nothing); each candidate is played out in it and the best one taken,
    the rules choice on ties; decisions the search player takes from a fit made
    beforehand (Tarabish's trump call) it searches in the real deal too. So it measures
    what seeing the cards is worth to this method, not perfect play: where one policy
    playout is a noisy judge (Arba'a Turub's 36 tricks) the search player's average over
    many worlds can do better.
    """

    level = "oracle"
    uses_fitted = False

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action],
               budget: Budget = DEFAULT_BUDGET) -> Action:
        return super().choose(view, legal, Budget.samples(1))

    def worlds(self, ai: GameAI, view: Mapping[str, Any], legal: Sequence[Action],
               options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        if self._deal is None:
            raise RuntimeError("the oracle must be shown the deal (see) before it chooses")
        return _RealWorld(ai, self._deal)


class _RealWorld(WorldSampler):
    """The oracle's worlds: copies of the real deal."""

    def __init__(self, ai: GameAI, deal: Deal) -> None:
        self.ai, self.deal = ai, deal

    def sample(self) -> Deal:
        return self.ai.clone(self.deal)

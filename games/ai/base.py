"""The player interface shared by every AI level, and the per-move budget.

A :class:`Player` answers one question for every decision of every game:
``choose(view, legal, budget) -> action``. ``view`` is exactly ``deal.view(seat)`` (JSON
data: the only thing a player may know), ``legal`` is ``deal.legal_actions(seat)`` and the
returned action is always one of ``legal``. A player never receives the deal itself, so it
cannot see hidden cards; everything it knows about other hands it infers from the view.

A :class:`Budget` bounds the thinking of search players: a wall-clock ceiling (``ms``,
measured with :func:`time.perf_counter`) and/or a cap on the number of sampled worlds
(``max_samples``). Without a cap the search stops at its game's default world count
(:data:`games.ai.players.DEFAULT_WORLDS`, chosen from the strength curve of
``bench/ai.py --curve``), so the time is a ceiling that only a loaded machine reaches.
With ``ms=None`` the budget is a pure sample count, so the choice is a function of the
view, the legal actions and the seed only (tests and reproducible benchmarks use this
deterministic mode).
"""

from __future__ import annotations

import random
import time
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from games.actions import Action


@dataclass(frozen=True, slots=True)
class Budget:
    """How long a search player may think about one move.

    ``ms``: wall-clock milliseconds (``None``: no time limit). ``max_samples``: at most this
    many sampled worlds (``None``: the game's default world count). At least one of the
    two must be set. A search always completes its first sample, however small the budget.
    """

    ms: float | None = 50.0
    max_samples: int | None = None

    def __post_init__(self) -> None:
        if self.ms is None and self.max_samples is None:
            raise ValueError("a budget needs a time limit (ms) or a sample cap (max_samples)")
        if self.ms is not None and self.ms <= 0:
            raise ValueError("budget ms must be positive")
        if self.max_samples is not None and self.max_samples < 1:
            raise ValueError("budget max_samples must be at least 1")

    @staticmethod
    def samples(n: int) -> Budget:
        """A deterministic budget of ``n`` sampled worlds and no time limit."""
        return Budget(ms=None, max_samples=n)

    @property
    def deterministic(self) -> bool:
        return self.ms is None

    def deadline(self, start: float | None = None) -> float:
        """The :func:`time.perf_counter` value at which thinking must stop (``inf``: none)."""
        if self.ms is None:
            return float("inf")
        return (time.perf_counter() if start is None else start) + self.ms / 1000.0

    def cap(self, default: int = 1 << 30) -> int:
        """The most worlds to sample: ``max_samples``, else ``default``."""
        return self.max_samples if self.max_samples is not None else default


DEFAULT_BUDGET = Budget()
"""At most 50 ms per move; the game's default number of worlds."""


class Player(ABC):
    """An AI player for any game (the game is ``view["game"]``).

    ``seed`` fixes the player's random source: with a deterministic :class:`Budget`, the
    same sequence of ``choose`` calls gives the same actions. ``options`` are the table's
    rule options (JSON form); a player needs them to rebuild consistent deals when the view
    does not carry them (a view's own ``"options"`` key wins when present).
    """

    level: ClassVar[str]

    def __init__(self, seed: int | str | None = None,
                 options: Mapping[str, Any] | None = None) -> None:
        self.rng = random.Random(seed)
        self.options: dict[str, Any] = dict(options or {})

    @abstractmethod
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action],
               budget: Budget = DEFAULT_BUDGET) -> Action:
        """One of ``legal``, chosen from what ``view`` shows."""

    def table_options(self, view: Mapping[str, Any]) -> dict[str, Any]:
        raw = view.get("options")
        return dict(raw) if isinstance(raw, Mapping) else dict(self.options)


class RandomPlayer(Player):
    """Uniformly random among the legal actions, except that it never concedes a hand
    (a random concession would end deals at once and make a useless baseline)."""

    level = "random"

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action],
               budget: Budget = DEFAULT_BUDGET) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        pool = [a for a in legal if a.type != "concede"] or list(legal)
        return pool[self.rng.randrange(len(pool))]

"""What the generic players need to know about one game: :class:`GameAI`.

Each game with AI support has one adapter (registered in :mod:`games.ai.registry`). The
adapter works only from what a player is given (``view``, ``legal``, the table options); it
never receives the real deal. It supplies

* the rule-based policy (``rules_choose``);
* for the search player: the candidate actions worth comparing, a *world sampler* that
  rebuilds a full deal consistent with the view (a determinization), a way to apply a
  candidate in such a world, and a rollout that finishes the world and scores it for the
  deciding seat's side.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from games.actions import Action
from games.base import Deal


class WorldSampler(ABC):
    """Draws full deals (worlds) consistent with one view; built once per decision.

    ``weight`` is the relative likelihood of the world last drawn: how well it explains
    what the other players were seen to do (1.0 for a sampler that does not weigh).
    Search averages its rollouts with these weights."""

    weight: float = 1.0

    @abstractmethod
    def sample(self) -> Deal:
        """A fresh, independent world whose ``view(seat)`` equals the decision's view."""


class GameAI(ABC):
    """The per-game part of every AI level."""

    game: ClassVar[str]

    # -- the rule-based player ---------------------------------------------------------------
    @abstractmethod
    def rules_choose(self, view: Mapping[str, Any], legal: Sequence[Action],
                     rng: random.Random, options: Mapping[str, Any]) -> Action:
        """The rule-based choice (one of ``legal``)."""

    def warm_up(self) -> None:
        """Compute now what the game's first decisions would otherwise pay for once per
        process (default: nothing)."""
        return

    # -- the search player -------------------------------------------------------------------
    def search_shortcut(self, view: Mapping[str, Any], legal: Sequence[Action],
                        rng: random.Random, options: Mapping[str, Any]) -> Action | None:
        """A decision the search player takes without sampling (``None``: search it)."""
        return None

    def fitted_choice(self, view: Mapping[str, Any], legal: Sequence[Action],
                      options: Mapping[str, Any]) -> Action | None:
        """A decision the search player takes from an evaluator fitted beforehand on many
        playouts rather than from the worlds of this decision (``None``: search it). The
        ``oracle``, which sees the real deal, searches it there instead."""
        return None

    def candidates(self, view: Mapping[str, Any], legal: Sequence[Action],
                   options: Mapping[str, Any]) -> list[Action]:
        """The distinct actions search compares (default: every legal action except a
        concession); the first one wins ties, so adapters put the rules choice first."""
        out = [a for a in legal if a.type != "concede"]
        return out or list(legal)

    def decorate(self, view: Mapping[str, Any], legal: Sequence[Action], chosen: Action,
                 rng: random.Random, options: Mapping[str, Any]) -> Action:
        """Turn a searched candidate into the action played (add a signal, a bella call)."""
        return chosen

    @abstractmethod
    def sampler(self, view: Mapping[str, Any], legal: Sequence[Action],
                options: Mapping[str, Any], rng: random.Random) -> WorldSampler:
        """A world sampler for this decision."""

    def clone(self, world: Deal) -> Deal:
        """An independent copy of a world (adapters override with a cheap copy)."""
        return world.copy()

    def step(self, world: Deal, seat: int, action: Action) -> None:
        """Apply a candidate for ``seat`` in a world."""
        world.apply(seat, action)

    @abstractmethod
    def rollout(self, world: Deal, seat: int, rng: random.Random) -> float:
        """Finish (or evaluate) ``world`` (consumed); the value for ``seat``'s side."""

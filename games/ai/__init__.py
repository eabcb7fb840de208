"""AI players for every game: one :class:`Player` interface, three levels.

* ``random``: a uniformly random legal action (never a concession);
* ``rules``: a sound rule-based player per game;
* ``search``: determinized Monte-Carlo search (PIMC) over worlds sampled consistently
  with the view, with the rules policy (or a fast heuristic) finishing each world.

Typical use::

    player = make_player("search", seed=7)
    action = player.choose(deal.view(seat), deal.legal_actions(seat), Budget(ms=200))

Players only ever receive a seat's view and its legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.ai.base import DEFAULT_BUDGET, Budget, Player, RandomPlayer
from games.ai.players import RulesPlayer, SearchPlayer
from games.ai.registry import NoAI, adapter_for, has_ai

LEVELS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "rules": RulesPlayer,
    "search": SearchPlayer,
}
"""Every AI level by name."""


def make_player(level: str, seed: int | str | None = None,
                options: Mapping[str, Any] | None = None) -> Player:
    """A player of ``level`` (one of :data:`LEVELS`); ``options`` are the table's rule
    options in JSON form (used when views do not carry them)."""
    try:
        cls = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r} (one of {', '.join(LEVELS)})") from None
    return cls(seed, options)


__all__ = [
    "DEFAULT_BUDGET",
    "LEVELS",
    "Budget",
    "NoAI",
    "Player",
    "RandomPlayer",
    "RulesPlayer",
    "SearchPlayer",
    "adapter_for",
    "has_ai",
    "make_player",
]

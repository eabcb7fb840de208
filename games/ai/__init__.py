"""AI players for every game: one :class:`Player` interface, three playable levels.

* ``random``: a uniformly random legal action (never a concession);
* ``rules``: a sound rule-based player per game;
* ``search``: determinized Monte-Carlo search (PIMC) over worlds sampled consistently
  with the view, with the rules policy (or a fast heuristic) finishing each world.

and ``oracle``, for measurement only: the search player shown every hand (it is in
:data:`ALL_LEVELS`, never in :data:`PLAYABLE_LEVELS`, the levels front ends offer).

Typical use::

    player = make_player("search", seed=7)
    action = player.choose(deal.view(seat), deal.legal_actions(seat), Budget(ms=200))

Players only ever receive a seat's view and its legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.ai.base import DEFAULT_BUDGET, Budget, Player, RandomPlayer
from games.ai.players import OraclePlayer, RulesPlayer, SearchPlayer
from games.ai.registry import NoAI, adapter_for, has_ai

PLAYABLE_LEVELS: dict[str, type[Player]] = {
    "random": RandomPlayer,
    "rules": RulesPlayer,
    "search": SearchPlayer,
}
"""The AI levels players may seat (Discord, the terminal, the table service): every
front end lists and accepts these, and only these."""

LEVELS = PLAYABLE_LEVELS
"""The same table under its older name (the playable levels)."""

ALL_LEVELS: dict[str, type[Player]] = {**PLAYABLE_LEVELS, "oracle": OraclePlayer}
"""The playable levels and ``oracle`` (measurement only: ``tricktable simulate`` and
``bench/ai.py``)."""


def warm_up() -> None:
    """Load every game's AI and compute its once-per-process tables (a worker process calls
    this when it starts, so no player's first move pays for them)."""
    from games.registry import GAMES

    for game in GAMES:
        if has_ai(game):
            adapter_for(game).warm_up()


def make_player(level: str, seed: int | str | None = None,
                options: Mapping[str, Any] | None = None) -> Player:
    """A player of ``level`` (one of :data:`ALL_LEVELS`); ``options`` are the table's rule
    options in JSON form (used when views do not carry them)."""
    try:
        cls = ALL_LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r} (one of {', '.join(ALL_LEVELS)})"
                         ) from None
    return cls(seed, options)


__all__ = [
    "ALL_LEVELS",
    "DEFAULT_BUDGET",
    "LEVELS",
    "PLAYABLE_LEVELS",
    "Budget",
    "NoAI",
    "OraclePlayer",
    "Player",
    "RandomPlayer",
    "RulesPlayer",
    "SearchPlayer",
    "adapter_for",
    "has_ai",
    "make_player",
    "warm_up",
]

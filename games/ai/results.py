"""What counts as a side's score in one deal, for simulations and benchmarks.

``side_scores(game, summary, sides)`` gives one number per side (the order of
``GameInfo.teams``) in the game's own unit:

* Arba'a Turub: tricks; Turup: game points scored this deal;
* Tarabish: the hand score (what each side adds to its total);
* Truf: each player's points for the deal;
* Albastini: card points taken by each side.

The side with the strictly highest score wins the deal; equal highest scores win for nobody
(an 18–18 Arba'a Turub deal, a 60–60 Albastini game, a void Tarabish hand).

``side_tiebreaks`` gives a second number per side that separates equal scores when the
results of a duplicate board are compared (:mod:`bot.simulate`): Turup's tricks taken (its
deal score is only ever 1 or 3 game points, so two plays of a board often score alike),
Tarabish's raw points (card points, runs and bella before the making/bait rule); the other
games' deal scores are fine-grained already (0 for every side).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def side_scores(game: str, summary: Mapping[str, Any],
                sides: Sequence[Sequence[int]]) -> list[float]:
    """One score per side for a finished deal's summary."""
    if game == "arbaa_turub":
        return [float(x) for x in summary["tricks_by_team"]]
    if game == "turup":
        return [float(x) for x in summary["game_points"]]
    if game == "tarabish":
        return [float(x) for x in summary.get("hand_score") or [0, 0]]
    if game == "truf":
        points = summary.get("points") or [0] * sum(len(s) for s in sides)
        return [float(sum(points[seat] for seat in side)) for side in sides]
    if game == "albastini":
        return [float(x) for x in summary["points_by_side"]]
    raise KeyError(f"no deal score for game {game!r}")


def side_tiebreaks(game: str, summary: Mapping[str, Any],
                   sides: Sequence[Sequence[int]]) -> list[float]:
    """The second score per side (see the module docstring)."""
    if game == "turup":
        return [float(x) for x in summary["tricks_by_team"]]
    if game == "tarabish":
        return [float(x) for x in summary.get("raw_points_by_team") or [0, 0]]
    return [0.0] * len(sides)


def deal_winner(scores: Sequence[float]) -> int | None:
    """The side with the strictly highest score, or ``None`` on a tie for first."""
    best = max(scores)
    top = [i for i, x in enumerate(scores) if x == best]
    return top[0] if len(top) == 1 else None

"""League tables from fixture results (pure).

A fixture counts when its status is ``played`` or ``forfeit`` and it has a result. The
result JSON a league writes (see :func:`fixture_result`)::

    {"outcome": "home" | "away" | "draw", "home_score": int, "away_score": int,
     "forfeit": bool, "source": "table" | "report" | "withdrawal", ...}

Scores are the match totals of the two sides in the game's own unit (tricks, points, deals
won, victory points): the "trick or point difference". A forfeit scores 0–0: the winner gets
the points of a win and the difference is untouched.

Order (each step only among the entrants still tied by the steps before):

1. points (win, draw, loss worth the league's ``points_win``/``points_draw``/``points_loss``);
2. head-to-head: the points earned in the matches among the entrants tied on points (a
   mini-table of that group, computed once for the group);
3. score difference over all counted matches;
4. matches won.

Entrants equal on all four share a rank (listed by entrant id).

A **duplicate round** (a duplicate event held as a round of the league,
``docs/duplicate.md``) counts as one match of each entrant against the field
(:func:`field_outcomes`): won by an entrant ranked above more entrants than are ranked
above it, lost in the opposite case, drawn when the two counts are equal; an entrant that
finished no board of the round lost it. It gives the league's points for a win, draw or
loss, and nothing to the head-to-head (nobody met one opponent) or to the score difference
(its unit, matchpoints or IMPs, is not the game's).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from storage.models import Fixture

COUNTED = ("played", "forfeit")
"""Fixture statuses whose result counts in the table."""

ResultOutcome = Literal["home", "away", "draw"]


def fixture_result(
    outcome: ResultOutcome,
    home_score: int,
    away_score: int,
    *,
    source: str,
    forfeit: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    """The result JSON of a fixture (``extra``: match id, record, reporter…)."""
    return {"outcome": outcome, "home_score": home_score, "away_score": away_score,
            "forfeit": forfeit, "source": source, **extra}


@dataclass(frozen=True, slots=True)
class Points:
    win: int = 2
    draw: int = 1
    loss: int = 0


DEFAULT_POINTS = Points()
"""Win 2, draw 1, loss 0."""


@dataclass(slots=True)
class StandingRow:
    entrant_id: int
    rank: int = 0
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    score_for: int = 0
    score_against: int = 0
    head_to_head: int = 0
    """Points earned against the entrants tied with this one on points."""

    @property
    def difference(self) -> int:
        return self.score_for - self.score_against


def _counted(fixtures: Iterable[Fixture]) -> list[Fixture]:
    return [f for f in fixtures
            if f.status in COUNTED and f.result is not None and f.away_entrant_id is not None]


def _earned(result: dict[str, Any], home: bool, points: Points) -> tuple[int, str]:
    outcome = result.get("outcome")
    if outcome == "draw":
        return points.draw, "draw"
    won = (outcome == "home") == home
    return (points.win, "win") if won else (points.loss, "loss")


def _count(row: StandingRow, result: dict[str, Any], home: bool, points: Points) -> None:
    """One match more in ``row``: played, its points and its kind."""
    earned, kind = _earned(result, home, points)
    row.played += 1
    row.points += earned
    row.won += kind == "win"
    row.drawn += kind == "draw"
    row.lost += kind == "loss"


def field_outcomes(ranks: Mapping[int, int | None]) -> dict[int, ResultOutcome]:
    """A duplicate round as one match against the field: ``ranks`` maps each entrant to
    its rank in the event (equal ranks tie; ``None``: it finished no board). An entrant
    ranked above more entrants than are ranked above it wins (``home``), below more loses
    (``away``), an equal count draws; one that finished no board loses. The outcomes read
    from the entrant's side, as if it were always the home side."""
    placed = [r for r in ranks.values() if r is not None]
    out: dict[int, ResultOutcome] = {}
    for entrant, rank in ranks.items():
        if rank is None:
            out[entrant] = "away"
            continue
        above = sum(1 for r in placed if r < rank)
        below = sum(1 for r in placed if r > rank) + sum(1 for r in ranks.values()
                                                         if r is None)
        out[entrant] = "home" if below > above else "away" if above > below else "draw"
    return out


ROUND_POST = "league"
"""The duplicate event's post key (``claim_duplicate_post``) whose value holds the
outcomes of the event as a league round (:func:`round_value`)."""


def round_value(outcomes: Mapping[int, ResultOutcome]) -> str:
    """The stored form of a duplicate round's outcomes (league entrant → outcome)."""
    return json.dumps({"outcomes": {str(e): o for e, o in sorted(outcomes.items())}})


def round_outcomes(value: str | None) -> dict[int, ResultOutcome]:
    """The outcomes stored by :func:`round_value` (empty for nothing stored)."""
    if not value:
        return {}
    stored = json.loads(value).get("outcomes", {})
    return {int(e): o for e, o in stored.items() if o in ("home", "away", "draw")}


def compute_standings(
    entrant_ids: Sequence[int], fixtures: Iterable[Fixture], points: Points = DEFAULT_POINTS,
    rounds: Iterable[Mapping[int, ResultOutcome]] = (),
) -> list[StandingRow]:
    """The league table of ``entrant_ids`` (withdrawn entrants may be included: their
    forfeited fixtures count like any other); ``rounds``: the outcomes of the league's
    duplicate rounds (:func:`field_outcomes`), each one match per entrant."""
    rows = {e: StandingRow(e) for e in entrant_ids}
    for outcomes in rounds:
        for entrant, outcome in outcomes.items():
            row = rows.get(entrant)
            if row is None:
                continue
            _count(row, {"outcome": outcome}, True, points)
    games = [f for f in _counted(fixtures)
             if f.home_entrant_id in rows and f.away_entrant_id in rows]
    for f in games:
        assert f.result is not None and f.away_entrant_id is not None
        for entrant, home in ((f.home_entrant_id, True), (f.away_entrant_id, False)):
            row = rows[entrant]
            _count(row, f.result, home, points)
            mine, theirs = int(f.result.get("home_score", 0)), int(f.result.get("away_score", 0))
            if not home:
                mine, theirs = theirs, mine
            row.score_for += mine
            row.score_against += theirs
    by_points: dict[int, list[int]] = {}
    for row in rows.values():
        by_points.setdefault(row.points, []).append(row.entrant_id)
    for group in by_points.values():
        if len(group) < 2:
            continue
        members = set(group)
        for f in games:
            if f.home_entrant_id in members and f.away_entrant_id in members:
                assert f.result is not None and f.away_entrant_id is not None
                rows[f.home_entrant_id].head_to_head += _earned(f.result, True, points)[0]
                rows[f.away_entrant_id].head_to_head += _earned(f.result, False, points)[0]

    def key(row: StandingRow) -> tuple[int, int, int, int]:
        return (-row.points, -row.head_to_head, -row.difference, -row.won)

    ordered = sorted(rows.values(), key=lambda r: (key(r), r.entrant_id))
    for position, row in enumerate(ordered, start=1):
        if position > 1 and key(ordered[position - 2]) == key(row):
            row.rank = ordered[position - 2].rank
        else:
            row.rank = position
    return ordered

"""Duplicate scoring: matchpoints, IMPs, unfinished boards and the ranking (pure, no I/O).

One code path for the bot (the event's results), ``tricktable duplicate score`` and the
tests. ``docs/duplicate.md`` states the rules; in short:

* A **result** is one entrant's play of one board from one *direction* (the side index of
  :data:`games.registry.GAMES`' ``teams``: a team in partnership games, a seat in Truf and
  individual Albastini, so individual games are scored per seat). Results are compared only
  with other results of the same board and direction: those who held the same cards.
* Its **score** is the entrant's net score on the deal: its side's deal score
  (:func:`games.ai.results.side_scores`) minus the mean of the other sides' scores; equal
  scores are separated by the same net of :func:`games.ai.results.side_tiebreaks` (Turup's
  tricks, Tarabish's raw points).
* **Matchpoints**: 2 for every other result beaten, 1 for every tie, out of a top of
  ``2 × (n − 1)``; shown as a percentage of the top. A result alone in its direction gets 50%.
* **IMPs** (Tarabish): each result's score minus the *datum* (the mean score of the board
  and direction's finished results), turned into IMPs by :data:`TARABISH_IMP_STEPS`.
* **Unfinished boards** (not played, or left mid-board at the close) are not results:
  others are compared without them. The entrant is given its own average over the boards
  it finished, never more than the board's average (50%, 0 IMPs), so leaving a board
  never pays.
* **Ranking**: the total (mean percentage over the event's boards, or IMPs summed), then
  more boards finished; entrants equal on both share a rank. Entrants who finished no board
  are listed after the ranked ones, unranked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

from games.ai.results import side_scores, side_tiebreaks

Method = Literal["matchpoints", "imps"]
METHODS: tuple[Method, ...] = ("matchpoints", "imps")

TARABISH_IMP_STEPS: tuple[int, ...] = (10, 20, 30, 40, 60, 80, 100, 130, 160, 200, 250, 300)
"""The Tarabish IMP scale: a difference of at least ``TARABISH_IMP_STEPS[k - 1]`` points
(and less than the next step) is worth ``k`` IMPs; under 10 points is 0, 300 or more is
12 (see ``docs/duplicate.md`` for the reasons)."""

HALF = Fraction(50)
_DETAIL_KEYS = ("trump", "caller", "mode", "result", "tricks_by_team", "tricks_by_seat",
                "game_points", "card_points_by_team", "hand_score", "points",
                "points_by_side", "bids", "run_points", "raw_points_by_team")


@dataclass(frozen=True)
class BoardResult:
    """One entrant's play of one board (1-based) from one direction.

    ``score`` and ``tiebreak`` are the net values of :func:`net_result`; ``finished`` is
    false for a board left unfinished (its score is then ignored). ``detail`` keeps the
    deal summary's keys a traveller shows (trump, caller, tricks or points)."""

    board: int
    direction: int
    entrant: str
    score: Fraction = Fraction(0)
    tiebreak: Fraction = Fraction(0)
    finished: bool = True
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoredResult:
    """A finished result with its matchpoints (``mp`` of ``top``), ``percent`` and ``imps``
    (``None`` when the event is scored in matchpoints)."""

    result: BoardResult
    mp: int
    top: int
    percent: Fraction
    imps: int | None


@dataclass(frozen=True)
class Traveller:
    """Every finished result of one board, per direction, best first."""

    board: int
    rows: tuple[ScoredResult, ...]

    def by_direction(self) -> dict[int, list[ScoredResult]]:
        out: dict[int, list[ScoredResult]] = {}
        for row in self.rows:
            out.setdefault(row.result.direction, []).append(row)
        return out


@dataclass(frozen=True)
class BoardScore:
    """One entrant's score on one board: ``value`` in the event's unit (percent or IMPs),
    ``finished`` false for an averaged board."""

    board: int
    value: Fraction
    finished: bool
    scored: ScoredResult | None


@dataclass(frozen=True)
class RankRow:
    """A ranking line: ``rank`` is ``None`` for an entrant who finished no board; ``total``
    is the mean percentage (matchpoints) or the IMP sum."""

    rank: int | None
    entrant: str
    total: Fraction
    finished: int
    boards: tuple[BoardScore, ...]


@dataclass(frozen=True)
class EventScore:
    """The whole event scored: the ranking and one traveller per board."""

    method: Method
    boards: int
    ranking: tuple[RankRow, ...]
    travellers: tuple[Traveller, ...]

    def card(self, entrant: str) -> RankRow | None:
        """The entrant's ranking row (its score card), or ``None``."""
        return next((row for row in self.ranking if row.entrant == entrant), None)


def net_result(game: str, summary: Mapping[str, Any], sides: Sequence[Sequence[int]],
               direction: int) -> tuple[Fraction, Fraction]:
    """``(score, tiebreak)`` of ``direction`` in a finished deal: its side's value minus the
    mean of the other sides' values (module docstring)."""
    return (_net(side_scores(game, summary, sides), direction),
            _net(side_tiebreaks(game, summary, sides), direction))


def _net(values: Sequence[float], direction: int) -> Fraction:
    own = Fraction(values[direction])
    others = [Fraction(v) for i, v in enumerate(values) if i != direction]
    return own - (sum(others, Fraction(0)) / len(others) if others else Fraction(0))


def result_from_summary(game: str, summary: Mapping[str, Any],
                        sides: Sequence[Sequence[int]], *, board: int, direction: int,
                        entrant: str) -> BoardResult:
    """The :class:`BoardResult` of a finished deal's summary."""
    score, tiebreak = net_result(game, summary, sides, direction)
    detail: dict[str, Any] = {k: summary[k] for k in _DETAIL_KEYS if k in summary}
    detail["game"] = game
    detail["scores"] = side_scores(game, summary, sides)
    detail["tiebreaks"] = side_tiebreaks(game, summary, sides)
    side_of = {seat: i for i, side in enumerate(sides) for seat in side}
    for key, out in (("caller", "caller_side"), ("runs_winner", "runs_side"),
                     ("bella", "bella_side")):
        seat = summary.get(key)
        if isinstance(seat, int) and seat in side_of:
            detail[out] = side_of[seat]
    return BoardResult(board, direction, entrant, score, tiebreak, True, detail)


def imps_for(difference: Fraction | float) -> int:
    """IMPs for a point difference on the Tarabish scale (negative for a negative one)."""
    size = abs(Fraction(difference))
    imps = sum(1 for step in TARABISH_IMP_STEPS if size >= step)
    return imps if difference >= 0 else -imps


def matchpoints(results: Sequence[BoardResult]) -> list[tuple[int, int]]:
    """``(mp, top)`` for each of the results of one board and direction: 2 per result
    beaten, 1 per tie, top ``2 × (n − 1)``."""
    top = 2 * (len(results) - 1)
    out = []
    for r in results:
        key = (r.score, r.tiebreak)
        mp = sum(2 if key > (o.score, o.tiebreak) else 1 if key == (o.score, o.tiebreak) else 0
                 for o in results if o is not r)
        out.append((mp, top))
    return out


def percent(mp: int, top: int) -> Fraction:
    """Matchpoints as a percentage of the top (50 when there is no one to compare with)."""
    return HALF if top == 0 else Fraction(100 * mp, top)


def traveller(board: int, results: Sequence[BoardResult], method: Method) -> Traveller:
    """The scored traveller of one board from its results (unfinished ones left out)."""
    rows: list[ScoredResult] = []
    groups: dict[int, list[BoardResult]] = {}
    for r in results:
        if r.finished and r.board == board:
            groups.setdefault(r.direction, []).append(r)
    for direction in sorted(groups):
        group = groups[direction]
        datum = sum((r.score for r in group), Fraction(0)) / len(group)
        scored = [ScoredResult(r, mp, top, percent(mp, top),
                               imps_for(r.score - datum) if method == "imps" else None)
                  for r, (mp, top) in zip(group, matchpoints(group), strict=True)]
        scored.sort(key=lambda s: (-s.mp, s.result.entrant))
        rows.extend(scored)
    return Traveller(board, tuple(rows))


def score_event(results: Iterable[BoardResult], boards: int, method: Method = "matchpoints",
                entrants: Iterable[str] = ()) -> EventScore:
    """Score an event of ``boards`` boards (1..boards) from its results; ``entrants`` adds
    entrants who have no result at all. A second result of one entrant on one board is an
    error (a board is played once)."""
    if method not in METHODS:
        raise ValueError(f"unknown scoring method {method!r}")
    all_results = list(results)
    seen: set[tuple[str, int]] = set()
    for r in all_results:
        if not 1 <= r.board <= boards:
            raise ValueError(f"board {r.board} is not a board of this event (1-{boards})")
        if (r.entrant, r.board) in seen:
            raise ValueError(f"{r.entrant} has two results on board {r.board}")
        seen.add((r.entrant, r.board))
    travellers = tuple(traveller(b, [r for r in all_results if r.board == b], method)
                       for b in range(1, boards + 1))
    names = sorted({*entrants, *(r.entrant for r in all_results)})
    mine: dict[str, dict[int, ScoredResult]] = {name: {} for name in names}
    for t in travellers:
        for row in t.rows:
            mine[row.result.entrant][t.board] = row
    rows = [_entrant_row(name, mine[name], boards, method) for name in names]
    return EventScore(method, boards, _ranked(rows), travellers)


def _entrant_row(name: str, scored: Mapping[int, ScoredResult], boards: int,
                 method: Method) -> RankRow:
    def value(s: ScoredResult) -> Fraction:
        return Fraction(s.imps or 0) if method == "imps" else s.percent

    done = [value(s) for s in scored.values()]
    board_average = Fraction(0) if method == "imps" else HALF
    own = sum(done, Fraction(0)) / len(done) if done else board_average
    averaged = min(own, board_average)
    cards = tuple(BoardScore(b, value(scored[b]), True, scored[b]) if b in scored
                  else BoardScore(b, averaged, False, None) for b in range(1, boards + 1))
    values = [c.value for c in cards]
    total = sum(values, Fraction(0))
    if method == "matchpoints":
        total = total / boards if boards else Fraction(0)
    return RankRow(None, name, total, len(done), cards)


def _ranked(rows: Sequence[RankRow]) -> tuple[RankRow, ...]:
    """Rank by total, then boards finished; equal entrants share a rank (listed by name);
    entrants with no finished board come last, unranked."""
    played = sorted((r for r in rows if r.finished), key=lambda r: (-r.total, -r.finished,
                                                                    r.entrant))
    out: list[RankRow] = []
    for i, row in enumerate(played):
        prev = out[-1] if out else None
        same = prev is not None and (prev.total, prev.finished) == (row.total, row.finished)
        rank = prev.rank if same and prev is not None else i + 1
        out.append(RankRow(rank, row.entrant, row.total, row.finished, row.boards))
    out.extend(r for r in rows if not r.finished)
    return tuple(out)

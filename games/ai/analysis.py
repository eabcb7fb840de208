"""Analysis of a finished deal from one seat's view: every decision it made, judged.

:func:`analyse_deal` replays a record (``docs/records.md``) and, at every decision of the
chosen seat that had more than one legal choice (bids, trump calls, runs, kort, Truf's
adjustment, every card; see below for signals and bella), values each legal choice from
what that seat could see at that moment: the seat's view (``deal.view(seat)``) and its
legal actions, never the deal itself, so the analysis cannot depend on a hidden card.

How a choice is valued is the ``search`` AI's own method, not a second one
(:mod:`games.ai.players`): the game's world sampler (:meth:`GameAI.sampler`) deals the
unseen cards consistently with the view, the choice is applied in a copy of each world
(:meth:`GameAI.step`) and the deal is finished by the game's playout
(:meth:`GameAI.rollout`). All choices are valued on the same worlds; a choice's value is
the weighted mean over the worlds (:class:`~games.ai.players.Weights`) with its standard
error, in the units of the game's playout value for the seat's side: Turup game points
(plus 0.6 per trick of margin), Arba'a Turub tricks of margin (±3 for the winning side),
Tarabish and Albastini points of margin (±a win bonus), Truf the seat's own deal points.

Unlike live search there is no early stop, no halving and no fitted shortcut: every
choice is valued on :data:`ANALYSIS_WORLDS` worlds (twice the live AI's default worlds per
move, at least 96). Choices that differ only in an attached signal or bella call are
played out alike by the playouts (which do not read signals), so they share their card's
value. The result is a function of the record, the seat and ``seed``.

Labels (:data:`THRESHOLDS`, per game, in the playout's points): the *loss* of a choice is
the best choice's value minus its own. ``best``: the loss is 0 (the best choice, or one
the worlds cannot tell from it); ``good``: loss below the ``inaccuracy`` threshold;
``inaccuracy``, ``mistake``, ``blunder``: at least that threshold.

Accuracy: ``100 × mean(max(0, 1 − loss / blunder threshold))`` over the analysed
decisions — 100% when every decision was the best, 0% when every one was a blunder.
"""

from __future__ import annotations

import random
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.actions import Action, action_from_json
from games.ai.players import DEFAULT_WORLDS, DEFAULT_WORLDS_OTHER, Weights
from games.ai.registry import adapter_for
from games.ai.sampling import ImpossibleDeal
from games.base import Deal
from games.records import _deals_of, open_match
from games.registry import game_id

ANALYSIS_WORLDS: dict[str, int] = {g: max(96, 2 * n) for g, n in DEFAULT_WORLDS.items()}
"""Worlds per analysed decision: twice the live AI's :data:`DEFAULT_WORLDS`, at least 96."""

THRESHOLDS: dict[str, tuple[float, float, float]] = {
    "turup": (0.5, 1.5, 3.0),
    "arbaa_turub": (1.0, 3.0, 6.0),
    "tarabish": (10.0, 30.0, 60.0),
    "truf": (1.0, 2.0, 4.0),
    "albastini": (5.0, 12.0, 25.0),
}
"""Per game, the losses (in the playout's points, see the module docstring) from which a
choice is an inaccuracy, a mistake and a blunder. Turup: a quarter, three quarters and
one and a half of its 2-point game value; Arba'a Turub: 1, 3 and 6 tricks; Tarabish: 10,
30 and 60 points (a 162-point deal); Truf: 1, 2 and 4 deal points; Albastini: 5, 12 and
25 card points."""

THRESHOLDS_OTHER = (1.0, 3.0, 6.0)

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One legal choice: its value (mean over the worlds) and the standard error."""

    action: Action
    mean: float
    se: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the analysed seat.

    ``index``: the action's index in the deal's record; ``trick``: the number of the
    trick in progress (1 for decisions before play, counting completed tricks + 1);
    ``choices``: every distinct legal choice, best first; ``made`` / ``best``: the choice
    made and the best one; ``loss``: ``best.mean − made.mean`` (≥ 0); ``worlds``: the
    number of worlds the values average."""

    index: int
    trick: int
    choices: tuple[ChoiceValue, ...]
    made: ChoiceValue
    best: ChoiceValue
    loss: float
    label: str
    worlds: int


@dataclass(frozen=True, slots=True)
class DealAnalysis:
    """The analysis of one deal from one seat's view."""

    game: str
    deal: int
    seat: int
    seed: int
    decisions: tuple[Decision, ...]
    accuracy: float | None
    """Percent (see the module docstring); ``None`` with no decision to analyse."""

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        out = dict.fromkeys(LABELS, 0)
        for d in self.decisions:
            out[d.label] += 1
        return out


def label_for(game: str, loss: float) -> str:
    """The label of a choice that loses ``loss`` against the best one in ``game``."""
    if loss <= 0.0:
        return "best"
    inacc, mistake, blunder = THRESHOLDS.get(game, THRESHOLDS_OTHER)
    if loss >= blunder:
        return "blunder"
    if loss >= mistake:
        return "mistake"
    if loss >= inacc:
        return "inaccuracy"
    return "good"


def accuracy_of(game: str, losses: Sequence[float]) -> float | None:
    """The accuracy (percent) of decisions with these losses (``None``: none)."""
    if not losses:
        return None
    blunder = THRESHOLDS.get(game, THRESHOLDS_OTHER)[2]
    return 100.0 * sum(max(0.0, 1.0 - x / blunder) for x in losses) / len(losses)


def _value_key(action: Action) -> Action:
    """The action as the playouts see it: a card without its signal or bella call."""
    if action.type == "play" and (action.signal is not None or action.bella):
        return Action.play(action.card or "")
    return action


def evaluate(view: Mapping[str, Any], legal: Sequence[Action], options: Mapping[str, Any],
             worlds: int, rng: random.Random) -> tuple[dict[Action, tuple[float, float]], int]:
    """The value ``(mean, standard error)`` of every distinct legal choice (keyed by
    :func:`_value_key`) over ``worlds`` worlds sampled from ``view``, and the number of
    worlds actually drawn (fewer only when the sampler cannot build more)."""
    ai = adapter_for(view["game"])
    seat = view["seat"]
    keys = list(dict.fromkeys(_value_key(a) for a in legal if a.type != "concede"))
    sums = [0.0] * len(keys)
    squares = [0.0] * len(keys)
    weights = Weights()
    n = 0
    try:
        sampler = ai.sampler(view, legal, options, rng)
        while n < worlds:
            world = sampler.sample()
            w = sampler.weight
            seed = rng.getrandbits(32)
            for i, key in enumerate(keys):
                x = ai.clone(world)
                ai.step(x, seat, key)
                v = ai.rollout(x, seat, random.Random(seed))
                sums[i] += w * v
                squares[i] += w * v * v
            weights.add(w)
            n += 1
    except ImpossibleDeal:
        pass
    out: dict[Action, tuple[float, float]] = {}
    for i, key in enumerate(keys):
        mean = weights.upper(sums[i], squares[i], 0.0)
        se = weights.upper(sums[i], squares[i], 1.0) - mean if n > 1 else 0.0
        out[key] = (mean, se)
    return out, n


def _decision(game: str, index: int, trick: int, values: Mapping[Action, tuple[float, float]],
              made: Action, worlds: int) -> Decision:
    choices = sorted((ChoiceValue(a, m, s) for a, (m, s) in values.items()),
                     key=lambda c: (-c.mean, str(c.action.to_json())))
    best = choices[0]
    mine = next(c for c in choices if c.action == _value_key(made))
    loss = max(0.0, best.mean - mine.mean)
    if loss < 1e-9:
        loss = 0.0
    return Decision(index, trick, tuple(choices), mine, best, loss, label_for(game, loss),
                    worlds)


def _trick_number(view: Mapping[str, Any]) -> int:
    tricks = view.get("tricks")
    return len(tricks) + 1 if isinstance(tricks, list) else 1


def analyse_deal(record: Mapping[str, Any], seat: int, deal: int = 0, seed: int = 0,
                 worlds: int | None = None,
                 only: Container[int] | None = None) -> DealAnalysis:
    """Analyse deal number ``deal`` of ``record`` from ``seat``'s view (see the module
    docstring). ``worlds``: worlds per decision (default :data:`ANALYSIS_WORLDS`);
    ``only``: the action indices to analyse (default: every decision of the seat; each
    decision's values do not depend on which others are analysed).
    Raises :class:`~games.errors.RecordError` for an invalid record and
    :class:`~games.errors.IllegalAction` for a refused action."""
    match = open_match(record)
    deals = _deals_of(record)
    if not 0 <= deal < len(deals):
        raise ValueError(f"the record has no deal {deal}")
    game = game_id(record.get("game"))
    options = dict(record.get("options") or {})
    cap = worlds if worlds is not None else ANALYSIS_WORLDS.get(game, 2 * DEFAULT_WORLDS_OTHER)
    decisions: list[Decision] = []
    for number, deal_obj in enumerate(deals[:deal + 1]):
        if "summary" in deal_obj:
            match.score_only(deal_obj["summary"], deal_obj.get("dealer"))
            continue
        d: Deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra", {}),
                                   deal_obj.get("dealer"))
        for a_index, raw in enumerate(deal_obj.get("actions", [])):
            who, action = action_from_json(raw, f"deal {number}, action {a_index}")
            if (number == deal and who == seat and action.type != "concede"
                    and (only is None or a_index in only)):
                legal = d.legal_actions(seat)
                if len({_value_key(a) for a in legal if a.type != "concede"}) > 1:
                    view = d.view(seat)
                    rng = random.Random(f"{seed}:{deal}:{seat}:{a_index}")
                    values, n = evaluate(view, legal, options, cap, rng)
                    if n and _value_key(action) in values:
                        decisions.append(_decision(game, a_index, _trick_number(view),
                                                   values, action, n))
            d.apply(who, action)
        if number < deal and d.is_over:
            match.finish_deal()
    acc = accuracy_of(game, [x.loss for x in decisions])
    return DealAnalysis(game, deal, seat, seed, tuple(decisions), acc)

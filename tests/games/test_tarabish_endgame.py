"""The exact endgame of Tarabish search rollouts: the solver's alpha-beta solution equals a
plain minimax over the engine's own legal cards on copies of the deal, in every option set
that changes what may be played, and a rollout ends with the solved result."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai.tarabish import TarabishAI, world_step
from games.ai.tarabish_endgame import ENDGAME_TRICKS, best_points, finish_exactly, in_endgame
from games.tarabish import HAND_POINTS, TarabishDeal, TarabishMatch

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"must_head_plain": True},
    {"partner_exception": True},
    {"must_head_plain": True, "partner_exception": True, "bella_call_on_first": True},
]


def endgame_position(seed: int, opts: dict[str, Any], tricks_left: int) -> TarabishDeal:
    """A hand played by the rollout policy until ``tricks_left`` tricks remain, then a
    random number of cards into the next trick."""
    d = TarabishMatch(opts, None, seed % 4, seed=seed).start_deal()
    assert isinstance(d, TarabishDeal)
    rng = random.Random(seed)
    while d.phase != "over" and len(d.completed) < 9 - tricks_left:
        world_step(d)
    for _ in range(rng.randrange(4)):
        world_step(d)
    return d


def fingerprint(d: TarabishDeal) -> str:
    return repr(sorted((k, v) for k, v in vars(d).items() if k != "opts"))


def minimax(d: TarabishDeal, team: int) -> int:
    """The reference: the points ``team`` takes from here, every line tried on a copy."""
    if d.phase == "over":
        return 0
    values = []
    for c in d.fast_legal(d.turn):
        x = d.copy()
        before = x.card_points[team]
        x.fast_play(c)
        values.append(x.card_points[team] - before + minimax(x, team))
    return max(values) if d.turn & 1 == team else min(values)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(OPTION_SETS), st.integers(1, 3),
       st.integers(0, 1))
def test_solution_equals_plain_minimax(seed: int, opts: dict[str, Any], left: int,
                                       team: int) -> None:
    d = endgame_position(seed, opts, left)
    if d.phase == "over":
        return
    before = fingerprint(d)
    assert best_points(d, team) == minimax(d, team)
    assert fingerprint(d) == before  # the solver leaves the world as it found it
    left_points = HAND_POINTS - sum(d.card_points)
    assert best_points(d, team) + best_points(d, 1 - team) == left_points


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.sampled_from(OPTION_SETS))
def test_exact_finish_scores_what_the_best_line_scores(seed: int, opts: dict[str, Any]) -> None:
    """The hand finished exactly has the outcome of actually playing a best line, bella
    included (the policy's announcement with the second of the king and queen)."""
    d = endgame_position(seed, opts, ENDGAME_TRICKS)
    if d.phase == "over":
        return
    assert in_endgame(d)
    team = d.turn & 1
    solved = d.copy()
    finish_exactly(solved, team)
    played = d.copy()
    while played.phase != "over":  # a best line: each card keeps the solved value
        target = best_points(played, team)
        seat = played.turn
        for c in played.fast_legal(seat):
            x = played.copy()
            gained = -x.card_points[team]
            if x.bella_seat is None and x.completes_bella(seat, c):
                x.bella_seat = seat
            x.fast_play(c)
            gained += x.card_points[team]
            if x.phase == "over" or gained + best_points(x, team) == target:
                played = x
                break
    assert solved.outcome() == played.outcome()
    assert solved.card_points == played.card_points


def test_rollouts_solve_the_last_tricks() -> None:
    """A rollout from an endgame position is worth what the exact finish gives, not what
    the rule-based policy would make of it, whenever the two differ."""
    ai = TarabishAI()
    differ = 0
    for seed in range(200):
        d = endgame_position(seed, {}, ENDGAME_TRICKS)
        if d.phase == "over":
            continue
        seat = d.turn
        exact = d.copy()
        finish_exactly(exact, seat & 1)
        by_policy = d.copy()
        while by_policy.phase != "over":
            world_step(by_policy)
        value = ai.rollout(d.copy(), seat, random.Random(0))
        score = exact.outcome()[1]
        assert score is not None
        diff = score[seat & 1] - score[1 - (seat & 1)]
        assert value - diff in (20.0, -20.0, 0.0)
        assert (value > 0) == (diff > 0)
        differ += exact.card_points != by_policy.card_points
    assert differ > 0  # the policy does err in some endgames, so the test can fail


def test_remembered_endings_give_the_cold_answer_and_stay_bounded(
        monkeypatch: Any) -> None:
    """Positions between tricks are remembered across solves (keyed by side, trump and the
    options that change the legal cards): a warm memory answers as an empty one does, for
    either side and any option set, and it is emptied once it passes its limit."""
    import games.ai.tarabish_endgame as endgame

    cases = [(seed, opts, team) for seed in range(25) for opts in OPTION_SETS
             for team in (0, 1)]
    positions = {(seed, tuple(sorted(opts.items()))): endgame_position(seed, opts, 3)
                 for seed, opts, _ in cases}
    cold = {}
    for seed, opts, team in cases:
        endgame._SOLVED.clear()
        d = positions[seed, tuple(sorted(opts.items()))]
        if d.phase != "over":
            cold[seed, tuple(sorted(opts.items())), team] = best_points(d, team)
    endgame._SOLVED.clear()
    for (seed, key, team), value in cold.items():
        assert best_points(positions[seed, key], team) == value
    assert endgame._SOLVED  # the warm pass did remember positions
    monkeypatch.setattr(endgame, "SOLVED_LIMIT", 3)
    for (seed, key, team), value in cold.items():
        assert best_points(positions[seed, key], team) == value
        assert len(endgame._SOLVED) <= 3 + 100  # emptied before each solve past the limit

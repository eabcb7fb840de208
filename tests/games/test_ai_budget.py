"""The default search budget (the game's default worlds under a time ceiling), the stop
rule, and the measurement-only ``oracle`` level."""

from __future__ import annotations

import argparse
import json
import math
import random
from typing import Any

import pytest

from bot.simulate import SimConfig, add_parser, run
from games.actions import Action
from games.ai import ALL_LEVELS, PLAYABLE_LEVELS, Budget, OraclePlayer, SearchPlayer, make_player
from games.ai.players import DEFAULT_WORLDS, STOP_MIN, STOP_Z, Weights
from games.registry import GAMES


def rules_positions(game: str, count: int, seed: int) -> list[tuple[dict[str, Any],
                                                                   list[Action]]]:
    """Positions with a real choice from deals between rule-based players."""
    rng = random.Random(seed)
    out: list[tuple[dict[str, Any], list[Action]]] = []
    n = 0
    while len(out) < count:
        n += 1
        deal = GAMES[game].match_type(None, None, n % 4, seed=f"{seed}:{n}").start_deal()
        rules = make_player("rules", seed=n)
        while not deal.is_over and len(out) < count:
            seat = deal.to_act[0]
            legal = deal.legal_actions(seat)
            if len([a for a in legal if a.type != "concede"]) > 1 and rng.random() < 0.3:
                out.append((deal.view(seat), legal))
            deal.apply(seat, rules.choose(deal.view(seat), legal))
    return out


def test_playable_levels_leave_the_oracle_out() -> None:
    assert set(PLAYABLE_LEVELS) == {"random", "rules", "search"}
    assert set(ALL_LEVELS) == {*PLAYABLE_LEVELS, "oracle"}
    assert isinstance(make_player("oracle", seed=1), OraclePlayer)


@pytest.mark.parametrize("game", sorted(DEFAULT_WORLDS))
def test_without_a_cap_search_stops_at_the_games_default_worlds(game: str) -> None:
    """A budget with only a (generous) time limit uses at most the game's default worlds;
    an explicit cap above it is honoured."""
    player = make_player("search", seed=3)
    assert isinstance(player, SearchPlayer)
    used = []
    for view, legal in rules_positions(game, 6, 11):
        player.choose(view, legal, Budget(ms=60_000))
        assert player.last_samples <= DEFAULT_WORLDS[game]
        used.append(player.last_samples)
        player.choose(view, legal, Budget.samples(DEFAULT_WORLDS[game] + 8))
        used.append(player.last_samples)
    assert max(used) > DEFAULT_WORLDS[game]


def test_stop_rule_ends_a_search_whose_rules_choice_is_safe() -> None:
    """The stop rule: a challenger whose paired losses leave no chance stops the search;
    one that may still be better does not. In play the rule ends many Turup searches early
    (and never before :data:`STOP_MIN` worlds)."""

    def settled(total: float, squares: float, n: int) -> bool:
        w = Weights()
        for _ in range(n):
            w.add(1.0)
        return w.upper(total, squares, STOP_Z) <= 0.0

    assert settled(-8.0, 8.0, 8)  # always one point worse: settled
    assert settled(0.0, 0.0, 8)  # always equal: more worlds cannot separate them
    assert not settled(2.0, 20.0, 8)  # ahead on average
    assert not settled(-1.0, 40.0, 8)  # behind, but noisy
    player = make_player("search", seed=5)
    assert isinstance(player, SearchPlayer)
    used = []
    for view, legal in rules_positions("turup", 20, 4):
        player.choose(view, legal, Budget.samples(400))
        used.append(player.last_samples)
    assert any(n < 400 for n in used)
    assert all(n == 400 or n >= STOP_MIN for n in used)


def test_oracle_needs_the_deal_and_plays_legally() -> None:
    deal = GAMES["turup"].match_type(None, None, 0, seed="o").start_deal()
    oracle = make_player("oracle", seed=1)
    assert isinstance(oracle, OraclePlayer)
    seat = deal.to_act[0]
    with pytest.raises(RuntimeError, match="shown the deal"):
        oracle.choose(deal.view(seat), deal.legal_actions(seat))
    while not deal.is_over:
        seat = deal.to_act[0]
        legal = deal.legal_actions(seat)
        oracle.see(deal)
        action = oracle.choose(deal.view(seat), legal)
        assert action in legal
        deal.apply(seat, action)


def test_oracle_sees_what_search_may_not() -> None:
    """Against ``rules`` on the same duplicate deals the oracle (every hand in view) scores
    better than ``search`` does, and the result marks it."""
    def score(level: str) -> tuple[float, list[bool]]:
        cfg = SimConfig(game="turup", levels=(level, "rules"), boards=24, seed=9,
                        budget=Budget.samples(8))
        result = run(cfg)
        return result["mean_score_diff"], result["sees_all"]

    oracle, marks = score("oracle")
    search, plain = score("search")
    assert marks == [True, False] and plain == [False, False]
    assert oracle > search


def test_simulate_cli_accepts_and_marks_the_oracle(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    parser = argparse.ArgumentParser(prog="tricktable")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["simulate", "albastini", "--players", "oracle,rules",
                              "--deals", "2", "--budget-ms", "0", "--samples", "2"])
    assert args.handler(args) == 0
    out = capsys.readouterr().out
    assert "oracle: sees every hand" in out
    args = parser.parse_args(["simulate", "turup", "--players", "oracle,rules", "--deals",
                              "1", "--json"])
    assert args.handler(args) == 0
    assert json.loads(capsys.readouterr().out)["sees_all"] == [True, False]


@pytest.mark.parametrize("game", ["albastini", "truf"])
def test_worlds_redeal_the_hidden_cards_of_one_template(game: str) -> None:
    """In the play phase (Truf: with no face-down card in the trick) the worlds of one
    decision are copies of one replayed template with the hidden cards redealt: every
    world shows the decider exactly his view and legal actions, the hidden hands vary
    from world to world, and every world plays to its end."""
    from games.ai import adapter_for

    deal = GAMES[game].match_type(None, 4, 1, seed="tpl").start_deal()
    rules = make_player("rules", seed=2)

    def ready() -> bool:
        if deal.phase != "play" or len(deal.completed) < 2:
            return False
        view = deal.view(deal.to_act[0])
        return all(c != "??" for _, c in view["trick"]["cards"])

    while not ready():
        seat = deal.to_act[0]
        deal.apply(seat, rules.choose(deal.view(seat), deal.legal_actions(seat)))
    me = deal.to_act[0]
    view, legal = deal.view(me), deal.legal_actions(me)
    sampler = adapter_for(game).sampler(view, legal, {}, random.Random(4))
    others = set()
    for _ in range(6):
        world = sampler.sample()
        assert world.view(me) == view and world.legal_actions(me) == legal
        others.add(json.dumps(world.view((me + 1) % 4)["hand"]))
        while not world.is_over:
            seat = world.to_act[0]
            world.apply(seat, rules.choose(world.view(seat), world.legal_actions(seat)))
    assert len(others) > 1
    assert getattr(sampler, "template", None) is not None  # the template path was taken


def test_weighted_worlds_give_the_ordinary_statistics_with_equal_weights() -> None:
    """With equal weights the weighted mean and standard error are the ordinary ones (the
    sample standard deviation over the square root of n); uneven weights shrink the
    effective sample, so the same values are less certain; one heavy world alone is no
    evidence at all."""
    values = [3.0, -1.0, 2.0, 4.0, 0.0, 1.0]
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    even = Weights()
    for _ in values:
        even.add(2.0)
    total = sum(2.0 * v for v in values)
    squares = sum(2.0 * v * v for v in values)
    assert math.isclose(even.upper(total, squares, 1.0), mean + sd / math.sqrt(n))
    assert math.isclose(even.lower(total, squares, 2.0), mean - 2 * sd / math.sqrt(n))
    uneven = Weights()
    ws = [1.0, 0.1, 1.0, 0.1, 1.0, 0.1]
    for w in ws:
        uneven.add(w)
    t = sum(w * v for w, v in zip(ws, values, strict=True))
    q = sum(w * v * v for w, v in zip(ws, values, strict=True))
    m = t / sum(ws)
    assert uneven.upper(t, q, 1.0) - m > even.upper(total, squares, 1.0) - mean
    lone = Weights()
    lone.add(1.0)
    assert lone.upper(5.0, 25.0, 2.0) == math.inf


def test_a_search_whose_worlds_cannot_be_built_plays_the_rules_choice() -> None:
    """A sampler defeated by the view's facts does not stall the table: with no world the
    search plays the rule-based choice; after some worlds it decides on those."""
    from games.ai import adapter_for
    from games.ai.adapter import GameAI, WorldSampler
    from games.ai.sampling import ImpossibleDeal
    from games.base import Deal

    class Failing(WorldSampler):
        def __init__(self, inner: WorldSampler, good: int) -> None:
            self.inner, self.good = inner, good

        def sample(self) -> Deal:
            if self.good <= 0:
                raise ImpossibleDeal("no world")
            self.good -= 1
            world = self.inner.sample()
            self.weight = self.inner.weight
            return world

    class Defeated(SearchPlayer):
        good = 0

        def worlds(self, ai: GameAI, view: Any, legal: Any, options: Any,
                   rng: random.Random) -> WorldSampler:
            return Failing(super().worlds(ai, view, legal, options, rng), self.good)

    rules = make_player("rules", seed=3)
    ai = adapter_for("tarabish")
    for view, legal in rules_positions("tarabish", 12, 8):
        player = Defeated(seed=3)
        choice = player.choose(view, legal, Budget.samples(16))
        assert player.last_samples == 0
        fitted = ai.fitted_choice(view, legal, {})  # the trump call needs no worlds
        assert choice == (fitted if fitted is not None else rules.choose(view, legal))
        player.good = 5
        player.choose(view, legal, Budget.samples(16))
        assert player.last_samples in (0, 5)

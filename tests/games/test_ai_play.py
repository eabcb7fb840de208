"""Every AI level plays every game and variant legally; search is deterministic with a
sample budget and cannot see hidden cards."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import pytest

from games.ai import Budget, Player, has_ai, make_player
from games.ai.world import new_deal
from games.base import Deal
from games.errors import GameError
from games.registry import GAMES

TINY = Budget.samples(2)

VARIANTS: dict[str, list[tuple[dict[str, Any], int | None]]] = {
    "arbaa_turub": [({}, None), ({"signals_enabled": False}, None),
                    ({"extra_signals": ["void"]}, None)],
    "turup": [({}, None), ({"kort_declared_before_play": True}, None),
              ({"signals_enabled": False, "dealer_rotation": "clockwise"}, None)],
    "tarabish": [({}, None),
                 ({"dealer_may_pass": True, "must_head_plain": True, "auto_bella": True,
                   "auto_declare_runs": True}, None),
                 ({"partner_exception": True, "bella_call_on_first": True,
                   "split_long_runs": True, "run_tie": "none_score",
                   "half_bait_is_whole_bait": True, "allow_concede": False}, None)],
    "truf": [({}, None), ({"multi_card_bids": True, "scoring": "zero_bid_bonus"}, None),
             ({"scoring": "exact", "adjust_amounts": [1]}, 3)],
    "albastini": [({}, 2), ({}, 3), ({}, None), ({}, 5), ({}, 6), ({"teams": "2x3"}, 6)],
}

AI_GAMES = [g for g in GAMES if has_ai(g)]


def cases() -> list[tuple[str, dict[str, Any], int | None]]:
    return [(g, o, p) for g in AI_GAMES for o, p in VARIANTS.get(g, [({}, None)])]


def play_deal(deal: Deal, players: list[Player], budget: Budget) -> list[Any]:
    """Play ``deal`` to the end; every choice must be one of the legal actions."""
    log: list[Any] = []
    steps = 0
    while not deal.is_over:
        for seat in deal.to_act:
            legal = deal.legal_actions(seat)
            view = deal.view(seat)
            frozen = json.dumps(view, sort_keys=True)
            action = players[seat].choose(view, legal, budget)
            assert action in legal, (seat, action)
            assert json.dumps(view, sort_keys=True) == frozen, "a player changed its view"
            deal.apply(seat, action)
            log.append((seat, action))
            steps += 1
            assert steps < 2000
    return log


@pytest.mark.parametrize(("game", "options", "count"), cases())
def test_every_level_plays_every_variant_to_the_end(game: str, options: dict[str, Any],
                                                    count: int | None) -> None:
    """Levels are spread over the seats (search, rules, random, …) and rotated over two
    deals, so each level plays from several seats."""
    info = GAMES[game]
    levels = ["search", "rules", "random"]
    for rot in range(2):
        m = info.match_type(options, count, 0, seed=f"play-{rot}")
        players = [make_player(levels[(s + rot) % 3], seed=s, options=options)
                   for s in range(m.players)]
        deal = m.start_deal()
        play_deal(deal, players, TINY)
        m.finish_deal()


@pytest.mark.parametrize("game", AI_GAMES)
def test_search_is_deterministic_with_a_sample_budget(game: str) -> None:
    info = GAMES[game]
    logs = []
    for _ in range(2):
        m = info.match_type(None, None, 1, seed="det")
        players = [make_player("search" if s % 2 == 0 else "rules", seed=f"p{s}")
                   for s in range(m.players)]
        logs.append(play_deal(m.start_deal(), players, TINY))
    assert logs[0] == logs[1]


def _replay(deal: Deal, dealt: list[list[str]], options: Mapping[str, Any]) -> Deal | None:
    """The deal's actions replayed on other dealt hands (``None`` if one becomes illegal)."""
    rec = deal.record()
    view = {"game": deal.game, "dealer": deal.dealer, "players": deal.players}
    try:
        other = new_deal(view, options, dealt, rec.get("extra"))
        for seat, action in deal.history:
            other.apply(seat, action)
    except GameError:
        return None
    return other


def _alternatives(deal: Deal, me: int, rng: random.Random, options: Mapping[str, Any],
                  want: int) -> list[Deal]:
    """Deals whose ``view(me)`` equals ``deal``'s but where some other seat holds other
    cards: two cards swapped between two other seats' dealt hands, kept only when the whole
    history stays legal and ``me`` sees exactly the same."""
    base = json.dumps(deal.view(me), sort_keys=True)
    dealt = deal.dealt_hands()
    others = [s for s in range(deal.players) if s != me]
    out: list[Deal] = []
    for _ in range(300):
        if len(out) >= want or len(others) < 2:
            break
        a, b = rng.sample(others, 2)
        i, j = rng.randrange(len(dealt[a])), rng.randrange(len(dealt[b]))
        if dealt[a][i] == dealt[b][j]:
            continue
        swapped = [list(h) for h in dealt]
        swapped[a][i], swapped[b][j] = swapped[b][j], swapped[a][i]
        other = _replay(deal, swapped, options)
        if other is None or json.dumps(other.view(me), sort_keys=True) != base:
            continue
        if any(other.view(s)["hand"] != deal.view(s)["hand"] for s in others):
            out.append(other)
    return out


@pytest.mark.parametrize("game", AI_GAMES)
def test_search_cannot_see_hidden_cards(game: str) -> None:
    """At decision points along a deal, the search player's choice (fixed seed, fixed
    sample budget) is the same in every deal that shows the deciding seat the same view,
    whatever the other hands hold."""
    info = GAMES[game]
    rng = random.Random(game)
    m = info.match_type(None, None, 0, seed="hidden")
    deal = m.start_deal()
    driver = make_player("rules", seed=0)
    checked = 0
    step = 0
    while not deal.is_over:
        seat = deal.to_act[0]
        legal = deal.legal_actions(seat)
        if step % 5 == 2 and len(legal) > 1:
            alts = _alternatives(deal, seat, rng, {}, 2)
            choices = set()
            for d in [deal, *alts]:
                assert d.legal_actions(seat) == legal
                p = make_player("search", seed=99)
                choices.add(p.choose(d.view(seat), d.legal_actions(seat), TINY))
            assert len(choices) == 1
            checked += len(alts)
        deal.apply(seat, driver.choose(deal.view(seat), legal, TINY))
        step += 1
    assert checked >= 2


def test_every_registered_game_has_an_ai() -> None:
    assert list(GAMES) == AI_GAMES

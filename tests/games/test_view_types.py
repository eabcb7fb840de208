"""Every game's view is exactly its view type (``games.view_types``): each key of the type,
no other key, every value of the type's shape, for every seat at every step of played
deals; the guards tell the games apart."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.contract.jsonschema import schema_of
from bot.contract.validate import problems
from games.registry import GAMES
from games.view_types import (
    VIEW_TYPES,
    GameView,
    is_albastini,
    is_plain,
    is_tarabish,
    is_truf,
    is_turup,
)

SETUPS = [("arbaa_turub", None), ("turup", None), ("tarabish", None), ("truf", None),
          ("truf", 3), ("albastini", 2), ("albastini", 5)]


def views_of_played_deals(game: str, players: int | None, seed: int) -> list[Any]:
    """Every seat's view and the public one after every action of two played deals."""
    info = GAMES[game]
    match = info.match_type(None, players or info.player_counts[0], 0, seed=seed)
    rng = random.Random(seed)
    out: list[Any] = []
    for _ in range(2):
        if match.over:
            break
        deal = match.start_deal()
        while True:
            out.extend(deal.view(s) for s in [None, *range(deal.players)])
            if deal.is_over:
                break
            seat = deal.to_act[rng.randrange(len(deal.to_act))]
            deal.apply(seat, rng.choice(deal.legal_actions(seat)))
        match.finish_deal()
    return out


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_every_view_is_its_games_type(game: str, players: int | None) -> None:
    tp = VIEW_TYPES[game]
    document = schema_of([tp], id="x", title="views", version=1)
    for seed in (1, 2):
        for view in views_of_played_deals(game, players, seed):
            assert problems(view, {"$ref": f"#/$defs/{tp.__name__}"}, document) == []


def test_the_guards_tell_the_games_apart() -> None:
    guards = {"arbaa_turub": {is_plain}, "turup": {is_plain, is_turup},
              "tarabish": {is_tarabish}, "truf": {is_truf}, "albastini": {is_albastini}}
    every = {is_plain, is_turup, is_tarabish, is_truf, is_albastini}
    for game, yes in guards.items():
        view: GameView = views_of_played_deals(game, None, 1)[0]
        assert {g for g in every if g(view)} == yes

"""Building sampled worlds (full deals) for the search player.

A world is an ordinary :class:`~games.base.Deal` of the game, created through the game's
public :class:`~games.base.Match` API from sampled full hands and then taken through the
view's public history by the game's own ``apply``, so it obeys exactly the game's rules.
Worlds are copied with the engine's own cheap :meth:`~games.base.Deal.copy`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from games.base import Deal
from games.options import GameOptions
from games.registry import GAMES


def new_deal(view: Mapping[str, Any], options: Mapping[str, Any],
             dealt: list[list[str]], extra: Mapping[str, Any] | None = None) -> Deal:
    """A fresh deal of the view's game with the view's dealer and the given full hands
    (record form, in the order dealt) and record ``extra``."""
    info = GAMES[view["game"]]
    players = view.get("players")
    match = info.match_type(_parsed(view["game"], json.dumps(options, sort_keys=True)),
                            players, view["dealer"])
    return match.start_deal(dealt, extra or {}, view["dealer"])


@lru_cache(maxsize=64)
def _parsed(game: str, options_json: str) -> GameOptions:
    """The game's validated options (parsed once per distinct options object)."""
    return GAMES[game].options_type.from_json(json.loads(options_json))

"""A board: one deal fixed by game, options, player count, seed and dealer.

:meth:`Board.match` opens the board's match exactly as a table does (the table service's
lobby takes the same seed and first dealer), so every entrant, the AI reference play and
a record's replay hold the same cards. :func:`play_with_ai` plays a board with AI players
in every seat through the simulation's deal loop (:mod:`bot.simulate`): the reference
result of "the AI in your seat", played once per board and direction and cached by the
event. It is CPU work: run it off the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.simulate import _play_deal
from games.ai import DEFAULT_BUDGET, Budget, make_player
from games.base import Match
from games.registry import GAMES


@dataclass(frozen=True)
class Board:
    """One board of an event (``number`` is 1-based)."""

    game: str
    number: int
    seed: str
    dealer: int
    players: int
    options: Mapping[str, Any] = field(default_factory=dict)

    def match(self) -> Match:
        """The board's match, no deal started."""
        return GAMES[self.game].match_type(dict(self.options), self.players, self.dealer,
                                           seed=self.seed)

    def sides(self) -> list[tuple[int, ...]]:
        """The board's directions: the game's sides (tuples of seats)."""
        match = self.match()
        return [tuple(s) for s in GAMES[self.game].teams(match.players, match.options)]


def play_with_ai(board: Board, level: str = "search", budget: Budget = DEFAULT_BUDGET,
                 seed: str = "") -> dict[str, Any]:
    """The record of ``board`` played by ``level`` AI players in every seat, redealt past
    automatic redeals (Truf misdeals) like a table."""
    match = board.match()
    players = [make_player(level, seed=f"{board.seed}:{seed}:{s}", options=board.options)
               for s in range(match.players)]
    for _ in range(100):
        deal = match.start_deal()
        _play_deal(deal, players, budget, {})
        summary = match.finish_deal()
        if not summary.get("redeal") or match.over:
            break
    return match.record()

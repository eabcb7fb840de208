"""Sample inputs for the pictures, from seeded games: what ``bench/render.py`` times and
``bench/gallery.py`` draws. Every sample is a real position reached by random legal play,
so the same seed gives the same picture."""

from __future__ import annotations

import random
from collections.abc import Callable

from games.base import HIDDEN, Deal
from games.registry import GAMES
from games.view_types import GameView

NAMES = ["Amina", "Baraka", "Citra", "Dewi", "Eshe", "Faraji"]


def play_until(game: str, players: int, done: Callable[[Deal], bool], seed: int = 1) -> Deal:
    """A deal of ``game`` played with random legal actions until ``done`` holds."""
    deal = GAMES[game].match_type(None, players, 0, seed=seed).start_deal()
    rng = random.Random(seed)
    while not done(deal):
        if deal.is_over:
            raise ValueError(f"{game}: the deal ended before the position was reached")
        seat = deal.to_act[0]
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))
    return deal


def _trick_len(deal: Deal) -> int:
    return len(deal.view(None)["trick"]["cards"])


def _playing(deal: Deal, n: int) -> bool:
    return deal.view(None)["phase"] == "play" and _trick_len(deal) == n


def hand_sample(game: str, players: int = 4, seed: int = 1,
                played: int = 1) -> tuple[list[str], set[str]]:
    """The hand and legal cards of the seat to act once ``played`` cards of a trick lie."""
    deal = play_until(game, players, lambda d: _playing(d, played), seed)
    seat = deal.to_act[0]
    legal = {a.card for a in deal.legal_actions(seat) if a.card}
    return list(deal.view(seat)["hand"]), legal


def table_sample(game: str, players: int, played: int, seed: int = 1,
                 hidden: bool = False) -> GameView:
    """A public view with ``played`` cards in the current trick (``hidden``: at least one of
    them face down, as Truf's trumps are)."""
    def done(d: Deal) -> bool:
        cards = d.view(None)["trick"]["cards"]
        return _playing(d, played) and (not hidden or any(c == HIDDEN for _, c in cards))

    for s in range(seed, seed + 200):
        try:
            return play_until(game, players, done, s).view(None)
        except ValueError:
            continue
    raise ValueError(f"no {game} position with {played} cards played found")

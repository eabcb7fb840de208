"""Shared helpers for the Arba'a Turub and Turup tests."""

from __future__ import annotations

import random

from games.actions import Action
from games.base import Deal


def suit_hands(ranks: str, copies: int, order: str = "SHDC") -> list[list[str]]:
    """Seat i holds every card of suit ``order[i]`` (``copies`` times) — a valid deal."""
    return [[r + s for _ in range(copies) for r in ranks] for s in order]


def play_random(deal: Deal, rng: random.Random) -> None:
    """Finish ``deal`` through the readable API with uniformly random legal actions."""
    while not deal.is_over:
        seat = deal.to_act[0]
        deal.apply(seat, rng.choice(deal.legal_actions(seat)))


def play(deal: Deal, seat: int, card: str, **kw: object) -> None:
    deal.apply(seat, Action.play(card, **kw))  # type: ignore[arg-type]


def plays(deal: Deal, *moves: tuple[int, str]) -> None:
    """Play ``(seat, card)`` moves in order."""
    for seat, card in moves:
        deal.apply(seat, Action.play(card))

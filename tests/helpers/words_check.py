"""Shared checks of the words tests: what a player must never read, and a random match."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from typing import Any

from games.base import Event, Match
from games.registry import GAMES

NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Flo"]

RECORD_CODE = re.compile(r"\b[2-9TJQKA][SHDC]\b")
ENGINE_WORD = re.compile(r"\b[a-z]+_[a-z_]+\b")
PY_LITERAL = re.compile(r"\b(True|False|None)\b|[{}\[\]]")
BARE_SEAT = re.compile(r"\bseats? \d", re.IGNORECASE)
ENGINE_KEYS = ("winner side", "hand over", "caller:", "redeal:", "points by side",
               "tricks by team", "game points by", "winner:")
NAMELESS_NUMBERS = re.compile(r"-?\d+(?:–-?\d+){2,}")
"""Scores joined without names (``points: 6–6–-2–-5``)."""


def problems(text: str) -> list[str]:
    """Everything in ``text`` a player must not read (empty when clean)."""
    found = []
    for pattern, what in ((RECORD_CODE, "record card code"), (ENGINE_WORD, "engine key"),
                          (NAMELESS_NUMBERS, "scores without names"),
                          (PY_LITERAL, "Python literal"), (BARE_SEAT, "bare seat number")):
        hit = pattern.search(text)
        if hit:
            found.append(f"{what} {hit.group(0)!r} in {text!r}")
    lowered = text.lower()
    found += [f"engine key {k!r} in {text!r}" for k in ENGINE_KEYS if k in lowered]
    return found


def assert_clean(texts: Iterable[str]) -> None:
    bad = [p for t in texts for p in problems(t)]
    assert not bad, "\n".join(bad[:10])


SHORT = {"arbaa_turub": {}, "turup": {"target": 2}, "tarabish": {"target": 300},
         "truf": {"deals": 3}, "albastini": {"target_vp": 2}}
"""Options that keep a whole simulated match short."""


def random_match(game: str, players: int, seed: int
                 ) -> tuple[Match, list[dict[str, Any]], list[list[Event]]]:
    """A whole match with uniformly random legal actions: the match, each finished deal's
    summary, and each deal's public events."""
    rng = random.Random(seed)
    match = GAMES[game].match_type(SHORT[game], players, 0, seed=seed)
    summaries: list[dict[str, Any]] = []
    events: list[list[Event]] = []
    while not match.over and len(summaries) < 40:
        deal = match.start_deal()
        seen: list[Event] = []
        while not deal.is_over:
            seat = deal.to_act[0]
            action = rng.choice(deal.legal_actions(seat))
            seen += [e for e in deal.apply(seat, action) if e.visible_to(None)]
        summaries.append(match.finish_deal())
        events.append(seen)
    return match, summaries, events

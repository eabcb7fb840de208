"""Every engine event's data is its kind's type (``games.event_types.EVENT_DATA``), every
deal summary a :class:`DealSummary` and every match summary a :class:`MatchSummary`: each
key of the type, no other key, every value of the type's shape, over played matches of every
game (score-only deals included)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, get_args, get_overloads, get_type_hints

import pytest

from bot.contract.jsonschema import Named, schema_of
from bot.contract.validate import problems
from games import base
from games.event_types import (
    EVENT_DATA,
    MATCH_KEYS,
    DealSummary,
    MatchSummary,
    stored_match_summary,
)
from games.registry import GAMES

SETUPS = [("arbaa_turub", None), ("turup", None), ("tarabish", None), ("truf", None),
          ("truf", 3), ("albastini", 2), ("albastini", 5)]

DOCUMENT = schema_of([*(Named(f"E_{kind}", tp) for kind, tp in EVENT_DATA.items()),
                      DealSummary, MatchSummary], id="x", title="events", version=1)


def check(value: object, name: str) -> list[str]:
    return problems(json.loads(json.dumps(value)), {"$ref": f"#/$defs/{name}"}, DOCUMENT)


def played(game: str, players: int | None, seed: int) -> tuple[list[Any], list[Any],
                                                               list[Any]]:
    """The events, the deal summaries and the match summaries of up to six played deals."""
    info = GAMES[game]
    match = info.match_type(None, players or info.player_counts[0], 0, seed=seed)
    rng = random.Random(seed)
    events: list[Any] = []
    deals: list[Any] = []
    matches: list[Any] = [match.summary()]
    for _ in range(6):
        if match.over:
            break
        deal = match.start_deal()
        while not deal.is_over:
            seat = deal.to_act[rng.randrange(len(deal.to_act))]
            events.extend(deal.apply(seat, rng.choice(deal.legal_actions(seat))))
        deals.append(deal.summary())
        deals.append(match.finish_deal())
        matches.append(match.summary())
    return events, deals, matches


@pytest.mark.parametrize(("game", "players"), SETUPS)
def test_every_event_and_summary_is_its_type(game: str, players: int | None) -> None:
    kinds: set[str] = set()
    for seed in (1, 2, 3):
        events, deals, matches = played(game, players, seed)
        for event in events:
            assert event.type in EVENT_DATA, event.type
            kinds.add(event.type)
            assert check(event.data, f"E_{event.type}") == [], (event.type, event.data)
        for summary in deals:
            assert check(summary, "DealSummary") == [], summary
        for summary in matches:
            assert check(summary, "MatchSummary") == [], summary
            assert summary.keys() >= MATCH_KEYS
    assert {"play", "trick", "deal_over"} <= kinds


def test_a_wrong_key_is_caught() -> None:
    assert check({"seat": 0, "card": "AS"}, "E_play") != []
    assert check({"dealer": 0, "tricks_won": 3}, "DealSummary") != []


def test_a_stored_match_summary_reads_back_as_its_type() -> None:
    match = GAMES["arbaa_turub"].match_type(None, 4, 0, seed=1)
    summary = match.summary()
    stored = json.loads(json.dumps({"summary": summary, "seats": []}))
    assert stored_match_summary(stored["summary"]) == summary
    assert stored_match_summary({**stored["summary"], "extra": 1}) == summary
    assert stored_match_summary(None) == {}


def overload_types(builder: Callable[..., base.Event]) -> dict[str, type]:
    """Each kind an event builder's overloads take, and the data type they take with it."""
    out: dict[str, type] = {}
    for variant in get_overloads(builder):
        hints = get_type_hints(variant, vars(base))
        for kind in get_args(hints["kind"]):
            assert kind not in out, kind
            out[kind] = hints["data"]
    return out


def test_the_event_builders_take_each_kind_with_its_type() -> None:
    """mypy checks an event's keys where it is built only through these overloads: one per
    kind of ``GameEvents``, with that kind's data type (``private``: the kinds sent to one
    seat)."""
    assert overload_types(base.public) == EVENT_DATA
    private = overload_types(base.private)
    assert set(private) == {"hand", "kitty", "draw", "bid", "play"}
    assert all(EVENT_DATA[kind] is tp for kind, tp in private.items())

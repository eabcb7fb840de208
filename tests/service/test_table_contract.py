"""The published contract (``bot/contract/table.schema.json``) is what the service really
sends: every event a seat and a spectator receive over whole matches of every game, with its
data in wire form (legal actions in their record form), conforms to its type's schema (an
engine event's: its kind's type of ``GameEvents``, the deal summaries included); and
``data_of`` refuses to read an event as another type."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.contract.table import schema
from bot.contract.validate import problems
from bot.service import Seat, TableEvent, TableService
from bot.service.events import data_of
from games.actions import Action
from games.event_types import EVENT_DATA
from games.registry import GAMES
from storage import TerminalLocation

CONFIGS = [(name, n) for name, info in GAMES.items() for n in info.player_counts[:1]]

TYPES = {kind: tp.__name__ for kind, tp in EVENT_DATA.items()} | {
    "lobby": "LobbyData", "started": "StartedData", "deal_started": "DealStartedData",
    "deal_scored": "DealScoredData", "turn": "TurnData", "state": "StateData",
    "reminder": "ReminderData", "timeout": "SeatData", "away": "SeatData",
    "returned": "SeatData", "match_over": "MatchOverData", "abandoned": "AbandonedData",
    "resync": "ResyncData",
}


def wire(data: object) -> Any:
    """``data`` as it leaves the process (JSON; actions in their record form)."""
    def default(value: object) -> object:
        if isinstance(value, Action):
            return value.to_json()
        raise TypeError(f"{value!r} is not JSON")

    return json.loads(json.dumps(data, default=default))


async def test_every_service_event_conforms_to_the_published_schema(
        service: TableService) -> None:
    document = schema()
    seen: set[str] = set()
    for game, players in CONFIGS:
        table_id = await service.create_table(
            TerminalLocation(f"c-{game}-{players}"), game, players=players, seed="contract",
            seats=[Seat.ai("random") for _ in range(players)], ai_pace=0,
        )
        subs = [service.subscribe(table_id, s, bound=100_000) for s in (None, 0)]
        await service.start_match(table_id)
        await service.settle(timeout=60)
        for sub in subs:
            for event in sub.drain():
                if event.type in TYPES:
                    seen.add(event.type)
                    ref = {"$ref": f"#/$defs/{TYPES[event.type]}"}
                    assert problems(wire(event.data), ref, document) == [], (game, event.type)
    assert {"lobby", "started", "deal_started", "state", "turn", "deal_scored",
            "match_over", "play", "trick", "deal_over"} <= seen


def test_an_event_is_read_only_as_its_own_type() -> None:
    event = TableEvent(1, "turn", {"to_act": [0], "version": 3, "deadline": None})
    assert data_of(event, "turn")["to_act"] == [0]
    with pytest.raises(ValueError, match="'turn' event read as 'state'"):
        data_of(event, "state")

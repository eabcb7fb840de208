"""The table service's contract with every front end, as one versioned JSON Schema: each
event type's ``data`` (:mod:`bot.service.events`; an engine event's by its kind,
:class:`games.event_types.GameEvents`, with the deal and match summaries) and each game's
view (:mod:`games.view_types`), generated from those types (``python -m bot.contract`` writes
``bot/contract/table.schema.json`` and the web front end's ``web/src/table.ts``).

In process, legal actions are :class:`games.actions.Action` values; where they leave it
they take their record form (``docs/records.md``), published here as
:data:`games.actions.ActionRecord` (the web protocol's action too).
"""

from __future__ import annotations

from typing import Any

from bot.contract.jsonschema import Named, schema_of
from bot.service.events import ServiceEventData
from games.actions import Action, ActionRecord
from games.event_types import GameEvents
from games.view_types import GameView

VERSION = 1
"""The contract's version: raised when a published type changes incompatibly."""



def schema() -> dict[str, Any]:
    """The contract's JSON Schema."""
    return schema_of(
        [Named("ServiceEventData", ServiceEventData,
               "The data of an event the table service makes (one type per event type; an "
               "engine event's data: GameEvents)."),
         GameEvents,
         Named("GameView", GameView, "A seat's (or the public) view of a deal, by game.")],
        id="https://tricktable.invalid/schema/table", title="tricktable table service",
        version=VERSION, wire={Action: ActionRecord})

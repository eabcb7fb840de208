"""Issue 45: the web protocol's action is the one record type beside ``Action``
(``games.actions.ActionRecord``), so a Turup kort choice — the field ``continue`` — is a
frame the published schema takes; and the conformance check every web test runs
(``tests/web/conftest.py``) catches a frame that is not."""

from __future__ import annotations

import json

from webtable import nonconforming

from bot.contract.validate import problems
from bot.web.protocol import schema
from games.actions import Action


def test_every_action_record_conforms_to_the_web_protocol() -> None:
    document = schema()
    record = document["$defs"]["ActionRecord"]
    for action in (Action.kort(True), Action.kort(False), Action.play("AS", signal="strong"),
                   Action.bid_cards(("AS", "KS")), Action.adjust("up", 2), Action.answer(3),
                   Action.call_trump("H"), Action.pass_()):
        assert problems(action.record(), record, document) == [], action


def test_a_choice_of_kort_conforms_and_a_wrong_key_does_not() -> None:
    choice = {"action": Action.kort(True).record(), "label": "Play on for kort",
              "card": None, "variant": None, "confirm": None}
    frame = {"v": 1, "type": "table", "version": 3, "status": "playing", "deal": 0,
             "phase": "kort", "seats": [], "trump": None, "trump_text": "",
             "trick": {"leader": None, "cards": [], "winner": None, "line": ""},
             "last_trick": None, "hand": [], "choices": [choice], "variants": [],
             "facts": [], "score": "", "deadline": None, "your_turn": True}
    assert nonconforming(json.dumps(frame)) == []
    choice["action"] = {"type": "kort", "cont": True}  # the key the old type declared
    assert nonconforming(json.dumps(frame))

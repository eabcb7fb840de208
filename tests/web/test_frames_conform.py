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
    document = schema()
    choice = {"action": Action.kort(True).record(), "label": "Play on for kort",
              "card": None, "variant": None, "confirm": None, "caption": None}
    assert problems(choice, document["$defs"]["Choice"], document) == []
    choice["action"] = {"type": "kort", "cont": True}  # the key the old type declared
    assert problems(choice, document["$defs"]["Choice"], document)
    # the check every web test runs on the frames it receives
    assert nonconforming(json.dumps({"v": 1, "type": "refused", "text": "No."})) == []
    assert nonconforming(json.dumps({"v": 1, "type": "refused", "text": "No.", "x": 1}))

"""The ``custom_id`` of every table component: ``tt:<kind>:<table>:<version>:<arg>``.

Everything needed to act on a click is in its ``custom_id``, so a component keeps working
after a restart (the router's dynamic items parse it back):

=====  =======================================  ========================================
kind   component                                ``arg``
=====  =======================================  ========================================
``l``  lobby button                             ``join``, ``leave``, ``start``,
                                                ``ai:<level>`` (a plain ``ai`` from an
                                                older lobby seats a ``rules`` AI)
``a``  an action button                         the action's record JSON
``s``  the card select                          ``all`` or a suit (values: action JSON)
``m``  Truf's multi-card bid select             ``bid`` (values: cards)
``h``  **My hand** / Refresh / Back             empty
``b``  **I'm back**                             empty
``x``  confirm **abandon**                      empty
``w``  **Open table** (the Activity)            empty (``bot.discord_bot.tables.web_table``)
=====  =======================================  ========================================

``version`` is the table version a choice was offered at (0 where it does not matter):
the table service refuses a choice that is no longer current.
"""

from __future__ import annotations

import json

from games.actions import Action, action_from_json

MAX_CUSTOM_ID = 100


def custom_id(kind: str, table: int, version: int, arg: str = "") -> str:
    """The ``custom_id`` of a table component; raises ValueError past Discord's 100
    characters."""
    cid = f"tt:{kind}:{table}:{version}:{arg}"
    if len(cid) > MAX_CUSTOM_ID:
        raise ValueError(f"custom_id too long: {cid!r}")
    return cid


def encode_action(action: Action) -> str:
    """An action as compact record JSON (no seat: the clicker's seat is used)."""
    return json.dumps(action.to_json(), separators=(",", ":"))


def decode_action(text: str) -> Action:
    """Parse an action from a component; raises ValueError for anything malformed."""
    try:
        obj = json.loads(text)
        if not isinstance(obj, dict):
            raise ValueError("not an object")
        _, action = action_from_json({**obj, "seat": 0}, "choice")
    except Exception as exc:
        raise ValueError(f"that choice is not understood ({exc})") from None
    return action

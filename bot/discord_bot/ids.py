"""The ``custom_id`` of every persistent component: one :class:`CustomIdKind` per intent.

Everything needed to act on a click is in its ``custom_id``, so a component keeps working
after a restart (the router's dynamic items parse it back). A ``custom_id`` starts with its
kind's prefix and a ``:``; no prefix is another's, so a ``custom_id`` names one kind.

A table component is ``<prefix>:<table>:<version>:<arg>`` (:func:`custom_id`):

============  ===================  ===================================  =========================
prefix        member               component                            ``arg``
============  ===================  ===================================  =========================
``tt:l``      ``LOBBY``            lobby button                         ``join``, ``leave``,
                                                                        ``start``,
                                                                        ``ai:<level>`` (a plain
                                                                        ``ai`` from an older
                                                                        lobby seats a ``rules``
                                                                        AI)
``tt:a``      ``ACTION``           an action button                     the action's record JSON
``tt:s``      ``CARD_SELECT``      the card select                      ``all`` or a suit
                                                                        (values: action JSON)
``tt:m``      ``MULTI_BID``        Truf's multi-card bid select         ``bid`` (values: cards)
``tt:h``      ``MY_HAND``          **My hand** / Refresh / Back         empty
``tt:b``      ``BACK``             **I'm back**                         empty
``tt:x``      ``ABANDON``          confirm **abandon**                  empty
``tt:w``      ``OPEN_TABLE``       **Open table** (the Activity)        empty
                                                                        (:mod:`~bot.discord_bot.
                                                                        tables.web_table`)
``tt:g``      ``SIGNAL``           the leader's signal select           ``lead`` (values:
                                                                        ``none`` or a signal;
                                                                        :mod:`~bot.discord_bot.
                                                                        tables.card_select`)
``tt:o``      ``OPTIONS``          the lobby's **Options** controls     ``open``, ``pick``,
                                                                        ``set:<option>``,
                                                                        ``num:<option>``,
                                                                        ``form:<option>:<user>``
                                                                        (version 0;
                                                                        :mod:`~bot.discord_bot.
                                                                        tables.options_panel`)
``tt:r``      ``REVIEW``           the deal review's buttons            ``count`` or
                                                                        ``<page>[p|n]``; the
                                                                        version is the deal
                                                                        (:mod:`~bot.discord_bot.
                                                                        tables.review`)
============  ===================  ===================================  =========================

``version`` is the table version a choice was offered at (0 where it does not matter):
the table service refuses a choice that is no longer current.

The club's components have their own shapes, each documented where it is built:

=============  ===================  =========================================================
prefix         member               component
=============  ===================  =========================================================
``club:lb``    ``LEADERBOARD``      ``/leaderboard`` paging (``<guild>:<game>:<season>:<page>:
                                    <direction>``, :mod:`~bot.discord_bot.club.leaderboard`)
``club:hi``    ``HISTORY_PAGE``     ``/history`` paging (``HistoryQuery``)
``club:rec``   ``HISTORY_RECORD``   ``/history``'s record menu (``<guild>``)
``club:fx``    ``FIXTURE_REPORT``   a league result's confirm/reject (``<fixture>:<action>``,
                                    :mod:`~bot.discord_bot.club.league_reports`)
``dup:rv``     ``BOARD_REVIEW``     a duplicate board's review (``<event>:<board>:…``,
                                    :mod:`~bot.discord_bot.club.duplicate_review`)
``dup:mr``     ``MY_RESULTS``       an event's **My results** (``<event>``,
                                    :mod:`~bot.discord_bot.club.duplicate_cards`)
=============  ===================  =========================================================

``tests/bot/test_custom_ids.py`` checks that the prefixes are unique, that every dynamic
item's template starts with one of them and that this table documents each.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum

from games.actions import Action, action_from_json

MAX_CUSTOM_ID = 100


class CustomIdKind(StrEnum):
    """The kind of a component, as the prefix of its ``custom_id`` (the module's table)."""

    LOBBY = "tt:l"
    ACTION = "tt:a"
    CARD_SELECT = "tt:s"
    MULTI_BID = "tt:m"
    MY_HAND = "tt:h"
    BACK = "tt:b"
    ABANDON = "tt:x"
    OPEN_TABLE = "tt:w"
    SIGNAL = "tt:g"
    OPTIONS = "tt:o"
    REVIEW = "tt:r"
    LEADERBOARD = "club:lb"
    HISTORY_PAGE = "club:hi"
    HISTORY_RECORD = "club:rec"
    FIXTURE_REPORT = "club:fx"
    BOARD_REVIEW = "dup:rv"
    MY_RESULTS = "dup:mr"

    def template(self, rest: str) -> str:
        """A dynamic item's template: this kind's prefix, ``:``, then the regex ``rest``."""
        return f"{re.escape(self.value)}:{rest}"


def custom_id(kind: CustomIdKind, table: int, version: int, arg: str = "") -> str:
    """The ``custom_id`` of a table component; raises ValueError past Discord's 100
    characters."""
    cid = f"{kind.value}:{table}:{version}:{arg}"
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

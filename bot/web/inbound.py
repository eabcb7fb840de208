"""What a page sends, read once: a socket message → a JSON object of this protocol's
version (:func:`decode`) → a typed request (:func:`parse`), or nothing (the caller answers
``malformed``).

Every hostile shape ends here as ``None``, never as an exception: a binary or oversized
message, text that is not JSON, JSON nested deeper than Python's parser recurses, a
value that is not an object, another version; an ``act`` whose action is not a record
action (``games.actions.action_from_json``), a ``lobby_act`` of an unknown ``do``, a
``why`` without a card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, get_args

from aiohttp import WSMessage, WSMsgType

from bot.web.protocol import VERSION, LobbyDo
from games.actions import Action, action_from_json
from games.errors import GameError


@dataclass(frozen=True, slots=True)
class Act:
    """A decision chosen at table ``version`` (:class:`bot.web.protocol.ActFrame`)."""

    version: int
    action: Action


@dataclass(frozen=True, slots=True)
class LobbyAct:
    """A lobby action (:class:`bot.web.protocol.LobbyActFrame`)."""

    do: LobbyDo


@dataclass(frozen=True, slots=True)
class Why:
    """Why ``card`` of the hand may not be played now (:class:`bot.web.protocol.WhyFrame`)."""

    card: str


@dataclass(frozen=True, slots=True)
class Again:
    """Play again (:class:`bot.web.protocol.AgainFrame`, local play)."""


Request = Act | LobbyAct | Why | Again
"""What a joined page may ask."""


def decode(msg: WSMessage, max_frame: int) -> dict[str, Any] | None:
    """The frame in ``msg``: a JSON object of this version no larger than ``max_frame``
    bytes (None: anything else)."""
    if msg.type != WSMsgType.TEXT or not isinstance(msg.data, str):
        return None
    if len(msg.data) > max_frame or len(msg.data.encode("utf-8", "surrogatepass")) > max_frame:
        return None
    try:
        frame = json.loads(msg.data)
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's stack
        return None
    if not isinstance(frame, dict) or frame.get("v") != VERSION:
        return None
    return frame


def parse(frame: dict[str, Any]) -> Request | None:
    """The request a joined page's frame makes (None: not one this protocol knows)."""
    kind = frame.get("type")
    if kind == "act":
        version, action = frame.get("version"), frame.get("action")
        if not isinstance(version, int) or isinstance(version, bool):
            return None
        if not isinstance(action, dict):
            return None
        try:
            _, parsed = action_from_json({**action, "seat": 0}, "action")
        except GameError:
            return None
        return Act(version, parsed)
    if kind == "lobby_act":
        do = frame.get("do")
        for known in get_args(LobbyDo):
            if do == known:
                return LobbyAct(known)
    if kind == "why":
        card = text_field(frame, "card", 8)
        return None if card is None else Why(card)
    if kind == "again":
        return Again()
    return None


def text_field(frame: dict[str, Any], key: str, limit: int) -> str | None:
    """``frame[key]`` when it is printable ASCII text of 1 to ``limit`` characters (a key,
    a token, an id: nothing else has a use there); else None."""
    value = frame.get(key)
    if (not isinstance(value, str) or not 0 < len(value) <= limit or not value.isascii()
            or not value.isprintable()):
        return None
    return value

"""What travels between the process that receives a click and the table's owner.

* :class:`ForwardRequest`: what the player asked for, in the table service's terms (the
  same call a local click makes): ``act`` (an action chosen at a table version),
  ``rejoin`` (**I'm back**), or ``panel`` (no change: draw the player's panel, e.g.
  **My hand** or another page of a long hand — only the owner holds the hand).
* :class:`ForwardOutcome`: what became of it. ``message`` is the table service's reason,
  meant for the player (a refusal, a stale choice); the front end words the other
  statuses itself.
* :class:`AnswerCallback`: how the owner answers the player once it applied (or refused)
  a forwarded request: the front end implements it (the Discord adapter edits the panel or
  sends the private refusal through the interaction's webhook token, kept in
  :attr:`Delivery.reply_to`).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, Literal, Protocol, cast, get_args

from bot.i18n.said import Said, SaidError
from storage.models import ForwardedAction, JsonObject

RequestKind = Literal["act", "rejoin", "panel"]
OutcomeStatus = Literal["applied", "refused", "stale", "no_table", "failed", "expired",
                        "timeout"]
"""* ``applied``: done, exactly once.
* ``refused``: the rules or the table's state do not allow it (``message`` says why).
* ``stale``: chosen at a state that has passed (a double click, an old panel, or a
  request applied before the owner restarted and delivered again): nothing changed.
* ``no_table``: the table is closed, or not held by its owner.
* ``failed``: the owner could not store it; nothing changed, the player may try again.
* ``expired``: it waited longer than an interaction lives (the owner was down): not
  applied, so nobody is surprised by a move made long after the click.
* ``timeout``: (only from :class:`~bot.cluster.forwarding.ForwardingClient`) the owner did
  not answer within the wait; the request stays in the inbox and is applied at most once
  when the owner gets to it (its answer then reaches the player through the callback).
"""


class BadRequest(ValueError):
    """A stored request that this code cannot read (written by other code)."""


@dataclass(frozen=True, slots=True)
class ForwardRequest:
    """A player's request for a table another process owns."""

    kind: RequestKind
    table_id: int
    user_id: int
    action: JsonObject | None = None
    """``act``: the action's JSON form, as ``TableService.act`` takes it."""
    version: int | None = None
    """``act``: the table version the action was chosen at."""
    data: JsonObject | None = None
    """Anything else the front end needs to answer (e.g. ``{"page": 2}`` for ``panel``);
    the service never reads it."""

    def __post_init__(self) -> None:
        if self.kind not in get_args(RequestKind):
            raise BadRequest(f"unknown request kind {self.kind!r}")
        if self.kind == "act" and (self.action is None or self.version is None):
            raise BadRequest("an act request needs its action and its table version")

    @staticmethod
    def act(table_id: int, user_id: int, action: JsonObject, version: int) -> ForwardRequest:
        return ForwardRequest("act", table_id, user_id, dict(action), version)

    @staticmethod
    def rejoin(table_id: int, user_id: int) -> ForwardRequest:
        return ForwardRequest("rejoin", table_id, user_id)

    @staticmethod
    def panel(table_id: int, user_id: int, data: JsonObject | None = None) -> ForwardRequest:
        return ForwardRequest("panel", table_id, user_id, data=data)

    def to_json(self) -> JsonObject:
        out: JsonObject = {"kind": self.kind, "table_id": self.table_id,
                           "user_id": self.user_id}
        if self.action is not None:
            out["action"] = self.action
        if self.version is not None:
            out["version"] = self.version
        if self.data is not None:
            out["data"] = self.data
        return out

    @staticmethod
    def from_json(data: JsonObject) -> ForwardRequest:
        try:
            action = data.get("action")
            version = data.get("version")
            extra = data.get("data")
            if action is not None and not isinstance(action, dict):
                raise BadRequest("the action is not an object")
            if extra is not None and not isinstance(extra, dict):
                raise BadRequest("the data is not an object")
            return ForwardRequest(
                kind=data["kind"], table_id=int(data["table_id"]),
                user_id=int(data["user_id"]), action=action,
                version=None if version is None else int(version), data=extra,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BadRequest(f"unreadable forwarded request: {exc}") from None


@dataclass(frozen=True, slots=True)
class ForwardOutcome:
    """What became of a forwarded request."""

    status: OutcomeStatus
    message: str | None = None
    """The reason as an English message id (``N_``-marked) or plain text."""
    version: int | None = None
    """``applied``: the table version after it (None when the match ended with it)."""
    fields: dict[str, str] | None = None
    """The fields of ``message`` when it is a template (the receiver words it in the
    player's language: :meth:`said`)."""
    rule: JsonObject | None = None
    """A refusal of the rules (:class:`bot.service.RuleRefusal`): the engine's template and
    fields as data (``{"template": …, "params": …}``), worded with the table's names by
    the owner's front end; ``message`` is then the engine's English reason."""
    played_deal: int | None = None
    """An ``applied`` ``panel`` request that picked a card (``data`` ``{"pick": …,
    "version": v}``) the owner played before storing this outcome: the index of the deal
    it was played in (the clicked panel's deal). None: nothing was played (a card with
    several variants: the answer offers them as buttons)."""

    @staticmethod
    def refusal(status: OutcomeStatus, exc: SaidError) -> ForwardOutcome:
        """An outcome carrying a service refusal as its template and fields (a refusal of
        the rules also as the engine's template and fields: :attr:`rule`)."""
        fields = {k: str(v) for k, v in exc.said.fields.items()}
        template, params = getattr(exc, "template", None), getattr(exc, "params", None)
        rule: JsonObject | None = None
        if isinstance(template, str) and isinstance(params, dict):
            rule = {"template": template, "params": dict(params)}
        return ForwardOutcome(status, exc.said.message, fields=fields or None, rule=rule)

    def said(self) -> Said:
        """The reason, to be worded for the reader (``said().text(t)``)."""
        return Said.of(self.message or "", **(self.fields or {}))

    def to_json(self) -> JsonObject:
        out: JsonObject = {"status": self.status, "message": self.message,
                           "version": self.version}
        if self.fields:
            out["fields"] = dict(self.fields)
        if self.rule:
            out["rule"] = dict(self.rule)
        if self.played_deal is not None:
            out["played_deal"] = self.played_deal
        return out

    @staticmethod
    def from_json(data: JsonObject | None) -> ForwardOutcome:
        if data is None:
            return ForwardOutcome("failed")
        status = data.get("status")
        if status not in get_args(OutcomeStatus):
            return ForwardOutcome("failed")
        version = data.get("version")
        message = data.get("message")
        fields = data.get("fields")
        rule = data.get("rule")
        played = data.get("played_deal")
        return ForwardOutcome(cast(OutcomeStatus, status),
                              None if message is None else str(message),
                              None if version is None else int(version),
                              {str(k): str(v) for k, v in fields.items()}
                              if isinstance(fields, dict) else None,
                              dict(rule) if isinstance(rule, dict) else None,
                              played if isinstance(played, int) else None)


@dataclass(frozen=True, slots=True)
class Delivery:
    """A forwarded request as its owner sees it."""

    id: int
    request_key: str
    request: ForwardRequest
    reply_to: JsonObject | None
    """The front end's address for the answer (e.g. an interaction's id, application id
    and webhook token), exactly as the receiving process wrote it; erased from the store
    once the request is done."""
    created_at: dt.datetime

    @staticmethod
    def of(entry: ForwardedAction) -> Delivery:
        return Delivery(entry.id, entry.request_key, ForwardRequest.from_json(entry.request),
                        entry.reply_to, entry.created_at)


class AnswerCallback(Protocol):
    """Called by the owner once per forwarded request it completed, after the outcome
    is stored: answer the player (edit their panel when ``applied``, else tell them
    privately). It only draws: whatever the request changes (an action, a picked card,
    a rejoin) was stored before the outcome (:mod:`bot.cluster.inbox`). An exception is
    logged and does not undo anything. Never called for a request another completion
    already answered."""

    async def __call__(self, delivery: Delivery, outcome: ForwardOutcome) -> Any: ...

"""Game records (``docs/records.md``): reading, replaying and writing them.

:func:`replay` is the whole of ``tricktable replay``: it validates a record, plays every
action through the same engine the bot uses, and returns the output object with its exit
status (0 every action accepted, 1 an action was rejected, 2 the record itself is invalid).
A malformed record never produces a traceback: every problem is a
:class:`~games.errors.RecordError` whose message names the deal, the action index and the
field.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypedDict

from games.actions import action_from_json
from games.base import Match
from games.errors import GameError, IllegalAction, OptionError, RecordError, quote
from games.event_types import DealSummary
from games.registry import GAMES, UnknownGame, game_id

FORMAT = "tricktable/1"
_DEAL_KEYS = frozenset({"dealer", "hands", "extra", "actions", "summary"})
_TOP_KEYS = frozenset({"format", "game", "players", "options", "deals", "duplicate"}) | _DEAL_KEYS


class IllegalJSON(TypedDict):
    """The first refused action of a record: its deal and action index, and why."""

    deal: int
    action: int
    reason: str
"""``duplicate``: a duplicate event's tag (``docs/records.md``), read by ``bot.duplicate``;
replay ignores it."""


def _deals_of(record: Mapping[str, Any]) -> list[Any]:
    shorthand = [k for k in ("dealer", "hands", "extra", "actions", "summary") if k in record]
    if "deals" in record:
        if shorthand:
            raise RecordError(
                f"field {shorthand[0]!r}: a record has either 'deals' or a single deal at the "
                "top level, not both"
            )
        deals = record["deals"]
        if not isinstance(deals, list) or not deals:
            raise RecordError("field 'deals': must be a non-empty list of deals")
        return deals
    if not shorthand:
        raise RecordError("the record has no 'deals' (nor a single deal at the top level)")
    return [{k: record[k] for k in shorthand}]


def _at(where: str, exc: RecordError) -> RecordError:
    """Prefix an error with its place: ``deal 2, field 'hands' …`` or ``deal 2: …``."""
    text = str(exc)
    return RecordError(f"{where}, {text}" if text.startswith("field") else f"{where}: {text}")


def open_match(record: Mapping[str, Any]) -> Match:
    """Validate the record's header and create its match (no deal played yet)."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    unknown = sorted(set(record) - _TOP_KEYS)
    if unknown:
        raise RecordError(f"field {quote(unknown[0])}: not a record field")
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"field 'format': {quote(record.get('format'))} is not {FORMAT!r}")
    try:
        game = game_id(record.get("game"))
    except UnknownGame as exc:
        raise RecordError(f"field 'game': {exc}") from None
    players = record.get("players")
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        raise RecordError("field 'players': must be a whole number")
    deals = _deals_of(record)
    first = deals[0] if isinstance(deals[0], Mapping) else {}
    dealer = first.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool):
        raise RecordError("deal 0, field 'dealer': the first deal must name its dealer")
    try:
        return GAMES[game].match_type(record.get("options"), players, dealer)
    except OptionError as exc:
        raise RecordError(f"field 'options': {exc}") from None


def replay(record: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Replay a parsed record; return ``(output, exit_status)`` as ``records.md`` says."""
    try:
        match = open_match(record)
        deals = _deals_of(record)
    except RecordError as exc:
        return {"ok": False, "error": str(exc)}, 2
    summaries: list[DealSummary] = []
    illegal: IllegalJSON | None = None
    try:
        for index, deal_obj in enumerate(deals):
            where = f"deal {index}"
            if not isinstance(deal_obj, Mapping):
                raise RecordError(f"{where}: must be a JSON object")
            if illegal is not None:
                raise RecordError(f"{where}: follows a rejected action (deal "
                                  f"{illegal['deal']}, action {illegal['action']})")
            if match.current is not None and not match.current.is_over:
                raise RecordError(f"{where}: follows a deal that did not finish")
            if match.over:
                raise RecordError(f"{where}: the match was already decided")
            bad = sorted(set(deal_obj) - _DEAL_KEYS)
            if bad:
                raise RecordError(f"{where}, field {quote(bad[0])}: not a deal field")
            dealer = deal_obj.get("dealer")
            if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)):
                raise RecordError(f"{where}, field 'dealer': must be a seat number")
            try:
                if "summary" in deal_obj:
                    if {"hands", "actions", "extra"} & set(deal_obj):
                        raise RecordError("a score-only deal has 'summary' and no hands/actions")
                    summaries.append(match.score_only(deal_obj["summary"], dealer))
                    continue
                if "hands" not in deal_obj:
                    raise RecordError("needs 'hands' (or 'summary' for a score-only deal)")
                extra = deal_obj.get("extra", {})
                if not isinstance(extra, Mapping):
                    raise RecordError("field 'extra': must be a JSON object")
                deal = match.start_deal(deal_obj["hands"], extra, dealer)
            except RecordError as exc:
                raise _at(where, exc) from None
            actions = deal_obj.get("actions", [])
            if not isinstance(actions, list):
                raise RecordError(f"{where}, field 'actions': must be a list")
            for a_index, raw in enumerate(actions):
                seat, action = action_from_json(raw, f"{where}, action {a_index}")
                try:
                    deal.apply(seat, action)
                except IllegalAction as exc:
                    illegal = {"deal": index, "action": a_index, "reason": exc.reason}
                    break
            if deal.is_over:
                # A deal complete before a rejected action counts fully (records.md).
                summaries.append(match.finish_deal())
            else:
                summaries.append(deal.summary())
    except RecordError as exc:
        return {"ok": False, "error": str(exc)}, 2
    except GameError as exc:  # pragma: no cover - every game error is one of the above
        return {"ok": False, "error": str(exc)}, 2
    out = {"ok": illegal is None, "illegal": illegal, "deals": summaries, "match": match.summary()}
    return out, 0 if illegal is None else 1


def load_json(text: str) -> Any:
    """Parse JSON text written by someone else (a record file, a league report, table
    options); raise :class:`RecordError` with one short line for anything the parser
    refuses: bad syntax (with its place), nesting deeper than Python's parser follows
    (about 1,000 levels), a number too long to read."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc.msg} at line {exc.lineno}, "
                          f"column {exc.colno}") from None
    except RecursionError:
        raise RecordError("the JSON is nested too deeply") from None
    except ValueError:  # int() refuses numbers over sys.get_int_max_str_digits() digits
        raise RecordError("the JSON holds a number too long to read (thousands of digits)"
                          ) from None


def replay_text(text: str) -> tuple[dict[str, Any], int]:
    """Replay a record given as JSON text (invalid JSON: status 2 with the parser's place)."""
    try:
        record = load_json(text)
    except RecordError as exc:
        return {"ok": False, "error": str(exc)}, 2
    return replay(record)

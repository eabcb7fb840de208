"""Duplicate boards as game records: the ``duplicate`` tag and reading a folder of them.

A record of one entrant's play of one board carries a top-level ``duplicate`` object
(``docs/records.md``), which ``tricktable replay`` ignores::

    "duplicate": {"event": "12", "board": 3, "boards": 12, "entrant": "Ann & Bo",
                  "direction": 0, "scoring": "matchpoints"}

``board`` is 1-based, ``boards`` the event's board count, ``direction`` the side index the
entrant held (``GAMES[game].teams``), ``scoring`` ``matchpoints`` or ``imps``. The board is
the record's deals up to the first one that is not an automatic redeal (Truf's misdeal);
it is finished when that deal is over. :func:`read_folder` and the bot build
:class:`~bot.duplicate.scoring.BoardResult` values the same way (:func:`board_result`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.duplicate.scoring import METHODS, BoardResult, Method, result_from_summary
from games.errors import RecordError
from games.records import load_json, open_match, replay
from games.registry import GAMES


@dataclass(frozen=True)
class Tag:
    """The ``duplicate`` object of a record."""

    event: str
    board: int
    boards: int
    entrant: str
    direction: int
    scoring: Method = "matchpoints"

    def to_json(self) -> dict[str, Any]:
        return {"event": self.event, "board": self.board, "boards": self.boards,
                "entrant": self.entrant, "direction": self.direction,
                "scoring": self.scoring}

    @classmethod
    def from_json(cls, raw: Any) -> Tag:
        """Read a tag; raise :class:`RecordError` naming the bad field."""
        if not isinstance(raw, Mapping):
            raise RecordError("field 'duplicate': must be a JSON object")

        def whole(name: str, low: int) -> int:
            value = raw.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise RecordError(f"field 'duplicate.{name}': must be a whole number "
                                  f"of at least {low}")
            return value

        def text(name: str) -> str:
            value = raw.get(name)
            if not isinstance(value, str) or not value.strip():
                raise RecordError(f"field 'duplicate.{name}': must be a non-empty text")
            return value

        scoring = raw.get("scoring", "matchpoints")
        if scoring not in METHODS:
            raise RecordError("field 'duplicate.scoring': must be 'matchpoints' or 'imps'")
        board, boards = whole("board", 1), whole("boards", 1)
        if board > boards:
            raise RecordError("field 'duplicate.board': is over 'duplicate.boards'")
        return cls(text("event"), board, boards, text("entrant"), whole("direction", 0),
                   scoring)


def tagged(record: Mapping[str, Any], tag: Tag) -> dict[str, Any]:
    """A copy of ``record`` with ``tag`` as its ``duplicate`` object."""
    return {**record, "duplicate": tag.to_json()}


def board_result(record: Mapping[str, Any], tag: Tag) -> BoardResult:
    """The result of one board from its record (raise :class:`RecordError` when the record
    is invalid, refused, of another direction count, or holds more than one board)."""
    out, status = replay(record)
    if status == 2:
        raise RecordError(str(out["error"]))
    if status == 1:
        illegal = out["illegal"]
        raise RecordError(f"deal {illegal['deal']}, action {illegal['action']} is refused: "
                          f"{illegal['reason']}")
    match = open_match(record)
    game = match.game
    sides = GAMES[game].teams(match.players, match.options)
    if tag.direction >= len(sides):
        raise RecordError(f"field 'duplicate.direction': {game} has {len(sides)} directions")
    summaries: Sequence[Mapping[str, Any]] = out["deals"]
    board = _board_deals(summaries)
    last = summaries[board - 1]
    if not last.get("hand_over") or last.get("redeal"):
        return BoardResult(tag.board, tag.direction, tag.entrant, finished=False)
    return result_from_summary(game, last, sides, board=tag.board, direction=tag.direction,
                               entrant=tag.entrant)


def _board_deals(summaries: Sequence[Mapping[str, Any]]) -> int:
    """How many deals make the board: up to the first that is not a redeal."""
    for i, s in enumerate(summaries):
        if not s.get("redeal"):
            if i + 1 < len(summaries):
                raise RecordError("a board is one deal: the record goes on after it")
            return i + 1
    return len(summaries)


@dataclass(frozen=True)
class Folder:
    """The boards of one event read from a folder of records."""

    game: str
    event: str
    boards: int
    scoring: Method
    results: tuple[BoardResult, ...]
    records: Mapping[tuple[str, int], Mapping[str, Any]]


class FolderError(Exception):
    """A folder that is not one event's records: the message names the file."""


def read_folder(path: str) -> Folder:
    """Read every ``*.json`` record of ``path`` (sorted by name) as one event."""
    try:
        names = sorted(n for n in os.listdir(path) if n.endswith(".json"))
    except OSError as exc:
        raise FolderError(f"cannot read {path}: {exc.strerror}") from None
    if not names:
        raise FolderError(f"{path} holds no record (*.json)")
    results: list[BoardResult] = []
    records: dict[tuple[str, int], Mapping[str, Any]] = {}
    first: tuple[str, str, int, Method] | None = None
    for name in names:
        try:
            with open(os.path.join(path, name), encoding="utf-8") as fh:
                record = load_json(fh.read())
            if not isinstance(record, Mapping) or "duplicate" not in record:
                raise RecordError("no 'duplicate' field: not a duplicate board's record")
            tag = Tag.from_json(record["duplicate"])
            game = open_match(record).game
            key = (game, tag.event, tag.boards, tag.scoring)
            if first is None:
                first = key
            elif key != first:
                raise RecordError("another event's record (game, event, boards or scoring "
                                  "differ from the first file's)")
            if (tag.entrant, tag.board) in records:
                raise RecordError(f"a second record of {tag.entrant} on board {tag.board}")
            results.append(board_result(record, tag))
            records[(tag.entrant, tag.board)] = record
        except (OSError, UnicodeDecodeError) as exc:
            raise FolderError(f"{name}: cannot read it ({exc})") from None
        except RecordError as exc:
            raise FolderError(f"{name}: {exc}") from None
    assert first is not None
    game, event, boards, scoring = first
    return Folder(game, event, boards, scoring, tuple(results), records)


def write_record(path: str, record: Mapping[str, Any]) -> None:
    """Write one record as UTF-8 JSON."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record, fh, ensure_ascii=False)

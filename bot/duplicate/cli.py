"""``tricktable duplicate score DIR``: score a duplicate event from a folder of records.

The records are those an event writes (``docs/duplicate.md``), each tagged with its event,
board, entrant and direction (``docs/records.md``). The scoring is
:func:`bot.duplicate.scoring.score_event`, the same as the bot's. Exit status 0, or 2 for
a folder that is not one event's records (one line on standard error naming the file).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.cli_lang import Words
    from bot.duplicate.scoring import EventScore


def score_json(score: EventScore) -> dict[str, Any]:
    """The ``--json`` object: the ranking and the travellers, numbers as floats."""
    return {
        "method": score.method,
        "boards": score.boards,
        "ranking": [{"rank": r.rank, "entrant": r.entrant, "total": float(r.total),
                     "finished": r.finished,
                     "boards": [{"board": b.board, "value": float(b.value),
                                 "finished": b.finished} for b in r.boards]}
                    for r in score.ranking],
        "travellers": [{"board": t.board, "results": [
            {"entrant": s.result.entrant, "direction": s.result.direction,
             "score": float(s.result.score), "mp": s.mp, "top": s.top,
             "percent": float(s.percent), "imps": s.imps,
             "detail": dict(s.result.detail)} for s in t.rows]}
            for t in score.travellers],
    }


def cmd_score(args: argparse.Namespace) -> int:
    """Run ``tricktable duplicate score``."""
    from bot.duplicate.records import FolderError, read_folder
    from bot.duplicate.scoring import score_event

    try:
        folder = read_folder(args.folder)
    except FolderError as exc:
        print(f"tricktable duplicate score: {exc}", file=sys.stderr)
        return 2
    score = score_event(folder.results, folder.boards, folder.scoring)
    if args.json:
        print(json.dumps({"game": folder.game, "event": folder.event, **score_json(score)},
                         ensure_ascii=False))
        return 0
    from bot.cli_lang import translator_for
    from bot.duplicate.text import event_text

    t = translator_for(args, "duplicate score")
    if t is None:
        return 2
    print(event_text(folder.game, score, t))
    return 0


def add_parser(sub: Any, t: Words | None = None) -> None:
    """Register ``duplicate`` (with its ``score`` action) on argparse subparsers."""
    from bot.cli_lang import ENGLISH, add_lang_argument

    t = t or ENGLISH
    _ = t.gettext
    p = sub.add_parser("duplicate", help=_("duplicate events: score a folder of records"))
    actions = p.add_subparsers(dest="duplicate_command", required=True, metavar="ACTION")
    p = actions.add_parser("score", help=_("print the ranking and travellers of a duplicate "
                                           "event from its records"))
    p.add_argument("folder", help=_("a folder of the event's records (*.json)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_lang_argument(p, t)
    p.set_defaults(handler=cmd_score)

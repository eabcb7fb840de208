"""Every random playout and AI rollout of the engine stays small enough to read: McCabe
complexity at most :data:`LIMIT` (issue 37), measured by ruff's C901 — the rule the
project's linter applies — so the playouts play by each game's one legality rule instead
of restating it branch by branch."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 14
PLAYOUT_NAME = re.compile(r"playout|rollout|random|world_(step|finish|card)")
"""Names of the playout functions and their helpers (``random_playout``,
``playout_tricks``, ``play_random_tricks``, ``rollout``, ``world_step``, …)."""
MESSAGE = re.compile(r"`(?P<name>[^`]+)` is too complex \((?P<score>\d+) > 0\)")


def complexities() -> dict[str, int]:
    """``{"path:function": complexity}`` of every function in ``games/`` (ruff C901 with a
    limit of 0 reports them all, with their score)."""
    out = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--select", "C901",
         "--config", "lint.mccabe.max-complexity=0", "--output-format", "json", "games"],
        cwd=ROOT, capture_output=True, text=True, check=False)
    found: dict[str, int] = {}
    for item in json.loads(out.stdout):
        m = MESSAGE.fullmatch(item["message"])
        assert m, item["message"]
        path = Path(item["filename"]).relative_to(ROOT).as_posix()
        key = f"{path}:{m['name']}"
        found[key] = max(found.get(key, 0), int(m["score"]))
    return found


def test_every_playout_is_under_the_complexity_limit() -> None:
    scores = complexities()
    playouts = {k: v for k, v in scores.items() if PLAYOUT_NAME.search(k.split(":")[1])}
    # the pattern finds the playouts it is meant to guard
    for name in ("games/tarabish.py:random_playout", "games/truf.py:play_random_tricks",
                 "games/plain_tricks.py:playout_tricks", "games/albastini.py:random_playout",
                 "games/ai/plain.py:rollout", "games/ai/tarabish.py:world_step"):
        assert name in playouts
    assert {k: v for k, v in playouts.items() if v > LIMIT} == {}

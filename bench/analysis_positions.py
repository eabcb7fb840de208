"""Find the positions of ``tests/games/test_ai_analysis.py`` (run once; its output is
``tests/games/data/analysis_positions.json``).

From seeded deals of ``rules`` players (``tricktable simulate GAME --players rules,...
--records DIR``), every card decision from the middle of the deal on is played out with
every hand in view (each legal card, then the search's playout policy in the real deal:
no guessing). A position is kept when one card wins at least the game's mistake
threshold more than another (:data:`games.ai.analysis.THRESHOLDS`) — a trick, a
contract or the deal decided by the card — and the analysis from the seat's view alone
(:func:`games.ai.analysis.analyse_deal`) names the winning card best and labels the
losing one a mistake or a blunder. Each kept position is written as a record cut after
the losing card, with the winning card and the real-deal values beside it.

    python bench/analysis_positions.py /tmp/records/* > tests/games/data/analysis_positions.json
"""

from __future__ import annotations

import glob
import json
import random
import sys
from typing import Any

from games.actions import action_from_json
from games.ai.analysis import THRESHOLDS, analyse_deal
from games.ai.registry import adapter_for
from games.records import open_match

PER_GAME = 4


def positions(path: str) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as fh:
        record = json.load(fh)
    game = record["game"]
    ai = adapter_for(game)
    match = open_match(record)
    deal_obj = record["deals"][0]
    deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra", {}), deal_obj["dealer"])
    actions = deal_obj["actions"]
    n_play = sum(1 for a in actions if a["type"] == "play")
    seen_play = 0
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(actions):
        seat, action = action_from_json(raw, "x")
        if action.type == "play":
            seen_play += 1
        legal = [a for a in deal.legal_actions(seat) if a.type == "play"]
        cards = sorted({a.card for a in legal if a.card})
        if action.type == "play" and len(cards) >= 2 and seen_play > n_play // 2:
            vals = {}
            for c in cards:
                x = ai.clone(deal)
                ai.step(x, seat, next(a for a in legal if a.card == c))
                vals[c] = ai.rollout(x, seat, random.Random(0))
            good = max(cards, key=lambda c: vals[c])
            bad = min(cards, key=lambda c: vals[c])
            if vals[good] - vals[bad] >= THRESHOLDS[game][1]:
                cut = dict(record)
                bad_action = next(a for a in legal if a.card == bad)
                cut["deals"] = [{**deal_obj, "actions": [*actions[:i],
                                                         bad_action.to_json(seat)]}]
                a = analyse_deal(cut, seat)
                last = a.decisions[-1]
                if (last.index == i and last.best.action.card == good
                        and last.label in ("mistake", "blunder")):
                    out.append({"game": game, "seat": seat, "index": i, "record": cut,
                                "good": good, "bad": bad, "real_good": vals[good],
                                "real_bad": vals[bad], "loss": last.loss})
                    return out
        deal.apply(seat, action)
    return out


def main(paths: list[str]) -> None:
    found: dict[str, list[dict[str, Any]]] = {}
    seen: set[str] = set()
    for path in paths:
        for p in positions(path):
            key = json.dumps([p["record"]["deals"][0]["hands"], p["index"]])
            lst = found.setdefault(p["game"], [])
            if len(lst) < PER_GAME and key not in seen:
                seen.add(key)
                lst.append(p)
    print(json.dumps([p for lst in found.values() for p in lst]))


if __name__ == "__main__":
    main(sorted(f for arg in sys.argv[1:] for f in glob.glob(arg)))

"""Where ``search`` wins and loses Tarabish boards against ``rules``: the auction or the play.

    tricktable simulate tarabish --players search,rules --deals 500 --seed 7 \\
        --budget-ms 0 --samples 32 --jobs 2 --records DIR
    python bench/tarabish_boards.py DIR

Reads the records of a duplicate run (every board played twice, each level holding each
side's cards once; the file names say the board, the rotation and which level sat where)
and scores every board as :mod:`bot.simulate` does — each level's hand scores summed over
its two plays, then its raw card points, 1 for the better, ½ each for a tie. Boards are
grouped by where the two plays first part:

* **same auction** — both plays were bid alike (the same calls and passes by the same
  seats), so the card play made the difference;
* otherwise by the first bid that differs: the seat held by ``search`` in one play and by
  ``rules`` in the other did differently (``search`` called where ``rules`` passed, passed
  where it called, or called another suit); then each of those again by the bidder's
  place in the auction.

For each group: the boards, ``search``'s duplicate score, its mean lead in hand points per
board (both plays together) and the boards it lost (ties count ½).

A second table splits the boards bid alike by which calling side went bait (scored
nothing: its opponents took the hand) — ``search``'s side at one table, ``rules``' at the
other, both or neither. In a board bid alike each level is the calling side at one table
and the defence at the other, so the board compares ``search`` calling against ``rules``
defending with ``rules`` calling against ``search`` defending: its result cannot be split
into attack and defence, but a bait shows which table's play broke the hand.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.records import replay

NAME = re.compile(r"tarabish-b(\d+)-r([01])-(\w+)-(\w+)\.json")
"""A record of ``tricktable simulate --records``: board, rotation, the two sides' levels."""

Play = tuple[list[int], list[int], list[tuple[int, str]], int]
"""One play: hand score and raw points per side, the auction as (seat, suit or
``pass``), and the side ``search`` held."""


def read_play(path: Path) -> Play:
    """A record's scores, auction and ``search`` side."""
    found = NAME.fullmatch(path.name)
    assert found is not None
    levels = found.group(3), found.group(4)
    record = json.loads(path.read_text(encoding="utf-8"))
    out, status = replay(record)
    if status != 0:
        raise SystemExit(f"{path}: the record does not replay ({out})")
    summary = out["deals"][0]
    auction = [(a["seat"], a.get("suit") or "pass") for a in record["deals"][0]["actions"]
               if a["type"] in ("pass", "call_trump")]
    return summary["hand_score"], summary["raw_points_by_team"], auction, levels.index("search")


def group_of(a: Play, b: Play) -> str:
    """Where plays ``a`` and ``b`` of one board first part (module docstring)."""
    if a[2] == b[2]:
        return "same auction"
    i = next(k for k in range(min(len(a[2]), len(b[2]))) if a[2][k] != b[2][k])
    seat = a[2][i][0]
    mine, theirs = (a, b) if seat % 2 == a[3] else (b, a)
    s_bid, r_bid = mine[2][i][1], theirs[2][i][1]
    what = ("search called, rules passed" if r_bid == "pass" else
            "search passed, rules called" if s_bid == "pass" else "other suits")
    return f"{what} (bidder {i + 1} of 4)"


def board_result(a: Play, b: Play) -> tuple[float, int]:
    """``search``'s matchpoints on the board and its lead in hand points."""
    mine = (a[0][a[3]] + b[0][b[3]], a[1][a[3]] + b[1][b[3]])
    theirs = (a[0][1 - a[3]] + b[0][1 - b[3]], a[1][1 - a[3]] + b[1][1 - b[3]])
    points = 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return points, mine[0] - theirs[0]


def baited_side(a: Play, b: Play) -> str:
    """For a board bid alike: which level's calling side went bait (module docstring)."""
    calls = [seat for seat, bid in a[2] if bid != "pass"]
    if not calls:  # all passed (``dealer_may_pass``): no hand was played
        return "no call"
    side = calls[-1] % 2
    mine, theirs = (a, b) if a[3] == side else (b, a)
    went = mine[0][side] == 0, theirs[0][side] == 0
    return {(False, False): "neither", (True, False): "search's side only",
            (False, True): "rules' side only", (True, True): "both"}[went]


def table(groups: dict[str, list[tuple[float, int]]], first: str) -> None:
    """Print one table of groups (``first`` names the first column)."""
    print(f"| {first} | count | search's duplicate score | search's lead per board | "
          "boards search lost |\n|---|---:|---:|---:|---:|")
    for name in sorted(groups, key=lambda g: (g != "all boards", g != "same auction",
                                              "(" in g, g)):
        rows = groups[name]
        score = sum(p for p, _ in rows)
        print(f"| {name} | {len(rows)} | {score / len(rows) * 100:.1f}% | "
              f"{sum(d for _, d in rows) / len(rows):+.1f} | {len(rows) - score:g} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("records", help="the --records directory of a search,rules run")
    args = parser.parse_args()
    boards: dict[int, dict[int, Play]] = defaultdict(dict)
    for path in sorted(Path(args.records).glob("tarabish-b*-r*-*.json")):
        found = NAME.fullmatch(path.name)
        if found is None or {found.group(3), found.group(4)} != {"search", "rules"}:
            continue
        boards[int(found.group(1))][int(found.group(2))] = read_play(path)
    groups: dict[str, list[tuple[float, int]]] = defaultdict(list)
    baits: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for plays in boards.values():
        if len(plays) == 2:
            result = board_result(plays[0], plays[1])
            detail = group_of(plays[0], plays[1])
            groups["all boards"].append(result)
            groups[detail.split(" (")[0]].append(result)
            if detail != "same auction":
                groups[detail].append(result)
            else:
                baits[baited_side(plays[0], plays[1])].append(result)
    table(groups, "boards")
    print()
    table(baits, "boards bid alike: bait")


if __name__ == "__main__":
    main()

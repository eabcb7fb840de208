"""Decision quality of ``search`` in Tarabish, position by position.

    python bench/ai_decisions.py [--positions 3000] [--worlds 32] [--seed p1]
                                 [--save FILE] [--against FILE]

Whole deals (:mod:`bench.ai`) judge a player by its results, which the luck of the cards
and the spread of Tarabish scores make noisy: 300 deals leave about ±5 points on the
duplicate score. This bench judges single decisions instead. Positions come from deals
played by four ``rules`` players (every auction decision, and 30% of the card plays
with a choice, runs declarations left out); in each, every candidate action is played
out once in the real deal by the rollout policy (what ``oracle`` sees), which gives each
choice its value there. ``search`` (with ``--worlds`` worlds, no time limit) then chooses
from the player's view alone, and the table gives its mean gain per decision over the
``rules`` choice by kind of decision (the auction, leads, following), with its 95%
interval, and each player's regret: the best candidate's value minus his choice's (what
seeing the deal would have added) — the same positions for every run, so
two versions of the search can be compared position by position: ``--save`` writes each
position's gain to a JSON file, and ``--against`` a file saved by another version prints
this version's mean difference from it with its 95% interval (paired by position).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.actions import Action
from games.ai import Budget, make_player
from games.ai.adapter import GameAI
from games.ai.registry import adapter_for
from games.base import Deal
from games.registry import GAMES

PLAY_SHARE = 0.3
"""The share of card plays with a choice taken as positions (every auction decision is)."""

Position = tuple[dict[str, Any], list[Action], dict[Action, float]]


def value_in_deal(ai: GameAI, deal: Deal, seat: int, action: Action) -> float:
    """What ``action`` by ``seat`` is worth in the real ``deal``: played out once from a
    copy by ``ai``'s rollout policy (the value a ``search`` playout gives, as ``oracle``
    sees it)."""
    world = ai.clone(deal)
    ai.step(world, seat, action)
    return ai.rollout(world, seat, random.Random(0))


def positions(count: int, seed: str) -> list[Position]:
    """``count`` positions with each candidate's value in the real deal."""
    info = GAMES["tarabish"]
    ai = adapter_for("tarabish")
    rng = random.Random(seed)
    out: list[Position] = []
    deal_no = 0
    while len(out) < count:
        deal_no += 1
        deal = info.match_type(None, 4, deal_no % 4, seed=f"{seed}:{deal_no}").start_deal()
        movers = [make_player("rules", seed=s) for s in range(4)]
        while not deal.is_over and len(out) < count:
            seat = deal.to_act[0]
            legal = deal.legal_actions(seat)
            view = deal.view(seat)
            real = [a for a in legal if a.type != "concede"]
            if (len(real) > 1 and not any(a.type == "declare_runs" for a in legal)
                    and (view["phase"] == "auction" or rng.random() < PLAY_SHARE)):
                values = {a: value_in_deal(ai, deal, seat, a)
                          for a in ai.candidates(view, legal, {})}
                if len(set(values.values())) > 1:
                    out.append((view, legal, values))
            deal.apply(seat, movers[seat].choose(view, legal))
    return out


def kind(view: dict[str, Any]) -> str:
    """A position's row in the table: ``auction``, ``lead`` or ``follow``."""
    if view["phase"] == "auction":
        return "auction"
    return "follow" if (view.get("trick") or {}).get("cards") else "lead"


def gains(pos: list[Position], worlds: int) -> dict[str, list[tuple[float, float]]]:
    """Per kind of decision (:func:`kind`): for each position, the value of ``search``'s
    choice minus the ``rules`` choice's, and the best candidate's value minus
    ``search``'s (what seeing the deal would have added: the regret)."""
    player = make_player("search", seed=7)
    out: dict[str, list[tuple[float, float]]] = {"auction": [], "lead": [], "follow": []}
    for view, legal, values in pos:
        chosen = player.choose(view, legal, Budget.samples(worlds))
        if chosen.type == "play" and chosen.card:
            chosen = Action.play(chosen.card)  # bella rides on the card
        rules_choice = next(iter(values))  # candidates list the rules choice first
        out[kind(view)].append((values[chosen] - values[rules_choice],
                                max(values.values()) - values[chosen]))
    return out


def by_phase(found: dict[str, list[tuple[float, float]]]) -> dict[str, list[float]]:
    """The gains over ``rules`` per phase (``auction``, ``play``: leads then following),
    as ``--save`` writes them and ``--against`` pairs them."""
    return {"auction": [g for g, _ in found["auction"]],
            "play": [g for g, _ in found["lead"] + found["follow"]]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--worlds", type=int, default=32)
    parser.add_argument("--seed", default="p1")
    parser.add_argument("--save", default=None, help="write each position's gain here")
    parser.add_argument("--against", default=None,
                        help="compare position by position with gains saved by --save")
    args = parser.parse_args()
    pos = positions(args.positions, args.seed)
    found = gains(pos, args.worlds)
    print("| decisions | count | search's gain over rules per decision (95% CI) | "
          "decisions whose value it changed | regret: search / rules |\n"
          "|---|---:|---|---:|---|")
    rows = {**found, "play (all)": found["lead"] + found["follow"]}
    for name, pairs in rows.items():
        if len(pairs) < 2:
            continue
        xs = [g for g, _ in pairs]
        mean, half = mean_and_half(xs)
        changed = sum(1 for x in xs if x) / len(xs)
        regret = sum(r for _, r in pairs) / len(pairs)
        print(f"| {name} | {len(xs)} | {mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})"
              f" | {changed * 100:.1f}% | {regret:.2f} / {regret + mean:.2f} |")
    phases = by_phase(found)
    if args.save:
        Path(args.save).write_text(json.dumps(phases), encoding="utf-8")
    if args.against:
        other = json.loads(Path(args.against).read_text(encoding="utf-8"))
        for phase, xs in phases.items():
            if len(xs) >= 2 and len(other.get(phase, [])) == len(xs):
                mean, half = mean_and_half([x - y for x, y in zip(xs, other[phase],
                                                                    strict=True)])
                print(f"{phase}: {mean:+.2f} (±{half:.2f}) per decision against "
                      f"{args.against}")


def mean_and_half(xs: list[float]) -> tuple[float, float]:
    """The mean of ``xs`` and the half-width of its 95% interval."""
    n = len(xs)
    mean = sum(xs) / n
    return mean, 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)


if __name__ == "__main__":
    main()

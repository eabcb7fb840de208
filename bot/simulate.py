"""``tricktable simulate``: AI players against each other on duplicate deals.

Each *board* (a deal, or a whole match with ``--matches``) is played once per rotation of
the players over the sides: with two sides every board is played twice with the sides
swapped, with ``k`` sides (Albastini for 3, 5, 6 players, Truf's four individuals) ``k``
times, each player taking every side once. The same seed gives the same cards, so the luck
of the deal cancels out.

Players are given per side (partnership games: one level per team, ``search,random``;
individual games: one per seat). Results are per player entry:

* **duplicate score** (deals won on duplicate): every board is scored as in duplicate
  bridge's matchpoints. Each entry's result on the board is its side scores summed over
  the board's plays (then :func:`games.ai.results.side_tiebreaks` summed); against every
  other entry it gets 1 for a better result and ½ for an equal one (divided by the number
  of other entries). Each entry held every side's cards once, so this is the measure in
  which the luck of the deal cancels out; the strength targets use it. ``boards_won`` is
  the share of boards it won outright against every other entry;
* **plays won**: the share of single plays its side won outright (luck included);
* both with 95% Wilson intervals; its mean score (95% interval over boards) and move times
  (every decision with more than one legal action by a non-random player).

Deal scores are :func:`games.ai.results.side_scores`; a match is won by ``match.winner``
and scored by its totals (boards of matches compare the totals only).

The ``--json`` object: ``game``, ``mode`` (``deals`` or ``matches``), ``deals`` (distinct
deals; with ``--matches``, the deals played in all the matches), ``matches``, ``plays``,
``players`` (one level per side), ``sees_all`` (per entry: an ``oracle``, which is
shown every hand), ``win_rate`` and ``ci95`` (plays won, per player entry),
``duplicate_score`` and ``duplicate_ci95`` (per player entry), ``boards_won``,
``mean_score`` and ``mean_score_ci95``, ``mean_score_diff`` (two sides: first minus second,
with ``mean_score_diff_ci95``; more sides: each entry's score minus the others' mean) and
``rank`` (more than two sides), ``move_ms`` (``p50``, ``p95``, ``max``) and
``move_ms_by_level``, ``budget``, ``options``, ``player_count``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.ai import ALL_LEVELS, DEFAULT_BUDGET, Budget, OraclePlayer, Player, make_player
from games.ai.players import ShownTheDeal
from games.ai.results import deal_winner, side_scores, side_tiebreaks
from games.base import Deal, Match
from games.errors import GameError
from games.registry import GAMES

if TYPE_CHECKING:
    from bot.cli_lang import Words
    from bot.i18n import Translator


@dataclass(frozen=True)
class SimConfig:
    """One simulation: ``boards`` deals (or matches when ``matches``), played on
    duplicate by ``levels`` (one per side)."""

    game: str
    levels: tuple[str, ...]
    boards: int
    matches: bool = False
    options: Mapping[str, Any] = field(default_factory=dict)
    players: int | None = None
    seed: int = 0
    budget: Budget = DEFAULT_BUDGET
    records: str | None = None
    jobs: int = 1
    make: Callable[..., Player] = make_player
    """How a level's player is made (:func:`games.ai.make_player`'s signature): a bench
    may make measurement players of its own; with ``jobs`` above 1 it must be a
    module-level function (it is pickled to the worker processes)."""


@dataclass
class PlayResult:
    """One play of one board: the sides' scores and winner, in player-entry order."""

    board: int
    rotation: int
    scores: list[float]
    winner: int | None
    move_ms: dict[str, list[float]]
    deals: int = 1
    tiebreaks: list[float] = field(default_factory=list)


def sides_of(cfg: SimConfig) -> list[tuple[int, ...]]:
    info = GAMES[cfg.game]
    match = info.match_type(dict(cfg.options), cfg.players, 0)
    return [tuple(s) for s in info.teams(match.players, match.options)]


def _play_deal(deal: Deal, seat_players: Sequence[Any], budget: Budget,
               times: dict[str, list[float]]) -> None:
    while not deal.is_over:
        for seat in deal.to_act:
            legal = deal.legal_actions(seat)
            if not legal:
                continue
            player = seat_players[seat]
            if isinstance(player, ShownTheDeal):  # measurement only: the oracle (or a
                player.see(deal)  # bench's partly sighted player) is shown the deal
            t0 = time.perf_counter()
            action = player.choose(deal.view(seat), legal, budget)
            dt = (time.perf_counter() - t0) * 1000.0
            if len(legal) > 1 and player.level != "random":
                times.setdefault(player.level, []).append(dt)
            deal.apply(seat, action)


def play_board(cfg: SimConfig, board: int) -> list[PlayResult]:
    """Every rotation of one board."""
    info = GAMES[cfg.game]
    sides = sides_of(cfg)
    k = len(sides)
    out: list[PlayResult] = []
    board_seed = f"{cfg.seed}:{board}"
    for rot in range(k):
        entry_of_side = [(i + rot) % k for i in range(k)]  # side i is played by entry ...
        match = info.match_type(dict(cfg.options), cfg.players, 0, seed=board_seed)
        seat_players: list[Any] = [None] * match.players
        for i, side in enumerate(sides):
            for seat in side:
                level = cfg.levels[entry_of_side[i]]
                seat_players[seat] = cfg.make(level, seed=f"{board_seed}:{rot}:{seat}",
                                              options=cfg.options)
        times: dict[str, list[float]] = {}
        if cfg.matches:
            side_score, win_side = _play_match(match, seat_players, cfg, times)
            side_tb = [0.0] * k
            deals = len(match.deal_summaries)
        else:
            deals = 1
            side_score, side_tb, win_side = _play_one_deal(match, seat_players, cfg, times,
                                                           sides)
        scores = [0.0] * k
        tiebreaks = [0.0] * k
        for i in range(k):
            scores[entry_of_side[i]] = side_score[i]
            tiebreaks[entry_of_side[i]] = side_tb[i]
        winner = None if win_side is None else entry_of_side[win_side]
        if cfg.records:
            levels = "-".join(cfg.levels[entry_of_side[i]] for i in range(k))
            path = os.path.join(cfg.records, f"{cfg.game}-b{board:05d}-r{rot}-{levels}.json")
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(match.record(), fh, ensure_ascii=False)
        out.append(PlayResult(board, rot, scores, winner, times, deals, tiebreaks))
    return out


def _play_one_deal(match: Match, seat_players: Sequence[Any], cfg: SimConfig,
                   times: dict[str, list[float]],
                   sides: Sequence[Sequence[int]]
                   ) -> tuple[list[float], list[float], int | None]:
    for _ in range(100):  # a void deal (Truf misdeal, all pass in Tarabish) is redealt
        deal = match.start_deal()
        _play_deal(deal, seat_players, cfg.budget, times)
        summary = match.finish_deal()
        if not (summary.get("redeal") or summary.get("hand_void")) or match.over:
            break
    scores = side_scores(cfg.game, summary, sides)
    return scores, side_tiebreaks(cfg.game, summary, sides), deal_winner(scores)


def _play_match(match: Match, seat_players: Sequence[Any], cfg: SimConfig,
                times: dict[str, list[float]]) -> tuple[list[float], int | None]:
    for _ in range(10_000):
        if match.over:
            break
        deal = match.start_deal()
        _play_deal(deal, seat_players, cfg.budget, times)
        match.finish_deal()
    totals = [float(x) for x in match.totals]
    return totals, match.winner


# -- statistics ------------------------------------------------------------------------------
def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))


def mean_ci(values: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its 95% normal interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    m = sum(values) / n
    if n == 1:
        return (m, m, m)
    var = sum((x - m) ** 2 for x in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[i]


def board_totals(plays: Sequence[PlayResult], k: int) -> list[tuple[float, float]]:
    """Each player entry's result on one board over all its plays: its side scores summed,
    then its tiebreaks summed (compared in that order)."""
    return [(sum(p.scores[j] for p in plays),
             sum(p.tiebreaks[j] if p.tiebreaks else 0.0 for p in plays)) for j in range(k)]


def matchpoints(totals: Sequence[tuple[float, float]]) -> list[float]:
    """Duplicate (matchpoint) scoring of one board: each entry gets 1 for every other entry
    it did better than and ½ for every one it tied with, divided by ``k - 1`` (so a
    two-entry board gives 1 / 0 or ½ / ½)."""
    k = len(totals)
    return [sum(1.0 if totals[j] > totals[i] else 0.5 if totals[j] == totals[i] else 0.0
                for i in range(k) if i != j) / (k - 1) for j in range(k)]


def summarize(cfg: SimConfig, plays: Sequence[PlayResult]) -> dict[str, Any]:
    """The result object (the ``--json`` output)."""
    k = len(cfg.levels)
    n = len(plays)
    wins = [sum(1 for p in plays if p.winner == j) for j in range(k)]
    boards: dict[int, list[PlayResult]] = {}
    for p in plays:
        boards.setdefault(p.board, []).append(p)
    per_board_scores = [[sum(p.scores[j] for p in ps) / len(ps) for ps in boards.values()]
                        for j in range(k)]
    all_ms: list[float] = []
    by_level: dict[str, list[float]] = {}
    for p in plays:
        for level, ms in p.move_ms.items():
            all_ms.extend(ms)
            by_level.setdefault(level, []).extend(ms)
    all_ms.sort()
    out: dict[str, Any] = {
        "game": cfg.game,
        "mode": "matches" if cfg.matches else "deals",
        "deals": len(boards) if not cfg.matches else sum(p.deals for p in plays),
        "plays": n,
        "players": list(cfg.levels),
        "sees_all": [level == OraclePlayer.level for level in cfg.levels],
        "player_count": sum(len(s) for s in sides_of(cfg)),
        "options": dict(cfg.options),
        "budget": {"ms": cfg.budget.ms, "max_samples": cfg.budget.max_samples},
        "win_rate": [wins[j] / n if n else 0.0 for j in range(k)],
        "ci95": [list(wilson(wins[j], n)) for j in range(k)],
    }
    nb = len(boards)
    mp = [0.0] * k
    won = [0] * k
    for ps in boards.values():
        totals = board_totals(ps, k)
        for j, x in enumerate(matchpoints(totals)):
            mp[j] += x
            won[j] += x == 1.0
    out["duplicate_score"] = [mp[j] / nb if nb else 0.0 for j in range(k)]
    out["duplicate_ci95"] = [list(wilson(mp[j], nb)) for j in range(k)]
    out["boards_won"] = [won[j] / nb if nb else 0.0 for j in range(k)]
    if cfg.matches:
        out["matches"] = len(boards)
    means = [mean_ci(per_board_scores[j]) for j in range(k)]
    out["mean_score"] = [m[0] for m in means]
    out["mean_score_ci95"] = [[m[1], m[2]] for m in means]
    if k == 2:
        diffs = [a - b for a, b in zip(per_board_scores[0], per_board_scores[1], strict=True)]
        m, lo, hi = mean_ci(diffs)
        out["mean_score_diff"] = m
        out["mean_score_diff_ci95"] = [lo, hi]
    else:
        diffs_by = []
        for j in range(k):
            d = [per_board_scores[j][b] - sum(per_board_scores[i][b] for i in range(k)
                                               if i != j) / (k - 1)
                 for b in range(len(boards))]
            diffs_by.append(mean_ci(d)[0])
        out["mean_score_diff"] = diffs_by
        order = sorted(range(k), key=lambda j: -out["mean_score"][j])
        out["rank"] = [order.index(j) + 1 for j in range(k)]
    out["move_ms"] = {"p50": percentile(all_ms, 0.5), "p95": percentile(all_ms, 0.95),
                      "max": all_ms[-1] if all_ms else 0.0}
    out["move_ms_by_level"] = {
        level: {"p50": percentile(sorted(ms), 0.5), "p95": percentile(sorted(ms), 0.95),
                "max": max(ms), "moves": len(ms)} for level, ms in sorted(by_level.items())}
    return out


# -- running -----------------------------------------------------------------------------------
def _board_job(args: tuple[SimConfig, int]) -> list[PlayResult]:
    return play_board(*args)


def run(cfg: SimConfig, progress: Callable[[int, int], None] | None = None) -> dict[str, Any]:
    """Play every board of ``cfg`` (in ``cfg.jobs`` processes) and summarize."""
    if cfg.records:
        os.makedirs(cfg.records, exist_ok=True)
    plays: list[PlayResult] = []
    done = 0
    if cfg.jobs <= 1:
        for b in range(cfg.boards):
            plays.extend(play_board(cfg, b))
            done += 1
            if progress:
                progress(done, cfg.boards)
    else:
        with ProcessPoolExecutor(max_workers=cfg.jobs) as pool:
            futures = [pool.submit(_board_job, (cfg, b)) for b in range(cfg.boards)]
            for fut in as_completed(futures):
                plays.extend(fut.result())
                done += 1
                if progress:
                    progress(done, cfg.boards)
    plays.sort(key=lambda p: (p.board, p.rotation))
    return summarize(cfg, plays)


def validate(cfg: SimConfig) -> str | None:
    """A message for a configuration that cannot run, or ``None``."""
    if cfg.game not in GAMES:
        return f"unknown game {cfg.game!r} (one of {', '.join(GAMES)})"
    for level in cfg.levels:
        if level not in ALL_LEVELS:
            return f"unknown player level {level!r} (one of {', '.join(ALL_LEVELS)})"
    try:
        sides = sides_of(cfg)
    except GameError as exc:
        return str(exc)
    if len(sides) != len(cfg.levels):
        what = "team" if any(len(s) > 1 for s in sides) else "seat"
        return (f"{cfg.game} with {sum(len(s) for s in sides)} players has {len(sides)} "
                f"sides: give one player level per {what} (--players a,b,...), "
                f"not {len(cfg.levels)}")
    if cfg.boards < 1:
        return "play at least one deal (--deals N) or match (--matches N)"
    return None


class ProgressBar:
    """A one-line progress bar on standard error (only drawn when it is a terminal)."""

    def __init__(self, label: str, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.label = label
        self.start = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        width = 30
        fill = int(width * done / max(1, total))
        elapsed = time.perf_counter() - self.start
        eta = elapsed / done * (total - done) if done else 0.0
        self.stream.write(f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] "
                          f"{done}/{total}  {elapsed:.0f}s, ~{eta:.0f}s left ")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def _budget_text(budget: Mapping[str, Any], t: Translator) -> str:
    if budget["ms"] and budget["max_samples"]:
        # Translators: The AI's thinking budget: {ms} milliseconds a move, {samples} sampled
        # deals at most.
        return t.gettext("budget {ms} ms, at most {samples} samples").format(
            ms=t.number(budget["ms"]), samples=t.number(budget["max_samples"]))
    if budget["ms"]:
        return t.gettext("budget {ms} ms").format(ms=t.number(budget["ms"]))
    if budget["max_samples"]:
        return t.gettext("no time limit, at most {samples} samples").format(
            samples=t.number(budget["max_samples"]))
    return t.gettext("no time limit")


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows of cells as aligned text: the first column left, the others right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def format_table(result: Mapping[str, Any], t: Translator | None = None) -> str:
    """The human-readable results table, in ``t``'s language (English by default; the
    ``--json`` object keeps its English keys)."""
    from bot.words.text import or_english

    t = or_english(t)
    matches = result["mode"] == "matches"
    boards = int(result["matches"] if matches else result["deals"])

    def pct(x: float) -> str:
        return t.percent(x, decimals=1)

    def num(x: float) -> str:
        return t.number(x, decimals=2)

    def ms(x: float) -> str:
        return t.gettext("{ms} ms").format(ms=t.number(x, decimals=1))

    if matches:
        played = t.ngettext("{count} match on duplicate", "{count} matches on duplicate",
                            boards).format(count=t.number(boards))
        won = t.gettext("matches won")
    else:
        played = t.ngettext("{count} deal on duplicate", "{count} deals on duplicate",
                            boards).format(count=t.number(boards))
        won = t.gettext("deals won")
    interval = t.gettext("95% CI")
    header = [t.gettext("player"), won, interval, t.gettext("plays won"), interval,
              t.gettext("mean score"), interval] + (
        [t.gettext("rank")] if "rank" in result else [])
    rows = [header]
    for j, level in enumerate(result["players"]):
        blo, bhi = result["duplicate_ci95"][j]
        lo, hi = result["ci95"][j]
        mlo, mhi = result["mean_score_ci95"][j]
        rows.append([level, pct(result["duplicate_score"][j]), f"[{pct(blo)} – {pct(bhi)}]",
                     pct(result["win_rate"][j]), f"[{pct(lo)} – {pct(hi)}]",
                     num(result["mean_score"][j]), f"[{num(mlo)} – {num(mhi)}]"]
                    + ([t.number(result["rank"][j])] if "rank" in result else []))
    # Translators: {played} says how many deals or matches were played ("100 deals"), {plays}
    # how many plays in all, {budget} the AI's thinking budget ("budget 50 ms").
    lines = [t.gettext("{game}: {played}, {plays} plays ({players} players); {budget}").format(
        game=result["game"], played=played, plays=t.number(result["plays"]),
        players=t.number(result["player_count"]), budget=_budget_text(result["budget"], t)),
        "", *_columns(rows)]
    if any(result.get("sees_all", ())):
        lines.append("\n" + t.gettext("oracle: sees every hand (a ceiling for measurement, "
                                      "never a table player)"))
    lines.append("\n" + t.gettext("{won}: duplicate score, each player's result over all the "
                                  "plays of the same cards compared, a tie counting ½").format(
        won=won))
    if len(result["players"]) == 2:
        lo, hi = result["mean_score_diff_ci95"]
        # Translators: {first} and {second} are AI levels; {diff} a number; {low} and {high} the
        # ends of its 95% confidence interval.
        lines.append("\n" + t.gettext("mean score difference ({first} - {second}): {diff} "
                                      "[{low} – {high}]").format(
            first=result["players"][0], second=result["players"][1],
            diff=num(result["mean_score_diff"]), low=num(lo), high=num(hi)))
    times = result["move_ms"]
    # Translators: p50, p95: the median and 95th percentile; {p50}, {p95}, {max} are times
    # ("12.5 ms").
    lines.append(t.gettext("move time (non-random players, decisions with a choice): p50 "
                           "{p50}, p95 {p95}, max {max}").format(
        p50=ms(times["p50"]), p95=ms(times["p95"]), max=ms(times["max"])))
    for level, x in result["move_ms_by_level"].items():
        lines.append("  " + t.ngettext(
            "{level} p50 {p50}, p95 {p95}, max {max} over {count} move",
            "{level} p50 {p50}, p95 {p95}, max {max} over {count} moves",
            int(x["moves"])).format(level=f"{level:<8}", p50=ms(x["p50"]), p95=ms(x["p95"]),
                                    max=ms(x["max"]), count=t.number(x["moves"])))
    return "\n".join(lines)


def cmd_simulate(args: argparse.Namespace) -> int:
    """Run ``tricktable simulate``; exit status 0, or 2 for a bad configuration."""
    from games.errors import GameError as _InputError
    from games.records import load_json
    from games.registry import game_id

    try:
        options = load_json(args.options) if args.options else {}
    except _InputError as exc:
        print(f"tricktable simulate: --options: {exc}", file=sys.stderr)
        return 2
    try:
        game = game_id(args.game)
    except _InputError as exc:
        print(f"tricktable simulate: {exc}", file=sys.stderr)
        return 2
    if not isinstance(options, dict):
        print("tricktable simulate: --options must be a JSON object", file=sys.stderr)
        return 2
    if args.matches is not None and args.deals is not None:
        print("tricktable simulate: give --deals or --matches, not both", file=sys.stderr)
        return 2
    try:
        budget = Budget(ms=args.budget_ms if args.budget_ms > 0 else None,
                        max_samples=args.samples)
    except ValueError as exc:
        print(f"tricktable simulate: {exc}", file=sys.stderr)
        return 2
    cfg = SimConfig(
        game=game,
        levels=tuple(x.strip() for x in args.players.split(",") if x.strip()),
        boards=args.matches if args.matches is not None else (
            args.deals if args.deals is not None else 100),
        matches=args.matches is not None,
        options=options,
        players=args.players_count,
        seed=args.seed,
        budget=budget,
        records=args.records,
        jobs=max(1, args.jobs),
    )
    problem = validate(cfg)
    if problem:
        print(f"tricktable simulate: {problem}", file=sys.stderr)
        return 2
    t = None
    if not args.json:  # the JSON object keeps English keys whatever the language
        from bot.cli_lang import translator_for

        t = translator_for(args, "simulate")
        if t is None:
            return 2
    result = run(cfg, ProgressBar(f"{cfg.game} {','.join(cfg.levels)}"))
    if t is None:
        print(json.dumps(result))
    else:
        print(format_table(result, t))
    return 0


def add_parser(sub: Any, t: Words | None = None) -> None:
    """Register ``simulate`` on an argparse subparsers object, its help in ``t``'s
    language (English without one)."""
    from bot.cli_lang import ENGLISH, add_lang_argument

    t = t or ENGLISH
    _ = t.gettext
    p = sub.add_parser(
        "simulate", help=_("play AI players against each other on duplicate deals"),
        # Translators: {confidence} is the confidence level, "95%". This description is
        # not %-formatted (help texts are: there a literal % is written %%).
        description=_("Play AI players against each other on duplicate deals (each deal "
                      "played once per seating of the players, so luck cancels out) and "
                      "print win rates with {confidence} confidence intervals and move "
                      "times.").format(confidence="95%"))
    p.add_argument("game", help=_("the game ({games})").format(games=", ".join(GAMES)))
    p.add_argument("--deals", type=int, default=None,
                   help=_("number of distinct deals (default 100); each is played once per "
                          "rotation of the players"))
    p.add_argument("--matches", type=int, default=None,
                   help=_("play whole matches instead of single deals"))
    p.add_argument("--players", required=True,
                   help=_("one level per side, comma-separated (random, rules, search; "
                          "oracle, which sees every hand, for measurement); partnership "
                          "games: one per team, individual games: one per seat"))
    p.add_argument("--players-count", type=int, default=None,
                   help=_("number of players where the game allows several (Albastini 2-6, "
                          "Truf 3 or 4)"))
    p.add_argument("--options", default=None, help=_("table options as a JSON object"))
    p.add_argument("--seed", type=int, default=0,
                   help=_("seed of the deals and the players"))
    p.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET.ms,
                   help=_("longest search time per move in ms (default 50; 0: no time limit, "
                          "then --samples is required)"))
    p.add_argument("--samples", type=int, default=None,
                   help=_("worlds sampled per search move (default: the game's default "
                          "count; deterministic with --budget-ms 0)"))
    p.add_argument("--jobs", type=int, default=1,
                   help=_("worker processes playing boards in parallel (default 1)"))
    p.add_argument("--records", default=None,
                   help=_("write every play as a record file (tricktable replay reads them)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    add_lang_argument(p, t)
    p.set_defaults(handler=cmd_simulate)

"""A scored duplicate event in words: the ranking, travellers and score cards.

Used by ``tricktable duplicate score`` and the Discord results; every sentence goes
through the reader's :class:`~bot.i18n.Translator`. Entrant names are used as given (a
front end that renders markup passes them escaped).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from bot.duplicate.hands import board_hands, direction_text
from bot.duplicate.scoring import (
    BoardResult,
    EventScore,
    RankRow,
    ScoredResult,
    Traveller,
)
from bot.i18n import Translator
from bot.words.cards import suit_text
from bot.words.options import option_name, value_text
from bot.words.text import or_english
from games.registry import GAMES

Names = Callable[[str], str]


def _same(name: str) -> str:
    return name


def percent_text(value: Fraction, t: Translator) -> str:
    """A percentage with two decimals (``62.50%``)."""
    return t.percent(float(value) / 100, decimals=2)


def signed(value: Fraction | int, t: Translator) -> str:
    """A signed number (``+3``, ``−2``, ``0``), one decimal when it is not whole."""
    whole = Fraction(value).denominator == 1
    text = t.number(abs(float(value)), decimals=None if whole else 1)
    return text if value == 0 else ("+" if value > 0 else "−") + text


def versus(values: Sequence[float], own: int, t: Translator) -> str:
    """Per-side values with the reader's side first: ``96 – 66`` for two sides, ``16 (the
    others: −4, −3, −3)`` for more."""
    if not values or own >= len(values):
        return ""
    others = [t.number(x) for i, x in enumerate(values) if i != own]
    if len(values) == 2:
        return f"{t.number(values[own])} – {others[0]}"
    # Translators: A score of one side of several (Truf, individual Albastini): {own} the
    # side's, {others} the other sides' ("16 (the others: −4, −3, −3)").
    return t.gettext("{own} (the others: {others})").format(own=t.number(values[own]),
                                                             others=", ".join(others))


def _side_word(side: int, own: int, t: Translator) -> str:
    # Translators: Who took a Tarabish bonus or called trump, in a traveller ("called by
    # your side", "runs 20 to the other side").
    return t.gettext("your side") if side == own else t.gettext("the other side")


def result_text(row: ScoredResult, t: Translator) -> str:
    """What the game's scoring compares, own side first, in the order the matchpoints use
    it (docs/duplicate.md, *Scoring*): trump (and who called it), then the deal score, then
    the measure that breaks its ties, then the bonuses inside them. Two results with
    different matchpoints never read the same."""
    detail = row.result.detail
    own = row.result.direction
    game = detail.get("game")
    parts: list[str] = []
    if "trump" in detail and game != "truf":
        trump = suit_text(detail.get("trump"), t)
        if isinstance(side := detail.get("caller_side"), int):
            # Translators: A traveller's trump: {trump} "♥ hearts", {side} "your side".
            trump = t.gettext("{trump}, called by {side}").format(
                trump=trump, side=_side_word(side, own, t))
        parts.append(trump)
    scores: Sequence[float] = detail.get("scores") or []
    if game == "turup":
        # Translators: Turup's deal score in a traveller, own side first ("game points 1 – 0").
        parts.append(t.gettext("game points {score}").format(score=versus(scores, own, t)))
        parts.append(t.gettext("tricks {score}").format(
            score=versus(detail.get("tricks_by_team") or [], own, t)))
    elif game == "tarabish":
        # Translators: Tarabish's hand score in a traveller (after the making or bait rule),
        # own side first ("hand 100 – 62").
        parts.append(t.gettext("hand {score}").format(score=versus(scores, own, t)))
        # Translators: Tarabish's points before the making or bait rule ("points 100 – 82").
        parts.append(t.gettext("points {score}").format(
            score=versus(detail.get("raw_points_by_team") or [], own, t)))
        if detail.get("run_points") and isinstance(side := detail.get("runs_side"), int):
            parts.append(t.gettext("runs {points} to {side}").format(
                points=t.number(detail["run_points"]), side=_side_word(side, own, t)))
        if isinstance(side := detail.get("bella_side"), int):
            parts.append(t.gettext("bella to {side}").format(side=_side_word(side, own, t)))
    elif game == "arbaa_turub":
        parts.append(t.gettext("tricks {score}").format(score=versus(scores, own, t)))
    elif game == "albastini":
        # Translators: Albastini's card points in a traveller, own side first.
        parts.append(t.gettext("card points {score}").format(score=versus(scores, own, t)))
    elif game == "truf":
        # Translators: Truf's points of the deal in a traveller, own seat first.
        parts.append(t.gettext("points {score}").format(score=versus(scores, own, t)))
    else:
        parts.append(versus(scores, own, t))
    return "; ".join(p for p in parts if p)


def matchpoints_text(row: ScoredResult, t: Translator) -> str:
    """``2 of 4 matchpoints, 50.00%``; a result alone in its direction says so."""
    if row.top == 0:
        # Translators: A traveller's result with nobody else in its direction to compare
        # with: it gets 50%.
        return t.gettext("alone in its direction, {percent}").format(
            percent=percent_text(row.percent, t))
    # Translators: {mp} matchpoints of {top}, {percent} as a percentage of the top.
    return t.gettext("{mp} of {top} matchpoints, {percent}").format(
        mp=t.number(row.mp), top=t.number(row.top), percent=percent_text(row.percent, t))


def unit_text(value: Fraction, method: str, t: Translator) -> str:
    """An entrant's board or event value: a percentage or IMPs."""
    if method == "imps":
        # Translators: International Match Points, the duplicate unit ("+3 IMPs").
        return t.gettext("{imps} IMPs").format(imps=signed(value, t))
    return percent_text(value, t)


def ranking_lines(score: EventScore, t: Translator | None = None,
                  names: Names = _same) -> list[str]:
    """One line per entrant: rank, name, total, boards finished."""
    t = or_english(t)
    lines = []
    for row in score.ranking:
        rank = t.number(row.rank) if row.rank is not None else "–"
        # Translators: A duplicate ranking line: {rank} a place, {name} an entrant, {total} a
        # percentage or IMPs, {done} the boards finished of the event's {boards}.
        lines.append(t.gettext("{rank}. {name}: {total}; boards finished: {done} of "
                               "{boards}").format(
            rank=rank, name=names(row.entrant), total=unit_text(row.total, score.method, t),
            done=t.number(row.finished), boards=t.number(score.boards)))
    return lines


def traveller_lines(travel: Traveller, method: str, t: Translator | None = None,
                    names: Names = _same) -> list[str]:
    """A board's traveller: per direction, each result with its matchpoints."""
    t = or_english(t)
    # Translators: The title of a duplicate board's traveller ("Board 3").
    lines = [t.gettext("Board {number}").format(number=t.number(travel.board))]
    groups = travel.by_direction()
    if not groups:
        lines.append(t.gettext("No result yet."))
    for direction, rows in sorted(groups.items()):
        lines.append(direction_text(direction, t))
        for row in rows:
            imps = f", {unit_text(Fraction(row.imps), 'imps', t)}" if row.imps is not None else ""
            # Translators: A traveller line: {name} an entrant, {result} what the scoring
            # compares (trump, scores, tricks), {matchpoints} "2 of 4 matchpoints, 50.00%".
            lines.append("  " + t.gettext("{name}: {result}; {matchpoints}").format(
                name=names(row.result.entrant), result=result_text(row, t),
                matchpoints=matchpoints_text(row, t)) + imps)
    return lines


def card_lines(row: RankRow, score: EventScore, ai: Mapping[int, str] | None = None,
               t: Translator | None = None) -> list[str]:
    """An entrant's score card: per board its result and value, then "you vs the field"
    (:func:`field_text`) and what the AI scored in its seat (``ai`` by board, worded)."""
    t = or_english(t)
    lines = []
    travellers = {travel.board: travel for travel in score.travellers}
    for board in row.boards:
        heading = t.gettext("Board {number}").format(number=t.number(board.board))
        value = unit_text(board.value, score.method, t)
        if board.scored is None:
            # Translators: A score card line for a board not finished: {value} the average
            # given.
            lines.append(heading + ": " + t.gettext("not finished, scored {value}").format(
                value=value))
            continue
        shown = (matchpoints_text(board.scored, t) if score.method == "matchpoints"
                 else value)
        lines.append(heading + ": " + t.gettext("{result}, {value}").format(
            result=result_text(board.scored, t), value=shown))
        lines.append("  " + field_text(board.scored, travellers[board.board], t))
        if (worded := (ai or {}).get(board.board)) is not None:
            lines.append("  " + t.gettext("AI in your seat: {result}").format(result=worded))
    return lines


def net_text(score: Fraction, tiebreak: Fraction, game: object, t: Translator) -> str:
    """A net score (``net +1``), with the net of the measure that breaks its ties where the
    game has one (``net +1 (tricks −1)``)."""
    # Translators: A duplicate result's net score: own side's score minus the others'
    # average ("net +20").
    text = t.gettext("net {score}").format(score=signed(score, t))
    if game == "turup":
        # Translators: {net} "net +1", {tricks} a signed number of tricks ("−1").
        return t.gettext("{net} (tricks {tricks})").format(net=text,
                                                            tricks=signed(tiebreak, t))
    if game == "tarabish":
        # Translators: {net} "net +20", {points} Tarabish's points before the making or
        # bait rule, signed ("+38").
        return t.gettext("{net} (points {points})").format(net=text,
                                                            points=signed(tiebreak, t))
    return text


def field_text(row: ScoredResult, travel: Traveller, t: Translator) -> str:
    """"You vs the field" on one board: the reader's net score, the best and the average of
    its direction's results, and where the reader stands in words."""
    game = row.result.detail.get("game")
    group = [r.result for r in travel.by_direction().get(row.result.direction, [])]
    mine = net_text(row.result.score, row.result.tiebreak, game, t)
    if len(group) < 2:
        # Translators: A score card's "you vs the field" when nobody else played the board
        # from the reader's direction: {mine} "net +1".
        return t.gettext("you: {mine}; the only result in your direction").format(mine=mine)
    best = max(group, key=lambda r: (r.score, r.tiebreak))
    n = len(group)
    average = net_text(sum((r.score for r in group), Fraction(0)) / n,
                       sum((r.tiebreak for r in group), Fraction(0)) / n, game, t)
    if row.percent == 100:
        verdict = t.gettext("the best result of the field")
    elif row.percent == 0:
        verdict = t.gettext("the lowest result of the field")
    elif row.percent > 50:
        verdict = t.gettext("above the field's average")
    elif row.percent < 50:
        verdict = t.gettext("below the field's average")
    else:
        verdict = t.gettext("level with the field's average")
    # Translators: A score card's "you vs the field" on one board: {mine}, {best} and
    # {average} net scores ("net +1 (tricks −1)"), {verdict} e.g. "above the field's
    # average".
    return t.gettext("you: {mine}; the field's best: {best}; its average: {average}; "
                     "yours is {verdict}").format(
        mine=mine, best=net_text(best.score, best.tiebreak, game, t), average=average,
        verdict=verdict)


def rules_line(game: str, options: Mapping[str, Any] | None,
               t: Translator | None = None) -> str:
    """An event's rule options in force: ``Rule options: the game's defaults`` or each
    option the director changed with its value (``Rule options: Target: 1``)."""
    t = or_english(t)
    rows = {row["name"]: row for row in GAMES[game].options_type.describe()}
    changed = [(name, value) for name, value in sorted((options or {}).items())
               if name in rows and value != rows[name]["default"]]
    if not changed:
        # Translators: A duplicate event's rule options when the director changed none.
        return t.gettext("Rule options: the game's defaults")
    # Translators: A duplicate event's rule options: {options} e.g. "Target: 1; Kort: off".
    return t.gettext("Rule options: {options}").format(options="; ".join(
        f"{option_name(name, game, t)}: {value_text(value, t)}" for name, value in changed))


def header_line(game: str, score: EventScore, t: Translator | None = None) -> str:
    """``Tarabish: 4 boards, matchpoints``."""
    t = or_english(t)
    method = t.gettext("IMPs") if score.method == "imps" else t.gettext("matchpoints")
    # Translators: The head of duplicate results: {game} a game's name, {method}
    # "matchpoints" or "IMPs", {boards} the number of boards.
    return t.gettext("{game}, {method}; boards: {boards}").format(
        game=GAMES[game].title, boards=t.number(score.boards), method=method)


def event_text(game: str, score: EventScore, t: Translator | None = None,
               names: Names = _same) -> str:
    """The whole event: header, ranking and every traveller."""
    t = or_english(t)
    lines = [header_line(game, score, t), "", *ranking_lines(score, t, names)]
    for travel in score.travellers:
        lines += ["", *traveller_lines(travel, score.method, t, names)]
    return "\n".join(lines)


def hand_labels(sides: Sequence[Sequence[int]], hands: Sequence[Sequence[str]],
                dealer: int | None, t: Translator | None = None, game: str | None = None
                ) -> list[tuple[str, Sequence[str]]]:
    """Each hand as dealt, sorted by suit, with its label (``Direction 1, North``, the
    dealer marked; :func:`bot.duplicate.hands.board_hands`): what the text and the picture
    of a hand record show."""
    return [(hand.label, hand.cards) for hand in board_hands(sides, hands, dealer, t, game)]


def hand_record_lines(sides: Sequence[Sequence[int]], hands: Sequence[Sequence[str]],
                      dealer: int | None, t: Translator | None = None,
                      game: str | None = None) -> list[str]:
    """The hands as dealt, one line each (:func:`hand_labels`)."""
    from bot.words.cards import cards_text

    return [f"{label}: {cards_text(hand)}" for label, hand in hand_labels(sides, hands,
                                                                          dealer, t, game)]


def ai_text(result: BoardResult, method: str, t: Translator | None = None) -> str:
    """What the AI scored from a seat: its net score on the board."""
    t = or_english(t)
    if not result.finished:
        return "–"
    # Translators: The AI's result on a board from the reader's seat: {score} a signed net
    # score in the game's points ("+20").
    return t.gettext("net {score}").format(score=signed(result.score, t))


def reveal_lines(game: str, sides: Sequence[Sequence[int]], travel: Traveller,
                 method: str, hands: Sequence[Sequence[str]], dealer: int | None,
                 ai: BoardResult, own: BoardResult | None, t: Translator | None = None,
                 names: Names = _same) -> list[str]:
    """An entrant's message after finishing a board: the traveller so far, the hand
    record and what the AI scored in its seat."""
    t = or_english(t)
    lines = [f"**{GAMES[game].title}**", *traveller_lines(travel, method, t, names), ""]
    # Translators: A heading above the four hands as dealt.
    lines.append(t.gettext("The hands as dealt:"))
    lines += hand_record_lines(sides, hands, dealer, t, game)
    lines.append("")
    lines.append(ai_line(ai, own, method, t))
    return lines


def ai_line(ai: BoardResult, own: BoardResult | None, method: str,
            t: Translator | None = None) -> str:
    """What the AI scored in the reader's seat, with the reader's own score when known."""
    t = or_english(t)
    mine = "" if own is None else " " + t.gettext("(you: {score})").format(
        score=signed(own.score, t))
    return t.gettext("AI in your seat: {result}").format(result=ai_text(ai, method, t)) + mine

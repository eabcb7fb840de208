"""A scored duplicate event in words: the ranking, travellers and score cards.

Used by ``tricktable duplicate score`` and the Discord results; every sentence goes
through the reader's :class:`~bot.i18n.Translator`. Entrant names are used as given (a
front end that renders markup passes them escaped).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from bot.duplicate.scoring import (
    BoardResult,
    BoardScore,
    EventScore,
    RankRow,
    ScoredResult,
    Traveller,
)
from bot.i18n import Translator
from bot.words.cards import suit_text
from bot.words.seating import seat_label
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


def direction_text(direction: int, t: Translator) -> str:
    """A direction (a side held on the board) by its 1-based number."""
    # Translators: A direction of a duplicate board: which side of the deal an entrant held
    # ("Direction 1"); the same cards are compared only within one direction.
    return t.gettext("Direction {number}").format(number=t.number(direction + 1))


def result_text(row: ScoredResult, t: Translator) -> str:
    """What happened at the table: trump and the deal's scores, own side first."""
    detail = row.result.detail
    scores: Sequence[float] = detail.get("scores") or []
    own = row.result.direction
    ordered = [scores[own], *(s for i, s in enumerate(scores) if i != own)] if scores else []
    points = " – ".join(t.number(x) for x in ordered)
    if "trump" in detail:
        # Translators: A traveller's result: {trump} the trump ("♥ hearts", "no trump"),
        # {points} the deal's scores, the entrant's side first ("96 – 66").
        return t.gettext("{trump}, {points}").format(
            trump=suit_text(detail.get("trump"), t), points=points)
    return points


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
            # Translators: A traveller line: {name} an entrant, {result} trump and points,
            # {mp} matchpoints of {top}, {percent} as a percentage of the top.
            lines.append("  " + t.gettext("{name}: {result}; {mp} of {top} matchpoints, "
                                          "{percent}").format(
                name=names(row.result.entrant), result=result_text(row, t),
                mp=t.number(row.mp), top=t.number(row.top),
                percent=percent_text(row.percent, t)) + imps)
    return lines


def card_lines(row: RankRow, score: EventScore, best: Mapping[int, Fraction],
               ai: Mapping[int, str] | None = None, t: Translator | None = None) -> list[str]:
    """An entrant's score card: per board its result, its value, the field's best and what
    the AI scored in its seat (``ai`` by board, already worded)."""
    t = or_english(t)
    lines = []
    for board in row.boards:
        lines.append(_card_line(board, score.method, best.get(board.board), (ai or {}).get(
            board.board), t))
    return lines


def _card_line(board: BoardScore, method: str, best: Fraction | None, ai: str | None,
               t: Translator) -> str:
    value = unit_text(board.value, method, t)
    if board.scored is None:
        # Translators: A score card line for a board not finished: {value} the average given.
        mine = t.gettext("not finished, scored {value}").format(value=value)
    else:
        mine = t.gettext("{result}, {value}").format(result=result_text(board.scored, t),
                                                     value=value)
    parts = [t.gettext("Board {number}").format(number=t.number(board.board)) + ": " + mine]
    if best is not None:
        parts.append(t.gettext("field's best {value}").format(value=unit_text(best, method, t)))
    if ai is not None:
        parts.append(t.gettext("AI in your seat: {result}").format(result=ai))
    return "; ".join(parts)


def best_by_board(score: EventScore) -> dict[int, Fraction]:
    """The field's best value on each board (percent or IMPs)."""
    out: dict[int, Fraction] = {}
    for travel in score.travellers:
        values = [Fraction(r.imps) if r.imps is not None else r.percent for r in travel.rows]
        if values:
            out[travel.board] = max(values)
    return out


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
                dealer: int | None, t: Translator | None = None
                ) -> list[tuple[str, Sequence[str]]]:
    """Each hand as dealt with its label, per direction (each seat of it in turn, named
    when the direction has more than one: ``Direction 1, Seat 2``; the dealer marked):
    what the text and the picture of a hand record show."""
    t = or_english(t)
    out: list[tuple[str, Sequence[str]]] = []
    for direction, seats in enumerate(sides):
        for seat in seats:
            if seat >= len(hands):
                continue
            label = direction_text(direction, t)
            if len(seats) > 1:
                # Translators: A hand record's label of one seat of a direction held by
                # partners: {direction} is "Direction 1", {seat} "Seat 2".
                label = t.gettext("{direction}, {seat}").format(
                    direction=label, seat=seat_label(seat, t))
            if seat == dealer:
                # Translators: A hand record's label of the dealer's hand: {direction} is
                # "Direction 1" or "Direction 1, Seat 2".
                label = t.gettext("{direction}, dealer").format(direction=label)
            out.append((label, hands[seat]))
    return out


def hand_record_lines(sides: Sequence[Sequence[int]], hands: Sequence[Sequence[str]],
                      dealer: int | None, t: Translator | None = None) -> list[str]:
    """The hands as dealt, one line each (:func:`hand_labels`)."""
    from bot.words.cards import cards_text

    return [f"{label}: {cards_text(hand)}" for label, hand in hand_labels(sides, hands,
                                                                          dealer, t)]


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
    lines += hand_record_lines(sides, hands, dealer, t)
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

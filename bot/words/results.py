"""Deal and match results in players' words, for every game.

:func:`deal_result` turns a deal summary (``docs/records.md``; the ``deal_over`` /
``deal_scored`` events carry it) into a :class:`~bot.words.text.Text`: who called or bid
what, what each side took and scored and why, the running score against the target.
:func:`match_result` does the same for the match summary. No engine keys, no record
notation, no seat numbers: players by name (:class:`~bot.words.seating.Seating`), in the
seating's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import N_, Translator
from bot.words import results_partners, results_solo
from bot.words.seating import Seating, join_names
from bot.words.text import Text, or_english
from games.event_types import DealSummary, MatchSummary

_DEAL: dict[str, Callable[[Seating, DealSummary, MatchSummary | None],
                          list[str]]] = {
    "arbaa_turub": results_partners.arbaa_turub,
    "turup": results_partners.turup,
    "tarabish": results_partners.tarabish,
    "truf": results_solo.truf,
}

UNITS = {"arbaa_turub": N_("deals won"), "turup": N_("game points"), "tarabish": N_("points"),
         "truf": N_("points"), "albastini": N_("victory points")}
"""The unit of each game's match totals (English; ``t.gettext(UNITS[game])`` to show)."""


def deal_title(number: int | None, hand_number: int | None = None, *,
               t: Translator | None = None) -> str:
    """``Deal 3``: by the 0-based index in the record, or by Truf's hand number (a misdeal
    is dealt again under the same number, so a game's deals run 1 to 13)."""
    t = or_english(t)
    if hand_number is not None:
        return t.gettext("Deal {n}").format(n=t.number(hand_number))
    if number is None:
        return t.gettext("The deal")
    return t.gettext("Deal {n}").format(n=t.number(number + 1))


def deal_result(seating: Seating, summary: DealSummary, *, number: int | None = None,
                match: MatchSummary | None = None,
                deal: Mapping[str, Any] | None = None) -> Text:
    """A finished deal in words. ``number`` is the 0-based deal index (for the title),
    ``match`` the match summary after the deal (adds the running score), ``deal`` the
    deal's record (Albastini: the bids and the turned card)."""
    title = deal_title(number, summary.get("hand_number"), t=seating.t)
    dealer = summary.get("dealer")
    head = ([] if dealer is None else
            [seating.says(int(dealer), N_("{player} dealt."), N_("You dealt."))])
    if seating.game == "albastini":
        body = results_solo.albastini(seating, summary, match, deal)
    else:
        body = _DEAL[seating.game](seating, summary, match)
    return Text(title, tuple(head + body))


def match_result(seating: Seating, match: MatchSummary) -> Text:
    """The match summary in words: the winner (or the winners sharing a Truf win, or no
    winner), the final score, and after which deal the match was decided. For a reader
    (:meth:`~bot.words.seating.Seating.reading`) the winner is said from their side:
    ``You won the match.``, ``Bilal and Dewi won the match: you lost.``"""
    t = seating.t
    unit = t.gettext(UNITS[seating.game])
    totals = list(match.get("totals") or [])
    score = (seating.per_side(totals) if len(totals) == len(seating.sides)
             else seating.per_seat(totals))
    winner = match.get("winner")
    winners = match.get("winners") or ([] if winner is None else [winner])
    lines: list[str] = []
    if not match.get("over"):
        return Text(t.gettext("Match in progress"),
                    (t.gettext("Score: {score} {unit}.").format(score=score, unit=unit),))
    reader = seating.reader
    mine = None if reader is None else seating.side_of(reader)
    if mine is not None and winners:
        lines.append(_reader_result(seating, [int(w) for w in winners], mine))
    elif len(winners) == 1:
        w = int(winners[0])
        if len(seating.sides[w]) == 1:
            lines.append(t.gettext("{player} wins the match.").format(
                player=seating.side_name(w)))
        else:
            lines.append(t.gettext("{side} win the match.").format(side=seating.side_name(w)))
    elif winners:
        lines.append(t.gettext("{sides} share the win.").format(
            sides=join_names([seating.side_name(int(w)) for w in winners], t)))
    else:
        lines.append(t.gettext("The match ends without a winner."))
    lines.append(t.gettext("Final score: {score} {unit}.").format(score=score, unit=unit))
    decided = match.get("decided_after")
    if seating.game == "truf" and match.get("next_hand_number"):
        played = int(match["next_hand_number"]) - 1
        lines.append(t.ngettext("After {count} deal.", "After {count} deals.", played).format(
            count=t.number(played)))
    elif decided is not None:
        lines.append(t.gettext("Decided after deal {n}.").format(n=t.number(int(decided) + 1)))
    return Text(t.gettext("Match over"), tuple(lines))


def _reader_result(seating: Seating, winners: list[int], mine: int) -> str:
    """Who won, said to the reader whose side is ``mine``."""
    t = seating.t
    if mine in winners:
        others = [seating.side_name(w) for w in winners if w != mine]
        if not others:
            return t.gettext("You won the match.")
        return t.gettext("You share the win with {sides}.").format(
            sides=join_names(others, t))
    won = join_names([seating.side_name(w) for w in winners], t)
    if len(winners) == 1 and len(seating.sides[winners[0]]) == 1:
        return t.gettext("{player} won the match: you lost.").format(player=won)
    return t.gettext("{sides} won the match: you lost.").format(sides=won)

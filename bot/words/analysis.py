"""``tricktable replay FILE --analyse [--seat N]``: the analysis of every deal of a record
(:mod:`games.ai.analysis`) in player words.

For each deal and each analysed seat: one line with the seat's accuracy, then one line per
decision — where it was made, the choice in the table's words (``Play K♣``), its label —
and, when the choice lost value, the best choice and how much more it was worth (in the
game's playout units, ``docs/ai.md``). Everything goes through the reader's translator.
"""

from __future__ import annotations

import json

from bot.i18n import Translator
from bot.words.actions import action_text
from bot.words.results import deal_title
from bot.words.review import seating_for
from bot.words.text import or_english
from games.ai.analysis import DealAnalysis, analyse_deal
from games.records import _deals_of, replay_text


def _label(label: str, t: Translator) -> str:
    words = {
        # Translators: the labels of a decision judged after the deal, as in chess
        # analysis: best, good, inaccuracy, mistake, blunder.
        "best": t.gettext("best"),
        "good": t.gettext("good"),
        "inaccuracy": t.gettext("inaccuracy"),
        "mistake": t.gettext("mistake"),
        "blunder": t.gettext("blunder"),
    }
    return words[label]


def analysis_lines(analysis: DealAnalysis, player: str, t: Translator) -> list[str]:
    """One seat's analysis of one deal, as lines."""
    n = len(analysis.decisions)
    if analysis.accuracy is None:
        return [t.gettext("{player} had no decision to analyse.").format(player=player)]
    lines = [t.ngettext("{player}: {accuracy}% accuracy over {count} decision.",
                        "{player}: {accuracy}% accuracy over {count} decisions.", n).format(
        player=player, accuracy=t.number(analysis.accuracy, decimals=0), count=t.number(n))]
    for d in analysis.decisions:
        # Translators: {trick} is a trick number, {choice} a choice ("Play K♣"), {label}
        # one of best, good, inaccuracy, mistake, blunder.
        line = t.gettext("Trick {trick}: {choice} ({label})").format(
            trick=t.number(d.trick), choice=action_text(d.made.action, analysis.game, t=t),
            label=_label(d.label, t))
        if d.label not in ("best", "good"):
            # Translators: {best} is the best choice ("Play A♠"), {value} how much more it
            # was worth in the game's points.
            line += " " + t.gettext("{best} was worth {value} more.").format(
                best=action_text(d.best.action, analysis.game, t=t),
                value=t.number(d.loss, decimals=1))
        lines.append("  " + line)
    return lines


def analyse_text(text: str, seat: int | None = None, *, seed: int = 0,
                 t: Translator | None = None) -> tuple[str, int]:
    """The analysis of every played deal of a record given as JSON text, for ``seat`` (every
    seat when ``None``), with ``replay``'s exit status (a record whose action was refused
    is analysed up to the deal before it)."""
    t = or_english(t)
    out, status = replay_text(text)
    if status == 2:
        return t.gettext("This record cannot be read: {error}").format(
            error=out.get("error")), 2
    record = json.loads(text)
    seating = seating_for(record, t=t)
    players = len(seating.names)
    if seat is not None and not 0 <= seat < players:
        return t.gettext("This record cannot be read: {error}").format(
            error=f"no seat {seat}"), 2
    last = out["illegal"]["deal"] if out.get("illegal") else None
    blocks: list[str] = []
    for number, deal_obj in enumerate(_deals_of(record)):
        if last is not None and number >= last:
            break
        if "hands" not in deal_obj:
            continue
        lines = [deal_title(number, t=t)]
        for s in range(players) if seat is None else (seat,):
            lines.extend(analysis_lines(analyse_deal(record, s, number, seed), seating.name(s),
                                        t))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks), status

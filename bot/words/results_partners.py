"""Deal results of the partnership games in words: Arba'a Turub, Turup, Tarabish.

Each function takes the deal summary of ``docs/records.md`` and the match summary after
the deal (or ``None``) and returns sentences in the seating's language: who named trump,
what each side took, who won the deal and why, and what it means for the match.
"""

from __future__ import annotations

from bot.i18n import N_
from bot.words.cards import suit_text
from bot.words.seating import Seating
from games.event_types import DealSummary, MatchSummary


def trump_line(seating: Seating, trump: str | None, caller: int | None) -> list[str]:
    """``Trump: ♠ spades, named by Ann.`` (nothing for a deal without a named trump)."""
    t = seating.t
    if not trump:
        return []
    if caller is None:
        return [t.gettext("Trump: {suit}.").format(suit=suit_text(trump, t))]
    return [t.gettext("Trump: {suit}, named by {player}.").format(
        suit=suit_text(trump, t), player=seating.name(caller))]


def tricks_line(seating: Seating, tricks: list[int]) -> str:
    # Translators: {counts} is each side with its number, e.g. "Ann and Cy 5, Bo and Di 4".
    return seating.t.gettext("Tricks: {counts}.").format(counts=seating.per_side(tricks))


def arbaa_turub(seating: Seating, summary: DealSummary,
                match: MatchSummary | None) -> list[str]:
    """Arba'a Turub: eldest (the dealer's left) names trump; more tricks wins the deal;
    the match rule's first win and its trick count."""
    t = seating.t
    dealer = int(summary["dealer"])
    lines = trump_line(seating, summary.get("trump"), (dealer + 1) % 4)
    a, b = summary["tricks_by_team"]
    lines.append(tricks_line(seating, [a, b]))
    if a == b:
        # Translators: {a} and {b} are the two sides' trick counts, e.g. "4–4".
        lines.append(t.gettext("{a}–{b}: a drawn deal.").format(a=t.number(a), b=t.number(b)))
    else:
        w = 0 if a > b else 1
        # Translators: {side} is a team by its players' names ("Ann and Cy"); {n} a number of
        # tricks.
        lines.append(t.gettext("{side} win the deal with {n} tricks.").format(
            side=seating.side_name(w), n=t.number(max(a, b))))
    if match is None:
        return lines
    winner, holder, ref = match.get("winner"), match.get("holder"), match.get("ref")
    if match.get("over") and winner is not None:
        lines.append(t.gettext(
            "{side} win the match: two deals won with no deal lost in between, the second "
            "with more tricks than the first.").format(side=seating.side_name(winner)))
    elif holder is not None and ref is not None:  # the engine sets both or neither
        # Translators: {side} is a team by its players' names ("Ann and Cy"); {ref} the number
        # of tricks of their first win.
        lines.append(t.gettext(
            "{side} hold a first win of {ref} tricks: if they win the next deal with more "
            "than {ref} tricks, they win the match.").format(
            side=seating.side_name(holder), ref=t.number(ref)))
    else:
        lines.append(t.gettext("No side holds a first win."))
    # Translators: {counts} is each side with its number, e.g. "Ann and Cy 1, Bo and Di 0".
    lines.append(t.gettext("Deals won: {counts}.").format(
        counts=seating.per_side(match["totals"])))
    return lines


def turup(seating: Seating, summary: DealSummary,
          match: MatchSummary | None) -> list[str]:
    """Turup: eldest (the dealer's right) names trump; five tricks first scores 1, kort
    (all nine) 3, a failed kort 3 to the opponents."""
    t = seating.t
    dealer = int(summary["dealer"])
    lines = trump_line(seating, summary.get("trump"), (dealer - 1) % 4)
    tricks = list(summary["tricks_by_team"])
    lines.append(tricks_line(seating, tricks))
    points = list(summary.get("game_points") or [0, 0])
    kort = summary.get("kort")
    if any(points):
        w = 0 if points[0] else 1
        side, other = seating.side_name(w), seating.side_name(1 - w)
        n = points[w]
        if kort == "made":
            # Translators: {side} is a team by its players' names ("Ann and Cy").
            why = t.ngettext("Kort! {side} took all nine tricks and score {count} game point.",
                             "Kort! {side} took all nine tricks and score {count} game points.",
                             n)
        elif kort == "failed":
            # Translators: {other} is the other team by its players' names ("Bo and Di").
            why = t.ngettext(
                "Kort failed: {other} took a trick, so they score {count} game point.",
                "Kort failed: {other} took a trick, so they score {count} game points.", n)
            side, other = other, side
        elif tricks[w] == 5 and tricks[1 - w] == 0:
            why = t.ngettext("{side} won the first five tricks and stopped: {count} game point.",
                             "{side} won the first five tricks and stopped: {count} game "
                             "points.", n)
        else:
            why = t.ngettext("{side} took five tricks first: {count} game point.",
                             "{side} took five tricks first: {count} game points.", n)
        lines.append(why.format(side=side, other=other, count=t.number(n)))
    if match is not None:
        lines.append(score_line(seating, match["totals"], N_("game points"),
                                seating_target(seating, "target", 5)))
    return lines


def seating_target(seating: Seating, option: str, default: int) -> int:
    value = seating.options.get(option, default)
    return int(value) if isinstance(value, int) else default


def score_line(seating: Seating, totals: list[int], unit: str, target: int | None) -> str:
    """``Score: Ann and Cy 3, Bo and Di 0 game points (first to 5).`` (``unit``: an English
    message marked with ``N_``, translated here)."""
    t = seating.t
    counts = seating.per_side(totals)
    if target is None:
        # Translators: {counts} is each side with its score ("Ann and Cy 3, Bo and Di 0");
        # {unit} what is counted, e.g. "game points" or "deals".
        return t.gettext("Score: {counts} {unit}.").format(counts=counts, unit=t.gettext(unit))
    return t.gettext("Score: {counts} {unit} (first to {target}).").format(
        counts=counts, unit=t.gettext(unit), target=t.number(target))


def tarabish(seating: Seating, summary: DealSummary,
             match: MatchSummary | None) -> list[str]:
    """Tarabish: the call, runs and bella, card points, made / half bait / bait."""
    t = seating.t
    lines: list[str]
    if summary.get("hand_void"):
        lines = [t.gettext("Everybody passed: the hand is abandoned with no score.")]
        if match is not None:
            lines.append(score_line(seating, match["totals"], N_("points"),
                                    seating_target(seating, "target", 500)))
        return lines
    caller = summary.get("caller")
    lines = []
    if caller is not None:
        if summary.get("trump"):
            lines.append(t.gettext("{player} called {suit}.").format(
                player=seating.name(caller), suit=suit_text(summary["trump"], t)))
        else:
            lines.append(t.gettext("{player} called trump.").format(player=seating.name(caller)))
    for run in summary.get("runs_declared") or []:
        lines.append(t.gettext("{player} declared a run worth {value}.").format(
            player=seating.name(run["seat"]), value=seating.value(run["value"])))
    if summary.get("runs_winner") is not None and summary.get("run_points"):
        lines.append(t.gettext("{player} has the best run and scores runs worth {points}."
                               ).format(player=seating.name(summary["runs_winner"]),
                                        points=seating.value(summary["run_points"])))
    if summary.get("bella") is not None:
        lines.append(t.gettext("{player} announced bella: {points}.").format(
            player=seating.name(summary["bella"]), points=t.number(20)))
    card_points = summary.get("card_points_by_team")
    if card_points is not None:
        lines.append(t.gettext("Card points (last trick 10 included): {counts}.").format(
            counts=seating.per_side(card_points)))
    raw = summary.get("raw_points_by_team")
    if raw is not None and raw != card_points:
        lines.append(t.gettext("With runs and bella: {counts}.").format(
            counts=seating.per_side(raw)))
    lines.extend(_tarabish_result(seating, summary))
    if (hand_score := summary.get("hand_score")) is not None:
        lines.append(t.gettext("This hand scores {counts}.").format(
            counts=seating.per_side(hand_score)))
    if match is not None:
        lines.append(score_line(seating, match["totals"], N_("points"),
                                seating_target(seating, "target", 500)))
    return lines


def _tarabish_result(seating: Seating, summary: DealSummary) -> list[str]:
    t = seating.t
    caller = summary.get("caller")
    total = summary.get("hand_total")
    conceded = summary.get("conceded_by")
    if conceded is not None:
        side = seating.side_of(conceded)
        # Translators: {other} is the other team by its players' names ("Bo and Di"); {total}
        # the points of the whole hand.
        return [t.gettext("{player} conceded: {other} score the whole hand, {total}.").format(
            player=seating.name(conceded), other=seating.side_name(1 - side),
            total=seating.value(total))]
    if caller is None or total is None or summary.get("result") is None:
        return []
    c_side = seating.side_of(caller)
    callers, defenders = seating.side_name(c_side), seating.side_name(1 - c_side)
    raw = summary.get("raw_points_by_team") or [0, 0]
    c_points = raw[c_side]
    result = summary["result"]
    if result == "made":
        # Translators: {callers} is the team that named trump, by its players' names; {points}
        # the card points they took of the hand's {total}.
        text = t.gettext("Made: {callers} took {points} of {total}, more than half, and both "
                         "sides score what they took.")
    elif result == "half_bait":
        # Translators: {callers} named trump, {defenders} did not (teams by their players'
        # names).
        text = t.gettext("Half bait: {callers} took exactly half, {points} of {total}, and "
                         "score nothing; {defenders} score their own points.")
    else:
        # Translators: {callers} named trump, {defenders} did not (teams by their players'
        # names).
        text = t.gettext("Bait: {callers} took {points} of {total}, less than half: they "
                         "score nothing and {defenders} score all {total}.")
    return [text.format(callers=callers, defenders=defenders, points=t.number(c_points),
                        total=t.number(total))]

"""The deal review: a finished deal told from its record, page by page.

:func:`review_pages` replays a record (``docs/records.md``) through the engine and tells
each deal: the hands as dealt (everything is shown: the deal is over), then every public
event in order — trump calls, bids, runs and bella, signals, each trick with who led, what
each played and who won, followed by the running count (tricks per side; Albastini also
card points) — and the deal's result. Pages fit a Discord message (and so an embed), so
Discord (◀ ▶) and the terminal (``tricktable replay FILE --show``) show the same pages.

A record whose action was refused is told up to that action, with the engine's reason in
the seating's language (:mod:`bot.words.refusals`: names, ``K♣``); an invalid record gives
one page saying why. A deal still in play (a live table's record) is not told unless asked
(``finished_only=False``): its hands are secret. The pages are in the seating's language
(``show_text(text, t=...)`` for the CLI).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from bot.i18n import Translator
from bot.words.cards import hand_lines
from bot.words.events import event_line
from bot.words.refusals import refusal_text
from bot.words.results import deal_result, deal_title, match_result
from bot.words.seating import Seating
from bot.words.text import Text, or_english, paginate
from games.actions import action_from_json
from games.base import Deal, Match
from games.cards import card, name, sort_for_display
from games.errors import GameError, IllegalAction
from games.event_types import game_data
from games.records import _deals_of, open_match, replay, replay_text

PAGE_LIMIT = 1800
"""Characters per page: under Discord's 2,000 per message and 4,096 per embed."""

QUIET = frozenset({"trick", "deal_over", "bid_placed", "hand", "draw", "kitty"})
"""Events the review does not tell as they come: tricks get their own line with the
running count, the result its own page; private events are never shown."""


def seating_for(record: Mapping[str, Any], names: list[str] | None = None, *,
                t: Translator | None = None) -> Seating:
    """The record's seating: with the given names, else ``Seat 0`` … (records hold none)."""
    match = open_match(record)
    game = match.game
    if names is not None:
        return Seating.of(game, names, record.get("options"), t=t)
    return Seating.anonymous(game, match.players, record.get("options"), t=t)


def _hands_page(seating: Seating, deal: Deal) -> list[str]:
    lines = [seating.t.gettext("{player} dealt.").format(player=seating.name(deal.dealer))]
    for seat, hand in enumerate(deal.dealt_hands()):
        shown = [name(c) for c in sort_for_display(card(x) for x in hand)]
        lines.append(seating.t.gettext("{player}: {cards}").format(player=seating.name(seat),
                                                cards=" · ".join(hand_lines(shown))))
    return lines


def _count_line(seating: Seating, tricks: list[int], points: list[int] | None) -> str:
    per_side = [sum(tricks[s] for s in side) for side in seating.sides]
    if points is None:
        # Translators: {counts} is each side with its tricks, e.g. "Ann and Cy 5, Bo and Di 4".
        return seating.t.gettext("Tricks so far: {counts}.").format(
            counts=seating.per_side(per_side))
    # Translators: {counts} and {points} are each side with its tricks or card points, e.g.
    # "Ann and Cy 5, Bo and Di 4".
    return seating.t.gettext("Tricks so far: {counts}; card points: {points}.").format(
        counts=seating.per_side(per_side), points=seating.per_side(points))


def _tell(seating: Seating, deal: Deal, actions: list[Any], where: str,
          stop: int | None) -> list[str]:
    """Apply the deal's actions, telling each public event; stop at index ``stop``."""
    lines: list[str] = []
    tricks = [0] * seating.players
    points = [0] * len(seating.sides) if seating.game == "albastini" else None
    for index, raw in enumerate(actions):
        seat, action = action_from_json(raw, f"{where}, action {index}")
        try:
            events = deal.apply(seat, action)
        except IllegalAction as exc:
            lines.append(seating.t.gettext(
                "{player} tried an action the rules refuse: {reason}.").format(
                player=seating.name(seat), reason=refusal_text(exc, seating)))
            break
        for event in events:
            if not event.visible_to(None):
                continue
            if event.type == "trick":
                data = game_data(event, "trick")
                lines.append(event_line(seating, "trick", data) or "")
                tricks[data["winner"]] += 1
                if points is not None:
                    points[seating.side_of(data["winner"])] += data.get("points") or 0
                lines.append(_count_line(seating, tricks, points))
            elif event.type == "play":
                play = game_data(event, "play")
                if play.get("signal") or play.get("bella"):
                    lines.append(event_line(seating, "play", event.data) or "")
            elif event.type not in QUIET:
                line = event_line(seating, event.type, event.data)
                if line:
                    lines.append(line)
        if stop is not None and index >= stop:
            break
    return lines


def _finishes(match: Match, deal: Deal, deal_obj: Mapping[str, Any]) -> bool:
    """Whether the record's actions finish ``deal`` (tried on a copy, nothing told)."""
    trial = deal.copy()
    for raw in deal_obj.get("actions") or []:
        seat, action = action_from_json(raw, "action")
        try:
            trial.apply(seat, action)
        except IllegalAction:
            return False
    return trial.is_over


def dealt_hands(record: Mapping[str, Any], number: int) -> list[list[str]] | None:
    """The hands of deal ``number`` (0-based) as dealt, each in display order (record
    notation), when the record finishes that deal; ``None`` for a score-only deal or one
    still being played (its hands are secret): what a hand diagram draws."""
    deals = _deals_of(record)
    if number >= len(deals) or "summary" in deals[number]:
        return None
    deal_obj = deals[number]
    match = open_match(record)
    deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra") or {},
                            deal_obj.get("dealer"))
    if not _finishes(match, deal, deal_obj):
        return None
    return [display_order(hand) for hand in deal.dealt_hands()]


def display_order(hand: Sequence[str]) -> list[str]:
    """A hand (record notation) in the order it is shown: by suit, high to low."""
    return [name(c) for c in sort_for_display(card(x) for x in hand)]


def _deal_pages(seating: Seating, match: Match, number: int, deal_obj: Mapping[str, Any],
                illegal: Mapping[str, Any] | None, finished_only: bool) -> list[Text]:
    t = seating.t
    title = deal_title(number, t=t)
    if "summary" in deal_obj:
        summary = match.score_only(deal_obj["summary"], deal_obj.get("dealer"))
        result = deal_result(seating, summary, number=number, match=match.summary())
        return [Text(t.gettext("{title}: scoresheet").format(title=title), result.lines)]
    deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra") or {},
                            deal_obj.get("dealer"))
    title = deal_title(number, deal.record_extra().get("hand_number"), t=t)
    if finished_only and not _finishes(match, deal, deal_obj):
        return [Text(title, (t.gettext("This deal is still being played: its review opens "
                                       "when it is over."),))]
    pages = paginate(t.gettext("{title}: hands as dealt").format(title=title),
                     _hands_page(seating, deal), PAGE_LIMIT, t=t)
    stop = None if illegal is None or illegal["deal"] != number else int(illegal["action"])
    play = _tell(seating, deal, list(deal_obj.get("actions") or []), title, stop)
    if play:
        pages += paginate(t.gettext("{title}: play").format(title=title), play, PAGE_LIMIT,
                          t=t)
    if deal.is_over:
        summary = match.finish_deal()
        result = deal_result(seating, summary, number=number, match=match.summary(),
                             deal=deal_obj)
        pages += paginate(t.gettext("{title}: result").format(title=title),
                          list(result.lines), PAGE_LIMIT, t=t)
    return pages


def review_pages(record: Mapping[str, Any], seating: Seating | None = None, *,
                 deal: int | None = None, with_match: bool = True,
                 finished_only: bool = True) -> list[Text]:
    """The review of a record: every deal (or only deal ``deal``, 0-based), then the match
    result when the record's match is over (``with_match``). ``seating`` names the players
    (default: ``Seat 0`` …).

    The review shows every hand, so by default (``finished_only``) a deal that the record
    does not finish is not told: one page says it is still being played (a table's record
    holds the deal in play). ``tricktable replay --show`` tells everything the file holds."""
    out, status = replay(record)
    if status == 2:
        t = seating.t if seating is not None else or_english(None)
        return [Text(t.gettext("This record cannot be read"), (str(out.get("error")),))]
    seating = seating or seating_for(record)
    t = seating.t
    match = open_match(record)
    pages: list[Text] = []
    illegal = out.get("illegal")
    try:
        for number, deal_obj in enumerate(_deals_of(record)):
            if number >= len(out["deals"]):
                break
            if deal is not None and number > deal:
                break
            told = _deal_pages(seating, match, number, deal_obj, illegal, finished_only)
            if deal is None or number == deal:
                pages += told
    except GameError as exc:  # pragma: no cover - replay() accepted the record
        pages.append(Text(t.gettext("This record cannot be read"), (str(exc),)))
    if with_match and deal is None and match.over:
        pages.append(match_result(seating, match.summary()))
    return pages


def show_text(text: str, *, t: Translator | None = None) -> tuple[str, int]:
    """``tricktable replay FILE --show``: the review of a record given as JSON text, as
    plain text in ``t``'s language (English by default), with ``replay``'s exit status
    (0 valid, 1 an action refused, 2 invalid). A refused action is told with the engine's
    reason in ``t``'s language (:mod:`bot.words.refusals`); a record that cannot be read is
    told with the engine's English words for its fields."""
    t = or_english(t)
    out, status = replay_text(text)
    if status == 2:
        return t.gettext("This record cannot be read: {error}").format(
            error=out.get("error")), 2
    record = json.loads(text)
    pages = review_pages(record, seating_for(record, t=t), finished_only=False)
    return "\n\n".join(page.render() for page in pages), status

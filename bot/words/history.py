"""A match so far, from its record: the deal in play told as its log, and the score sheet.

A front end that (re)joins a table mid-deal — a web page after a reload, the server after
``--resume`` — has missed the events told so far. :func:`match_so_far` replays the table's
record (``docs/records.md``; the live match's own record) through the engine, as the review
does (:mod:`bot.words.review`), and returns:

* the deal in play's **log**: every event of that deal the reader may see
  (:meth:`games.base.Event.visible_to`), each in the sentence the live table told
  (:func:`bot.words.events.event_line`), after the deal's first line (``Deal 3: Ann
  deals.``);
* the **score sheet**: each finished deal's number, dealer, trump (or why it was dealt
  again), each side's score of that deal and the running totals, with the columns named
  from the reader's side (``us``/``them``, ``you``; :mod:`bot.words.table_state`).

Nothing of a hand is told that the reader's seat did not see live: the events are
filtered by seat exactly as the table service filters them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_
from bot.service.events import DealStartedData
from bot.words.cards import suit_text
from bot.words.events import event_line
from bot.words.results import UNITS, deal_title
from bot.words.seating import Seating
from bot.words.table_state import side_label, who
from games.actions import action_from_json
from games.base import Deal
from games.errors import GameError
from games.event_types import DealSummary
from games.records import _deals_of, open_match

REDEALT = N_("dealt again")
"""The score sheet's note for a deal that was dealt again (a misdeal, every player
passing)."""


@dataclass(frozen=True)
class SheetRow:
    """One finished deal on the score sheet (numbers as the reader's language writes
    them)."""

    deal: int
    title: str
    dealer: str
    note: str
    points: tuple[str, ...]
    totals: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """The score sheet: its title, the unit counted, the columns (the sides, or the
    players) and a row per finished deal."""

    title: str
    unit: str
    columns: tuple[str, ...]
    rows: tuple[SheetRow, ...]


@dataclass(frozen=True)
class SoFar:
    """The deal in play (0-based) with its log, and the score sheet."""

    deal: int
    lines: tuple[str, ...]
    sheet: Sheet


@dataclass(frozen=True)
class Scored:
    """The finished deals of a record without words (the same for every reader): each
    deal's number, summary and the totals before and after it; the totals before the
    first; and the deal in play with its engine state replayed."""

    start: tuple[int, ...]
    deals: tuple[tuple[int, DealSummary, tuple[int, ...], tuple[int, ...]], ...]
    current: int
    """The deal in play (0-based; the number of deals when none is)."""


def scored_deals(record: Mapping[str, Any]) -> Scored:
    """Replay ``record``'s finished deals (module docstring): what every reader's score
    sheet is made of (:func:`score_sheet`)."""
    match = open_match(record)
    start = totals = tuple(match.summary()["totals"])
    deals: list[tuple[int, DealSummary, tuple[int, ...], tuple[int, ...]]] = []
    current = 0
    for number, deal_obj in enumerate(_deals_of(record)):
        current = number
        if "summary" in deal_obj:
            summary = match.score_only(deal_obj["summary"], deal_obj.get("dealer"))
        else:
            deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra") or {},
                                    deal_obj.get("dealer"))
            try:
                for raw in deal_obj.get("actions") or []:
                    deal.apply(*action_from_json(raw, "action"))
            except GameError:  # a live record replays; an unreadable one tells no more
                break
            if not deal.is_over:
                break
            summary = match.finish_deal()
        after = tuple(match.summary()["totals"])
        deals.append((number, summary, totals, after))
        totals, current = after, number + 1
    return Scored(start, tuple(deals), current)


def score_sheet(scored: Scored, seating: Seating) -> Sheet:
    """The score sheet of ``scored`` in ``seating``'s words, for its reader."""
    t, me = seating.t, seating.reader
    by_side = len(scored.start) == len(seating.sides)
    columns = tuple(side_label(seating, i, me) if by_side else who(seating, i, me)
                    for i in range(len(scored.start)))
    rows = tuple(_row(seating, number, summary, list(before), list(after))
                 for number, summary, before, after in scored.deals)
    return Sheet(t.gettext("Score sheet"), t.gettext(UNITS[seating.game]), columns, rows)


def match_so_far(record: Mapping[str, Any], seating: Seating,
                 scored: Scored | None = None) -> SoFar:
    """The match of ``record`` so far for ``seating``'s reader (module docstring);
    ``scored``: its :func:`scored_deals`, when already replayed."""
    scored = scored_deals(record) if scored is None else scored
    deals = _deals_of(record)
    lines: list[str] = []
    if scored.current < len(deals) and "summary" not in deals[scored.current]:
        # the deal in play, told to the reader: a fresh match replayed up to it
        match = open_match(record)
        for deal_obj in deals[:scored.current]:
            if "summary" in deal_obj:
                match.score_only(deal_obj["summary"], deal_obj.get("dealer"))
            else:
                done = match.start_deal(deal_obj["hands"], deal_obj.get("extra") or {},
                                        deal_obj.get("dealer"))
                for raw in deal_obj.get("actions") or []:
                    done.apply(*action_from_json(raw, "action"))
                match.finish_deal()
        deal_obj = deals[scored.current]
        deal = match.start_deal(deal_obj["hands"], deal_obj.get("extra") or {},
                                deal_obj.get("dealer"))
        lines = _told(seating, scored.current, deal, deal_obj.get("actions") or [])
    return SoFar(scored.current, tuple(lines), score_sheet(scored, seating))


def _told(seating: Seating, number: int, deal: Deal, actions: list[Any]) -> list[str]:
    """The deal's log for the reader: its first line, then each event they may see."""
    me = seating.reader
    started: DealStartedData = {"deal": number, "dealer": deal.dealer}
    lines = [event_line(seating, "deal_started", started) or ""]
    try:
        for raw in actions:
            seat, action = action_from_json(raw, "action")
            for event in deal.apply(seat, action):
                if event.visible_to(me):
                    line = event_line(seating, event.type, event.data)
                    if line:
                        lines.append(line)
    except GameError:  # a live record replays; an unreadable one tells no more
        pass
    return lines


def _row(seating: Seating, number: int, summary: DealSummary, before: list[int],
         after: list[int]) -> SheetRow:
    t, me = seating.t, seating.reader
    dealer = summary.get("dealer")
    trump = summary.get("trump")
    if summary.get("redeal") or summary.get("hand_void") or summary.get("misdeal"):
        note = t.gettext(REDEALT)
    elif trump:
        note = suit_text(trump, t)
    else:
        note = ""
    return SheetRow(
        deal=number, title=deal_title(number, summary.get("hand_number"), t=t),
        dealer="" if dealer is None else who(seating, int(dealer), me), note=note,
        points=tuple(t.number(a - b) for a, b in zip(after, before, strict=True)),
        totals=tuple(t.number(a) for a in after))

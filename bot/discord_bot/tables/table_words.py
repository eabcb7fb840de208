"""The table's players and results in players' words, for Discord (:mod:`bot.words`).

Discord renders markdown and mentions, so the names handed to :mod:`bot.words` are
escaped first (:func:`~bot.discord_bot.drawing.safe.safe_name`): a member named
``**Bold** <@1> @everyone`` reads exactly so and pings nobody. An AI seat is named as
everywhere else (``AI 2 (rules)``). Every message the game posts is built here from the
engine's data: the deal result and the match result (:mod:`bot.words.results`) and the
table's facts (trump with who called or turned it, bids, runs, bella, the running count:
:func:`bot.words.table_state.table_facts`), never from engine keys or card codes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.discord_bot.drawing.safe import safe_name
from bot.discord_bot.drawing.texts import clip, display_names
from bot.i18n import Translator
from bot.i18n.commands import command
from bot.service import RuleRefusal, Seat, TableInfo
from bot.service.events import DealScoredData, MatchOverData
from bot.words.events import event_line
from bot.words.refusals import Refused
from bot.words.results import deal_result, match_result
from bot.words.seating import Seating
from bot.words.table_state import reason_text, table_facts
from games.event_types import PlayData
from games.view_types import GameView


def seating_of(game: str, seats: Sequence[Seat | None], options: Mapping[str, Any] | None,
               t: Translator) -> Seating:
    """The :class:`~bot.words.seating.Seating` of a table, names escaped for Discord,
    speaking ``t``'s language."""
    return Seating.of(game, display_names(seats, t), options, t=t)


def table_seating(info: TableInfo, t: Translator) -> Seating:
    return seating_of(info.game, info.seats, info.options, t)


def refusal_sentence(refusal: Refused, info: TableInfo | None, t: Translator) -> str:
    """A refusal of the rules as its player reads it privately: in ``t``'s language with the
    table's names (escaped) and cards as ``K♣`` (:func:`bot.words.refusals.refusal_text`),
    first letter upper, ending with a full stop. Without the table's info, the names are
    the seats' (``Seat 2``). Someone's input the engine quotes back (a forged card, an
    unknown seat) is shown literally (:func:`safe_fields`)."""
    seating = (table_seating(info, t) if info is not None
               else Seating.anonymous("albastini", 6, t=t))  # any game seating six
    text = reason_text(_Refusal(refusal.template, safe_fields(refusal.params)), seating)
    return text if text.endswith((".", "!", "?", "…")) else text + "."


@dataclass(frozen=True, slots=True)
class _Refusal:
    """A refusal's template with the fields it is to be worded with."""

    template: str
    params: Mapping[str, Any]


_OUR_WORDS = ("seat", "card", "suit", "action")
"""Field kinds the renderer replaces with words of its own (names come escaped)."""


def safe_fields(params: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal's fields with every text shown as written (the engine's quotation of
    someone's input, words) escaped by :func:`~bot.discord_bot.drawing.safe.safe_name`, so it can
    neither format the message nor ping; nested sentences (``parts``) alike."""
    out: dict[str, Any] = {}
    for key, value in params.items():
        if key.startswith("parts") and isinstance(value, (list, tuple)):
            out[key] = [(part[0], safe_fields(part[1])) for part in value]
        elif key.startswith(_OUR_WORDS):
            out[key] = value
        elif isinstance(value, str):
            out[key] = safe_name(value)
        elif isinstance(value, (list, tuple)):
            out[key] = [safe_name(v) if isinstance(v, str) else v for v in value]
        else:
            out[key] = value
    return out


def rule_refusal(outcome_rule: Mapping[str, Any] | None, reason: str) -> RuleRefusal | None:
    """The refusal of the rules a forwarded outcome carries (its ``rule``), if any."""
    return None if outcome_rule is None else RuleRefusal.from_json(outcome_rule, reason)


def public_facts(info: TableInfo, game_view: GameView, t: Translator
                 ) -> list[tuple[str, str]]:
    """The public view's facts in words (``(label, sentence)`` pairs): what the table
    message shows under the seats."""
    return table_facts(game_view, table_seating(info, t), None)


def worded_view(info: TableInfo, game_view: GameView, t: Translator) -> GameView:
    """``game_view`` with its ``facts`` replaced by :func:`public_facts` (the engine's own facts
    carry card codes and seat numbers)."""
    out = game_view.copy()
    out["facts"] = [list(fact) for fact in public_facts(info, game_view, t)]
    return out


def deal_result_text(info: TableInfo, data: DealScoredData, t: Translator) -> str:
    """A ``deal_scored`` event as the channel reads it: the title with the table, then
    the result in words with the running score."""
    summary = data.get("summary") or {}
    match = data.get("match") or None
    text = deal_result(table_seating(info, t), summary, number=int(data.get("deal", 0)),
                       match=match)
    head = t.gettext("**{deal} of table {table} is over.**").format(deal=text.title,
                                                                   table=info.id)
    return clip(f"{head}\n{text.body}", 1990)


def match_result_text(info: TableInfo, data: MatchOverData, t: Translator) -> str:
    """A ``match_over`` event (or the stored match of a table that finished meanwhile) as
    the channel reads it."""
    summary = data.get("summary") or {}
    text = match_result(table_seating(info, t), summary)
    lines = [t.gettext("🏁 **The match at table {table} is over.**").format(table=info.id),
             text.body]
    if data.get("match_id") is not None:
        # Translators: {command} is a command (/table export) shown as a link.
        lines.append(t.gettext("{command} gives the record of the match.").format(
            command=command("table export", t)))
    return clip("\n".join(lines), 1990)


def signal_note(info: TableInfo, data: PlayData, t: Translator) -> str:
    """A lead with a signal (a ``play`` event), as the table message shows it:
    ``Ann led K♣, signalling: strong suit.``"""
    return event_line(table_seating(info, t), "play", data) or ""

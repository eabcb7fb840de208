"""The table service's events and state as web frames, in one viewer's words.

:class:`Words` holds what wording needs for one viewer (the table's seating in the viewer's
language, the viewer's seat, the AI levels) and turns a ``state`` event into a
:class:`~bot.web.protocol.TableFrame`, a game event into a
:class:`~bot.web.protocol.LineFrame` (:func:`bot.words.events.event_line`), a deal's score
into a :class:`~bot.web.protocol.DealResultFrame` with its review
(:mod:`bot.words.review`) and the match's end into a
:class:`~bot.web.protocol.MatchOverFrame`. It reads only what the event gives (the seat's
own view, filtered by the engine), so a frame can hold nothing the seat may not see.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, Translator
from bot.service.events import DealScoredData, EventData, StateData
from bot.service.seats import Seat
from bot.service.tables import TableInfo
from bot.terminal.choices import Choices, needs_confirmation
from bot.web.protocol import (
    VERSION,
    Choice,
    DealResultFrame,
    HelloFrame,
    Labels,
    LineFrame,
    LobbyFrame,
    MatchOverFrame,
    Page,
    SeatInfo,
    TableFrame,
    Trick,
    TrickCard,
)
from bot.words.actions import action_text
from bot.words.events import event_line, signal_text, trick_line
from bot.words.players import level_name, player_name, says_level
from bot.words.results import deal_result, match_result
from bot.words.review import review_pages
from bot.words.seating import Seating
from bot.words.table_state import (
    YOUR_TURN_CARD,
    YOUR_TURN_CHOOSE,
    match_facts,
    score_line,
    table_facts,
    trick_cards,
    trump_fact,
)
from games.actions import Action
from games.event_types import MatchSummary
from games.registry import GAMES
from games.trick import TrickJSON
from games.view_types import GameView, is_tarabish

CONCEDE_QUESTION = N_("Concede the deal? The opponents score the whole deal.")


def seat_names(seats: Sequence[Seat | None], t: Translator) -> list[str]:
    """The names the page shows (as text: the page never reads them as HTML): each seat's
    player name (:func:`bot.words.players.player_name`: ``AI 2 (rules)``)."""
    return [player_name(s, i, t) if s is not None else t.gettext("empty")
            for i, s in enumerate(seats)]


@dataclass(frozen=True)
class Words:
    """The wording of one viewer: ``me`` is the seat (``None``: a spectator); ``levels``
    the AI seats' levels, ``named_levels`` whether a seat's name already says its level."""

    seating: Seating
    me: int | None
    levels: tuple[str | None, ...]
    named_levels: tuple[bool, ...]

    @staticmethod
    def of(info: TableInfo, me: int | None, t: Translator) -> Words:
        seating = Seating.of(info.game, seat_names(info.seats, t), info.options, t=t)
        levels = tuple(s.level if s is not None and s.is_ai else None for s in info.seats)
        named = tuple(s is not None and says_level(s, i) for i, s in enumerate(info.seats))
        return Words(seating, me, levels, named)

    @property
    def t(self) -> Translator:
        return self.seating.t

    def hello(self, info: TableInfo) -> HelloFrame:
        t = self.t
        labels: Labels = {
            "you": t.gettext("(you)"), "partner": t.gettext("(partner)"),
            "dealer": t.gettext("dealer"), "trump": t.gettext("Trump"),
            "last_trick": t.gettext("Last trick"), "review": t.gettext("Review"),
            "back": t.gettext("Back"), "tricks": t.gettext("Tricks"),
            "bella": t.gettext("Bella"), "hand": t.gettext("My hand"),
            "your_turn": t.gettext(YOUR_TURN_CARD),
            "your_turn_choose": t.gettext(YOUR_TURN_CHOOSE),
        }
        return {"v": VERSION, "type": "hello", "table": info.id, "game": info.game,
                "title": GAMES[info.game].title, "seat": self.me, "language": t.language,
                "labels": labels}

    def lobby(self, info: TableInfo) -> LobbyFrame:
        return {"v": VERSION, "type": "lobby", "seats": list(self.seating.names)}

    # -- the table ---------------------------------------------------------------------
    def table(self, data: StateData, version: int) -> TableFrame:
        """A ``state`` event's data as the viewer's table."""
        view = data.get("view")
        seating, me = self.seating, self.me
        to_act = list(data.get("to_act") or [])
        hand = list(view.get("hand") or []) if view else []
        legal = list(data.get("legal") or []) if me is not None else []
        match = data.get("match") or {}
        facts = [(label, text) for label, text in table_facts(view, seating, me)] if view \
            else []
        facts += list(match_facts(match, seating, me))
        trump = view.get("trump") if view else None
        choices = self._choices(legal, hand)
        return {
            "v": VERSION, "type": "table", "version": version,
            "status": data.get("status", ""), "deal": data.get("deal") or 0,
            "phase": view.get("phase", "") if view else "",
            "seats": self._seats(view, to_act),
            "trump": trump,
            "trump_text": trump_fact(view, seating, me) if view else "",
            "trick": self._current(view),
            "last_trick": self._last(view),
            "hand": hand,
            "choices": choices,
            "variants": [(v, self.variant_label(v)) for v in dict.fromkeys(
                c["variant"] for c in choices if c["variant"])],
            "facts": facts,
            "score": score_line(match, seating, me) if match else "",
            "deadline": data.get("deadline"),
            "your_turn": bool(legal),
        }

    def _seats(self, view: GameView | None, to_act: list[int]) -> list[SeatInfo]:
        seating, me, t = self.seating, self.me, self.t
        sizes = view["hand_sizes"] if view else []
        dealer = view["dealer"] if view else None
        out: list[SeatInfo] = []
        for seat in range(seating.players):
            partner = (me is not None and seat != me and seating.partnerships
                       and seating.side_of(seat) == seating.side_of(me))
            level = self.levels[seat] if seat < len(self.levels) else None
            parts = [seating.name(seat)]
            if seat == me:
                parts.append(t.gettext("(you)"))
            elif partner:
                parts.append(t.gettext("(partner)"))
            if level and not (seat < len(self.named_levels) and self.named_levels[seat]):
                parts.append(t.gettext("{level} AI").format(level=level_name(level, t)))
            if dealer == seat:
                parts.append("· " + t.gettext("dealer"))
            out.append({"seat": seat, "name": seating.name(seat), "ai": level is not None,
                        "you": seat == me, "partner": partner,
                        "dealer": dealer == seat, "to_act": seat in to_act,
                        "cards": int(sizes[seat]) if seat < len(sizes) else 0,
                        "label": " ".join(parts)})
        return out

    def _current(self, view: GameView | None) -> Trick:
        if view is None:
            return {"leader": None, "cards": [], "winner": None, "line": ""}
        trick = view["trick"]
        cards = [(int(s), str(c)) for s, c in trick["cards"]]
        leader: int | None = trick["leader"]
        return {"leader": None if leader is None else int(leader),
                "cards": [TrickCard(seat=s, card=c) for s, c in cards], "winner": None,
                "line": trick_cards(cards, self.seating, self.me) if cards else ""}

    def _last(self, view: GameView | None) -> Trick | None:
        """The last completed trick of the deal (every card face up), if any: the last of
        the view's ``tricks``, else (a game that keeps only one) its ``last_trick``."""
        if view is None:
            return None
        tricks = view["tricks"]
        last: TrickJSON | None = tricks[-1] if tricks else (
            view["last_trick"] if is_tarabish(view) else None)
        if last is None:
            return None
        cards = [(int(s), str(c)) for s, c in last["cards"]]
        return {"leader": last["leader"],
                "cards": [TrickCard(seat=s, card=c) for s, c in cards],
                "winner": last["winner"],
                "line": trick_line(self.seating, last, len(tricks) if tricks else None)}

    def _choices(self, legal: list[Action], hand: list[str]) -> list[Choice]:
        t, game = self.t, self.seating.game
        folded = Choices.of(legal, hand)
        out: list[Choice] = []
        for card, choice in folded.cards.items():
            for a in choice.actions:
                variant = "bella" if a.bella else a.signal
                out.append({"action": a.record(), "label": action_text(a, game, t=t),
                            "card": card, "variant": variant, "confirm": None})
        for a in folded.multi:
            if a.cards is not None and len(a.cards) > 1:
                out.append({"action": a.record(), "label": action_text(a, game, t=t),
                            "card": None, "variant": None, "confirm": None})
        for a in folded.others:
            question = t.gettext(CONCEDE_QUESTION) if needs_confirmation(a) else None
            out.append({"action": a.record(), "label": action_text(a, game, t=t),
                        "card": None, "variant": None, "confirm": question})
        return out

    def variant_label(self, variant: str) -> str:
        return self.t.gettext("Bella") if variant == "bella" else signal_text(variant, self.t)

    # -- events ------------------------------------------------------------------------
    def line(self, kind: str, data: EventData) -> LineFrame | None:
        text = event_line(self.seating, kind, data)
        if not text:
            return None
        return {"v": VERSION, "type": "line", "kind": kind, "text": text}

    def deal_result(self, data: DealScoredData, record: Mapping[str, Any] | None, *,
                    review: bool = True) -> DealResultFrame:
        """The deal's result in words and, with ``record`` and ``review``, its review
        (every hand as dealt: not for a duplicate board, whose review is its reveal's)."""
        number = int(data.get("deal") or 0)
        deals = (record or {}).get("deals") or []
        deal_obj = deals[number] if number < len(deals) else None
        text = deal_result(self.seating, data["summary"], number=number,
                           match=data.get("match") or None, deal=deal_obj)
        pages: list[Page] = []
        if record is not None and review:
            pages = [{"title": p.title, "lines": list(p.lines)}
                     for p in review_pages(record, self.seating, deal=number,
                                           with_match=False)]
        return {"v": VERSION, "type": "deal_result", "deal": number, "title": text.title,
                "lines": list(text.lines), "review": pages}

    def match_over(self, summary: MatchSummary) -> MatchOverFrame:
        text = match_result(self.seating, summary)
        return {"v": VERSION, "type": "match_over", "title": text.title,
                "lines": list(text.lines)}

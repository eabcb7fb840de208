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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.i18n import N_, Translator
from bot.service.events import DealScoredData, EventData, StateData
from bot.service.seats import Seat
from bot.service.tables import TableInfo
from bot.web.protocol import (
    VERSION,
    Choice,
    DealResultFrame,
    HelloFrame,
    HistoryFrame,
    Labels,
    LineFrame,
    LobbyFrame,
    MatchOverFrame,
    Page,
    ScoreSheet,
    SeatInfo,
    SpectatorsFrame,
    TableFrame,
    Trick,
    TrickCard,
)
from bot.words.actions import action_text
from bot.words.cards import suit_text
from bot.words.choices import Choices, needs_confirmation
from bot.words.events import event_line, played_text, signal_text, trick_line, truf_bid_value
from bot.words.history import Scored, Sheet, match_so_far, score_sheet, scored_deals
from bot.words.players import seat_player, web_name
from bot.words.results import UNITS, deal_result, match_result
from bot.words.review import review_pages
from bot.words.rules import summary_pages
from bot.words.seating import Seating, join_names
from bot.words.table_state import (
    YOUR_TURN_CARD,
    YOUR_TURN_CHOOSE,
    cap,
    match_facts,
    score_line,
    table_facts,
    trump_fact,
)
from games.actions import Action
from games.event_types import MatchSummary
from games.registry import GAMES
from games.trick import TrickJSON
from games.view_types import GameView, is_tarabish

CONCEDE_QUESTION = N_("Concede the deal? The opponents score the whole deal.")
FORCED = N_("Your only choice: {action}.")
PROMPT_TRUF_BID = N_("Your bid: tap a card; it bids what it is worth (shown under it).")
PROMPT_BID = N_("Your bid: tap a card to bid its suit as trump, or pass.")
PROMPT_RUNS = N_("Your turn: declare your runs, or tap a lit card.")
PROMPT_MUST_CALL = N_("Your call: name trump (you may not pass).")
PROMPTS = (
    ("call_trump", N_("Your call: name trump, or pass.")),
    ("kort", N_("Kort: play on for all nine tricks, or stop at five?")),
    ("declare_kort", N_("Your turn: declare kort, or play on.")),
    ("adjust", N_("The bids total 13: move every bid up or down.")),
    ("answer", N_("Your partner asks: how many more tricks do you expect?")),
    ("ask_partner", N_("Your turn: ask your partner, or choose below.")),
)
"""The prompt of a decision made by buttons, by the first of its action types found."""


def seat_names(seats: Sequence[Seat | None], t: Translator) -> list[str]:
    """The names the page shows (as text: the page never reads them as HTML): each seat's
    name in the page's sentences (:func:`bot.words.players.web_name`: ``Bilal``, ``AI 2
    (strong)``)."""
    return [web_name(s, i, t) if s is not None else t.gettext("empty")
            for i, s in enumerate(seats)]


Avatars = Callable[[int], "str | None"]
"""A user's avatar URL (Discord's CDN) when the server knows it, else None."""


def no_avatar(user: int) -> str | None:
    return None


@dataclass(frozen=True)
class Words:
    """The wording of one viewer: ``me`` is the seat (``None``: a spectator), named
    ``you`` in every sentence (the seating's reader: :meth:`Seating.reading`); ``names``
    the seats' names, ``players`` who sits there with an AI's level in players' words
    (:func:`bot.words.players.seat_player`), ``avatars`` their avatar URLs when known."""

    seating: Seating
    me: int | None
    names: tuple[str, ...]
    players: tuple[str, ...]
    ai: tuple[bool, ...]
    avatars: tuple[str | None, ...] = ()

    @staticmethod
    def of(info: TableInfo, me: int | None, t: Translator,
           avatars: Avatars = no_avatar) -> Words:
        names = seat_names(info.seats, t)
        seating = Seating.of(info.game, names, info.options, t=t).reading(me)
        players = tuple(seat_player(s, i, t) if s is not None else t.gettext("empty")
                        for i, s in enumerate(info.seats))
        faces = tuple(avatars(s.user_id) if s is not None and s.user_id is not None
                      else None for s in info.seats)
        ai = tuple(s is not None and s.is_ai for s in info.seats)
        return Words(seating, me, tuple(names), players, ai, faces)

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
            "score_sheet": t.gettext("Score sheet"), "log": t.gettext("What happened"),
            "help": t.gettext("Rules"), "why": t.gettext("Why not?"),
            "play_again": t.gettext("Play again"),
        }
        return {"v": VERSION, "type": "hello", "table": info.id, "game": info.game,
                "title": GAMES[info.game].title, "seat": self.me, "language": t.language,
                "labels": labels, "help": help_pages(info.game, t)}

    def lobby(self, info: TableInfo) -> LobbyFrame:
        return {"v": VERSION, "type": "lobby", "seats": list(self.seating.names)}

    # -- the table ---------------------------------------------------------------------
    def table(self, data: StateData, version: int) -> TableFrame:
        """A ``state`` event's data as the viewer's table."""
        view = data.get("view")
        seating, me, t = self.seating, self.me, self.t
        to_act = list(data.get("to_act") or [])
        hand = list(view.get("hand") or []) if view else []
        legal = list(data.get("legal") or []) if me is not None else []
        match = data.get("match") or {}
        facts = [(label, text) for label, text in table_facts(view, seating, me)] if view \
            else []
        facts += list(match_facts(match, seating, me))
        trump = view.get("trump") if view else None
        folded = Choices.of(legal, hand)
        choices = self._choices(folded)
        forced = folded.forced
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
            "prompt": self._prompt(folded, to_act),
            "forced": None if forced is None else t.gettext(FORCED).format(
                action=action_text(forced, seating.game, t=t)),
        }

    def _seats(self, view: GameView | None, to_act: list[int]) -> list[SeatInfo]:
        seating, me, t = self.seating, self.me, self.t
        sizes = view["hand_sizes"] if view else []
        dealer = view["dealer"] if view else None
        out: list[SeatInfo] = []
        for seat in range(seating.players):
            partner = bool(me is not None and seat != me and seating.partnerships
                           and seating.side_of(seat) == seating.side_of(me))
            player = self.players[seat] if seat < len(self.players) else ""
            parts = [player]
            if seat == me:
                parts.append(t.gettext("(you)"))
            elif partner:
                parts.append(t.gettext("(partner)"))
            if dealer == seat:
                parts.append("· " + t.gettext("dealer"))
            out.append({"seat": seat, "name": self.names[seat] if seat < len(self.names)
                        else "", "ai": seat < len(self.ai) and self.ai[seat],
                        "you": seat == me, "partner": partner,
                        "dealer": dealer == seat, "to_act": seat in to_act,
                        "cards": int(sizes[seat]) if seat < len(sizes) else 0,
                        "label": " ".join(parts), "player": player,
                        "avatar": self.avatars[seat] if seat < len(self.avatars) else None})
        return out

    def _prompt(self, choices: Choices, to_act: list[int]) -> str:
        """What the table waits for (the protocol's ``prompt``): the viewer's decision in
        words, else who is to act."""
        t, game = self.t, self.seating.game
        if choices.legal:
            kind = choices.kind
            types = {a.type for a in choices.others}
            if kind == "play":
                if "declare_runs" in types:
                    return t.gettext(PROMPT_RUNS)
                return t.gettext(YOUR_TURN_CARD)
            if kind == "bid":
                bid = PROMPT_TRUF_BID if game == "truf" else PROMPT_BID
                return t.gettext(bid)
            if "call_trump" in types and "pass" not in types:
                return t.gettext(PROMPT_MUST_CALL)
            for key, prompt in PROMPTS:
                if key in types:
                    return t.gettext(prompt)
            return t.gettext(YOUR_TURN_CHOOSE)
        waiting = [s for s in to_act if s != self.me]
        if not waiting:
            return ""
        return t.gettext("Waiting for {players}.").format(
            players=join_names([self.seating.name(s) for s in waiting], t))

    def _current(self, view: GameView | None) -> Trick:
        if view is None:
            return {"leader": None, "cards": [], "winner": None, "line": ""}
        trick = view["trick"]
        cards = [(int(s), str(c)) for s, c in trick["cards"]]
        leader: int | None = trick["leader"]
        line = ""
        if cards:
            # Translators: the trick being played, e.g. "Ann led K♥, you 7♥".
            line = self.t.gettext("On the table: {cards}.").format(
                cards=played_text(self.seating, cards))
        return {"leader": None if leader is None else int(leader),
                "cards": [TrickCard(seat=s, card=c) for s, c in cards], "winner": None,
                "line": line}

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

    def _choices(self, folded: Choices) -> list[Choice]:
        t, game = self.t, self.seating.game
        out: list[Choice] = []
        for card, choice in folded.cards.items():
            for a in choice.actions:
                variant = "bella" if a.bella else a.signal
                out.append({"action": a.record(), "label": action_text(a, game, t=t),
                            "card": card, "variant": variant, "confirm": None,
                            "caption": self._caption(a)})
        for a in folded.multi:
            if a.cards is not None and len(a.cards) > 1:
                out.append({"action": a.record(), "label": action_text(a, game, t=t),
                            "card": None, "variant": None, "confirm": None,
                            "caption": self._caption(a)})
        for a in folded.others:
            question = t.gettext(CONCEDE_QUESTION) if needs_confirmation(a) else None
            out.append({"action": a.record(), "label": action_text(a, game, t=t),
                        "card": None, "variant": None, "confirm": question,
                        "caption": None})
        return out

    def _caption(self, action: Action) -> str | None:
        """A bid card's caption: what a Truf bid is worth, which trump an Albastini bid
        asks for."""
        if action.type != "bid":
            return None
        t = self.t
        cards = [action.card] if action.card else list(action.cards or ())
        if self.seating.game == "truf":
            # Translators: under a bid card: the number it bids.
            return t.gettext("worth {value}").format(value=t.number(truf_bid_value(cards)))
        if cards:
            # Translators: under a bid card: the suit it bids as trump, e.g. "trump ♥ hearts".
            return t.gettext("trump {suit}").format(suit=suit_text(cards[0][-1], t))
        return None

    def variant_label(self, variant: str) -> str:
        return self.t.gettext("Bella") if variant == "bella" else signal_text(variant, self.t)

    # -- events ------------------------------------------------------------------------
    def line(self, kind: str, data: EventData, *, personal: bool = True
             ) -> LineFrame | None:
        """The event in one sentence; ``personal=False``: worded for everyone (the viewer's
        seat is not in it: :func:`names_only`)."""
        seating = self.seating if personal else self.seating.reading(None)
        text = event_line(seating, kind, data)
        if not text:
            return None
        return {"v": VERSION, "type": "line", "kind": kind, "text": cap(text)}

    def history(self, record: Mapping[str, Any]) -> HistoryFrame:
        """The deal in play's log and the score sheet, from the table's record (sent on
        join: :mod:`bot.words.history`)."""
        so_far = match_so_far(record, self.seating)
        return {"v": VERSION, "type": "history", "deal": so_far.deal,
                "lines": [cap(line) for line in so_far.lines],
                "sheet": sheet_json(so_far.sheet)}

    def spectators(self, count: int) -> SpectatorsFrame:
        text = "" if not count else self.t.ngettext(
            "{count} watching", "{count} watching", count).format(count=self.t.number(count))
        return {"v": VERSION, "type": "spectators", "count": count, "text": text}

    def deal_result(self, data: DealScoredData, record: Mapping[str, Any] | None, *,
                    review: bool = True, scored: Scored | None = None) -> DealResultFrame:
        """The deal's result in words and, with ``record`` and ``review``, its review
        (every hand as dealt: not for a duplicate board, whose review is its reveal's)."""
        number = int(data.get("deal") or 0)
        deals = (record or {}).get("deals") or []
        deal_obj = deals[number] if number < len(deals) else None
        text = deal_result(self.seating, data["summary"], number=number,
                           match=data.get("match") or None, deal=deal_obj)
        sheet: ScoreSheet = {"title": self.t.gettext("Score sheet"),
                             "unit": self.t.gettext(UNITS[self.seating.game]), "columns": [],
                             "rows": []}
        if record is not None:
            scored = scored_deals(record) if scored is None else scored
            sheet = sheet_json(score_sheet(scored, self.seating))
        pages: list[Page] = []
        if record is not None and review:
            pages = [{"title": p.title, "lines": list(p.lines)}
                     for p in review_pages(record, self.seating, deal=number,
                                           with_match=False)]
        following = data.get("match") or {}
        upcoming = None
        if review and not following.get("over"):
            # Translators: the button closing a deal's result: the next deal has begun.
            after = following.get("next_hand_number") or number + 2  # Truf counts hands
            upcoming = self.t.gettext("On to deal {n}").format(n=self.t.number(int(after)))
        return {"v": VERSION, "type": "deal_result", "deal": number, "title": text.title,
                "lines": [cap(line) for line in text.lines], "review": pages, "sheet": sheet,
                "next": upcoming}

    def match_over(self, summary: MatchSummary, *, again: bool = False) -> MatchOverFrame:
        """The match's end from the viewer's side; ``again``: offer **Play again**."""
        text = match_result(self.seating, summary)
        return {"v": VERSION, "type": "match_over", "title": text.title,
                "lines": [cap(line) for line in text.lines],
                "again": self.t.gettext("Play again") if again else None}


_NAMED_BY = {
    "play": ("seat",), "pass": ("seat",), "bid_placed": ("seat",), "bid": ("seat",),
    "call_trump": ("seat",), "trump": ("seat",), "declare_runs": ("seat",),
    "bella": ("seat",), "concede": ("seat",), "kort": ("seat",), "answer": ("seat",),
    "adjust": ("seat",), "exchange": ("seat",), "away": ("seat",), "returned": ("seat",),
    "timeout": ("seat",), "ask_partner": ("seat", "partner"), "deal_started": ("dealer",),
    "trump_turned": (), "bottom_card": (), "hand_void": (),
}
"""The seats each kind of event names, by its data's keys (a kind not listed may name
any seat)."""


def names_only(kind: str, data: EventData, seat: int | None) -> bool:
    """Whether ``seat`` is not named by the event: its sentence is then everyone's (one
    wording shared by the spectators and the seats it does not name)."""
    keys = _NAMED_BY.get(kind)
    if keys is None or seat is None:
        return seat is None
    said: Mapping[str, object] = data
    return all(said.get(key) != seat for key in keys)


def help_pages(game: str, t: Translator) -> list[Page]:
    """The game's rules for players, the words of ``tricktable rules`` (its summary's
    sections), as plain text (Markdown's emphasis marks taken out)."""
    return [{"title": page.title, "lines": [line.replace("**", "").replace("`", "")
                                            for line in page.lines]}
            for page in summary_pages(game, t)]


def sheet_json(sheet: Sheet) -> ScoreSheet:
    return {"title": sheet.title, "unit": sheet.unit, "columns": list(sheet.columns),
            "rows": [{"deal": r.deal, "title": r.title, "dealer": r.dealer, "note": r.note,
                      "points": list(r.points), "totals": list(r.totals)}
                     for r in sheet.rows]}

"""Trick-log lines and event lines: what happened at the table, one sentence each.

:func:`trick_line` describes a completed trick (who led, what each played, who won);
:func:`event_line` describes any game event the table service publishes (``docs/service.md``
lists them) in players' words, or returns ``None`` for events that need no line of their
own (``deal_over`` has :func:`bot.words.results.deal_result`; ``hand`` and ``draw`` update a
player's own hand, shown by the hand panel). A card the reader may not see (Truf's face-down
trumps during the trick, other players' draws) is written ``🂠``. The language is the
seating's (:attr:`~bot.words.seating.Seating.translator`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar, cast

from bot.i18n import N_, Translator
from bot.service.events import DealStartedData, EventData, SeatData
from bot.words.cards import card_text, cards_text, suit_text
from bot.words.seating import Seating, join_names
from bot.words.text import or_english
from games.base import HIDDEN
from games.cards import card
from games.event_types import (
    AdjustData,
    AnswerData,
    AskPartnerData,
    BellaData,
    BidData,
    BidPlacedData,
    BidsRevealedData,
    CardData,
    ConcedeData,
    DeclareKortData,
    DeclareRunsData,
    DrawRoundData,
    ExchangeData,
    KortData,
    PlayData,
    SeatOnly,
    SuitChosen,
    TrumpTurnedData,
)
from games.trick import TrickJSON
from games.truf import CARD_VALUE
from games.view_types import RunsJSON

FACE_DOWN = N_("a card face down")
SIGNAL_WORDS = {"strong": N_("strong suit"), "weak": N_("weak suit")}


def signal_text(signal: str, t: Translator | None = None) -> str:
    """A signal token in words: ``strong`` → ``strong suit``; a group's own token as is."""
    word = SIGNAL_WORDS.get(signal)
    return or_english(t).gettext(word) if word else signal


def trick_line(seating: Seating, trick: TrickJSON, number: int | None = None) -> str:
    """``Trick 3: Ann led K♣, Bo 9♣, Cy A♣, Di 6♦; Cy wins.`` (``number`` defaults to the
    trick's own when it says it, as a ``trick`` event's does; Albastini's event adds the
    trick's card ``points``)."""
    t = seating.t
    cards = list(trick["cards"])
    said: Mapping[str, object] = trick  # a TrickData says its number (and maybe points)
    if number is None:
        own = said.get("number")
        number = own if isinstance(own, int) else None
    played = played_text(seating, cards)
    winner = trick["winner"]
    if winner is None:
        line = played
    else:
        line = seating.says(winner, N_("{played}; {player} wins"), N_("{played}; you win"),
                            played=played)
    points = said.get("points")
    if isinstance(points, int) and points:
        # Translators: {line} is a trick: the cards played, e.g. "Ann K♥, Bo 7♥; Ann wins".
        line = t.ngettext("{line} ({count} card point)", "{line} ({count} card points)",
                          points).format(line=line, count=t.number(points))
    if number is None:
        return t.gettext("{line}.").format(line=line)
    # Translators: {n} is the trick's number; {line} the cards played, e.g. "Ann K♥, Bo 7♥; Ann
    # wins".
    return t.gettext("Trick {n}: {line}.").format(n=t.number(number), line=line)


def played_text(seating: Seating, cards: Sequence[Sequence[Any]]) -> str:
    """A trick's cards in play order: ``Ann led K♣, Bo 9♣`` (``you led K♣`` for the
    reader; a card face down, Truf's hidden trump, in words)."""
    t = seating.t
    parts = []
    for i, (seat, code) in enumerate(cards):
        card = t.gettext(FACE_DOWN) if code == HIDDEN else card_text(str(code))
        if i == 0:
            parts.append(seating.says(int(seat), N_("{player} led {card}"),
                                      N_("you led {card}"), card=card))
        else:
            parts.append(t.gettext("{player} {card}").format(player=seating.name(int(seat)),
                                                             card=card))
    return ", ".join(parts)


def _play(s: Seating, d: PlayData) -> str:
    seat, card = d["seat"], card_text(str(d["card"]))
    if d.get("bella"):
        return s.says(seat, N_("{player} played {card} and announced bella."),
                      N_("You played {card} and announced bella."), card=card)
    if d.get("signal"):
        return s.says(seat, N_("{player} led {card}, signalling: {signal}."),
                      N_("You led {card}, signalling: {signal}."), card=card,
                      signal=signal_text(str(d.get("signal")), s.t))
    return s.says(seat, N_("{player} played {card}."), N_("You played {card}."), card=card)


def _runs(s: Seating, d: RunsJSON) -> str | None:
    t = s.t
    winner = d["winner"]
    if not d["resolved"]:
        return None
    if winner is None:
        return t.gettext("No runs count this hand.")
    shown = join_names([cards_text(run) for run in d["shown"]], t)
    points = s.value(d["points"])
    if shown:
        return s.says(winner, N_("{player} scores runs worth {points}: {cards}."),
                      N_("You score runs worth {points}: {cards}."), points=points,
                      cards=shown)
    return s.says(winner, N_("{player} scores runs worth {points}."),
                  N_("You score runs worth {points}."), points=points)


def _bids_revealed(s: Seating, d: BidsRevealedData) -> str:
    t = s.t
    bids = d["bids"] or []
    cards = d["bid_cards"] or []
    # Translators: One player's bid: the bid cards and what they are worth, e.g. "Ann 5♣ 3♦
    # (8)".
    listed = ", ".join(t.gettext("{player} {cards} ({value})").format(
        player=s.name(seat), cards=cards_text(c),
        value=s.value(bids[seat] if seat < len(bids) else 0))
        for seat, c in enumerate(cards))
    # Translators: {bids} lists every player's bid, e.g. "Ann 5♣ (5), Bo 3♦ (3)"; {total} a
    # number.
    text = t.gettext("Bids: {bids}; total {total}.").format(bids=listed,
                                                            total=s.value(d["bid_total"]))
    high = d["high_bidder"]
    if high is not None:
        text += " " + s.says(high, N_("{player} bid highest: trump {suit}."),
                             N_("You bid highest: trump {suit}."),
                             suit=suit_text(d["trump"], t))
    if d["adjust_needed"]:
        text += " " + s.says(high, N_("The bids total 13: {player} moves every bid up or "
                                      "down."),
                             N_("The bids total 13: you move every bid up or down."))
    elif d["mode"] == "atas":
        text += " " + t.gettext("Main atas: play high.")
    elif d["mode"] == "bawah":
        text += " " + t.gettext("Main bawah: play low.")
    return text


def _draw_round(s: Seating, d: DrawRoundData) -> str:
    t = s.t
    draws = ", ".join(t.gettext("{player} {card}").format(player=s.name(int(seat)),
                                                          card=card_text(str(c)))
                      for seat, c in d["draws"])
    n = d["stock_size"]
    # Translators: {draws} lists who drew which card, e.g. "Ann K♥, Bo 7♠"; {count} the cards
    # left in the stock.
    return t.ngettext("Cards drawn: {draws}; {count} card left.",
                      "Cards drawn: {draws}; {count} cards left.", n).format(
        draws=draws, count=t.number(n))


def _answer(s: Seating, d: AnswerData) -> str:
    n, t, seat = d["tricks"], s.t, d["seat"]
    if s.reader is not None and seat == s.reader:
        return t.ngettext("You expect {count} more trick.", "You expect {count} more tricks.",
                          n).format(count=t.number(n))
    return t.ngettext("{player} expects {count} more trick.",
                      "{player} expects {count} more tricks.", n).format(
        player=s.name(seat), count=t.number(n))


def _kort(s: Seating, d: KortData) -> str:
    if d["continue"]:
        return s.says(d["seat"], N_("{player} plays on for kort: all nine tricks."),
                      N_("You play on for kort: all nine tricks."))
    return s.says(d["seat"], N_("{player} stops at five tricks."),
                  N_("You stop at five tricks."))


def _bid(s: Seating, d: BidData) -> str:
    cards = [str(d["card"])] if d.get("card") else list(d.get("cards") or [])
    shown = cards_text(cards)
    if s.game == "truf":
        # Translators: {cards} are the bid cards ("9♠ 5♠"); {value} what they are worth.
        return s.says(d["seat"], N_("{player} bids {cards} (worth {value})."),
                      N_("You bid {cards} (worth {value})."), cards=shown,
                      value=s.t.number(truf_bid_value(cards)))
    return s.says(d["seat"], N_("{player} bids {cards}."), N_("You bid {cards}."),
                  cards=shown)


def truf_bid_value(cards: str | Sequence[str]) -> int:
    """The bid value of one Truf card (``"TD"`` → 10, ``"KC"`` → 0) or of several (their
    sum), read from the engine's own table (rule file section 4)."""
    listed = [cards] if isinstance(cards, str) else list(cards)
    return sum(CARD_VALUE[card(c)] for c in listed)


def _bid_placed(s: Seating, d: SeatOnly) -> str | None:
    """Someone chose a secret bid: the reader's own bid was told by its ``bid`` event
    (with the card and its worth), so theirs needs no second line."""
    if s.reader is not None and d["seat"] == s.reader:
        return None
    return s.t.gettext("{player} has chosen a bid.").format(player=s.name(d["seat"]))


def _adjust(s: Seating, d: AdjustData) -> str:
    amount = s.value(d["amount"])
    if d["direction"] == "up":
        return s.says(d["seat"], N_("{player} moves every bid up by {amount}."),
                      N_("You move every bid up by {amount}."), amount=amount)
    return s.says(d["seat"], N_("{player} moves every bid down by {amount}."),
                  N_("You move every bid down by {amount}."), amount=amount)


_Seated = SeatOnly | BellaData | ConcedeData | BidPlacedData | SeatData
"""An event whose line names only the acting seat."""


def _seat_line(message: str, you: str) -> Callable[[Seating, _Seated], str]:
    """An event told by one sentence about the acting player (``{player}``; ``you``: the
    sentence for the reader)."""
    return lambda s, d: s.says(d["seat"], message, you)


def _suit_named(s: Seating, d: SuitChosen) -> str:
    return s.says(d["seat"], N_("{player} names {suit} trump."), N_("You name {suit} trump."),
                  suit=suit_text(d["suit"], s.t))


def _suit_called(s: Seating, d: SuitChosen) -> str:
    return s.says(d["seat"], N_("{player} calls {suit} trump."), N_("You call {suit} trump."),
                  suit=suit_text(d["suit"], s.t))


def _hand_void(s: Seating, d: object) -> str:
    return s.t.gettext("Everybody passed: the hand is abandoned.")


def _declare_runs(s: Seating, d: DeclareRunsData) -> str:
    # Translators: {value} is the run's worth in points (20 or 50).
    return s.says(d["seat"], N_("{player} declares a run worth {value}."),
                  N_("You declare a run worth {value}."), value=s.value(d["value"]))


def _ask_partner(s: Seating, d: AskPartnerData) -> str:
    if s.reader is not None and d["partner"] == s.reader:
        return s.t.gettext("{player} asks you how many more tricks you expect.").format(
            player=s.name(d["seat"]))
    return s.says(d["seat"], N_("{player} asks {partner} how many more tricks they expect."),
                  N_("You ask {partner} how many more tricks they expect."),
                  partner=s.name(d["partner"]))


def _declare_kort(s: Seating, d: DeclareKortData) -> str:
    # Translators: {side} is a team by its players' names ("Ann and Cy").
    return s.says(d["seat"], N_("{player} declares kort: {side} play for all nine tricks."),
                  N_("You declare kort: your side plays for all nine tricks."),
                  side=s.side_name(d["side"] or 0))


def _trump_turned(s: Seating, d: TrumpTurnedData) -> str:
    return s.t.gettext("{card} is turned: {suit} are trump.").format(
        card=card_text(d["card"]), suit=suit_text(d["suit"], s.t))


def _exchange(s: Seating, d: ExchangeData) -> str:
    # Translators: {took} and {gave} are cards, e.g. "7♥".
    return s.says(d["seat"], N_("{player} takes the turned {took} and puts {gave} in its "
                                "place."),
                  N_("You take the turned {took} and put {gave} in its place."),
                  took=card_text(d["took"]), gave=card_text(d["gave"]))


def _bottom_card(s: Seating, d: CardData) -> str:
    return s.t.gettext("{card} lies face up under the stock.").format(
        card=card_text(d["card"]))


def _deal_started(s: Seating, d: DealStartedData) -> str:
    return s.says(d["dealer"], N_("Deal {n}: {player} deals."), N_("Deal {n}: you deal."),
                  n=s.t.number(d["deal"] + 1))


def _timeout(s: Seating, d: SeatData) -> str:
    return s.t.gettext("Time ran out: an AI played for {players}.").format(
        players=join_names([s.name(d["seat"])], s.t))


_D = TypeVar("_D")
_Line = Callable[[Seating, EventData], str | None]


def _told(make: Callable[[Seating, _D], str | None]) -> _Line:
    """``make``, which reads its kind's data type, as an entry of :data:`_EVENTS`: the one
    place where an event's data is taken as its kind's type (which the engine and the
    table service build it as: :mod:`games.event_types`, :mod:`bot.service.events`)."""
    return cast(_Line, make)


_EVENTS: dict[str, _Line] = {
    "play": _told(_play),
    "trick": _told(trick_line),
    "trump": _told(_suit_named),
    "call_trump": _told(_suit_called),
    "pass": _told(_seat_line(N_("{player} passes."),
                                       N_("You pass."))),
    "hand_void": _told(_hand_void),
    "declare_runs": _told(_declare_runs),
    "runs": _told(_runs),
    "bella": _told(_seat_line(N_("{player} announces bella with the run."),
                                       N_("You announce bella with the run."))),
    "concede": _told(_seat_line(N_("{player} concedes the hand."),
                                       N_("You concede the hand."))),
    "ask_partner": _told(_ask_partner),
    "answer": _told(_answer),
    "kort": _told(_kort),
    "declare_kort": _told(_declare_kort),
    "bid_placed": _told(_bid_placed),
    "bid": _told(_bid),
    "bids_revealed": _told(_bids_revealed),
    "adjust": _told(_adjust),
    "trump_turned": _told(_trump_turned),
    "exchange": _told(_exchange),
    "bottom_card": _told(_bottom_card),
    "draw_round": _told(_draw_round),
    "deal_started": _told(_deal_started),
    "away": _told(_seat_line(N_("{player} is away: an AI plays for them."),
                                       N_("You are away: an AI plays for you."))),
    "returned": _told(_seat_line(N_("{player} is back."),
                                       N_("You are back."))),
    "timeout": _told(_timeout),
}


def event_line(seating: Seating, kind: str, data: EventData) -> str | None:
    """One event in words, or ``None`` when the event needs no line (see the module);
    ``data`` is ``kind``'s data type."""
    make = _EVENTS.get(kind)
    return None if make is None else make(seating, data)

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

from collections.abc import Callable, Mapping
from typing import Any

from bot.i18n import N_, Translator
from bot.words.cards import card_text, cards_text, suit_text
from bot.words.seating import Seating, join_names
from bot.words.text import or_english

SIGNAL_WORDS = {"strong": N_("strong suit"), "weak": N_("weak suit")}


def signal_text(signal: str, t: Translator | None = None) -> str:
    """A signal token in words: ``strong`` → ``strong suit``; a group's own token as is."""
    word = SIGNAL_WORDS.get(signal)
    return or_english(t).gettext(word) if word else signal


def trick_line(seating: Seating, trick: Mapping[str, Any], number: int | None = None) -> str:
    """``Trick 3: Ann led K♣, Bo 9♣, Cy A♣, Di 6♦; Cy wins.`` (Albastini adds the trick's
    card points when the trick carries them)."""
    t = seating.t
    cards = list(trick.get("cards") or [])
    n = number if number is not None else trick.get("number")
    parts = []
    for i, (seat, card) in enumerate(cards):
        template = t.gettext("{player} led {card}") if i == 0 else t.gettext("{player} {card}")
        parts.append(template.format(player=seating.name(seat), card=card_text(card)))
    played = ", ".join(parts)
    winner = trick.get("winner")
    if winner is None:
        line = played
    else:
        line = t.gettext("{played}; {player} wins").format(played=played,
                                                           player=seating.name(winner))
    points = trick.get("points")
    if points:
        # Translators: {line} is a trick: the cards played, e.g. "Ann K♥, Bo 7♥; Ann wins".
        line = t.ngettext("{line} ({count} card point)", "{line} ({count} card points)",
                          int(points)).format(line=line, count=t.number(int(points)))
    if n is None:
        return t.gettext("{line}.").format(line=line)
    # Translators: {n} is the trick's number; {line} the cards played, e.g. "Ann K♥, Bo 7♥; Ann
    # wins".
    return t.gettext("Trick {n}: {line}.").format(n=t.number(int(n)), line=line)


def _play(s: Seating, d: Mapping[str, Any]) -> str:
    t, player, card = s.t, s.name(d.get("seat")), card_text(str(d.get("card")))
    if d.get("bella"):
        return t.gettext("{player} played {card} and announced bella.").format(
            player=player, card=card)
    if d.get("signal"):
        return t.gettext("{player} led {card}, signalling: {signal}.").format(
            player=player, card=card, signal=signal_text(str(d["signal"]), t))
    return t.gettext("{player} played {card}.").format(player=player, card=card)


def _runs(s: Seating, d: Mapping[str, Any]) -> str | None:
    t = s.t
    winner = d.get("winner")
    if not d.get("resolved"):
        return None
    if winner is None:
        return t.gettext("No runs count this hand.")
    shown = join_names([cards_text(run) for run in d.get("shown") or []], t)
    points = s.value(d.get("points"))
    if shown:
        return t.gettext("{player} scores runs worth {points}: {cards}.").format(
            player=s.name(winner), points=points, cards=shown)
    return t.gettext("{player} scores runs worth {points}.").format(player=s.name(winner),
                                                                   points=points)


def _bids_revealed(s: Seating, d: Mapping[str, Any]) -> str:
    t = s.t
    bids = d.get("bids") or []
    cards = d.get("bid_cards") or []
    # Translators: One player's bid: the bid cards and what they are worth, e.g. "Ann 5♣ 3♦
    # (8)".
    listed = ", ".join(t.gettext("{player} {cards} ({value})").format(
        player=s.name(seat), cards=cards_text(c),
        value=s.value(bids[seat] if seat < len(bids) else 0))
        for seat, c in enumerate(cards))
    # Translators: {bids} lists every player's bid, e.g. "Ann 5♣ (5), Bo 3♦ (3)"; {total} a
    # number.
    text = t.gettext("Bids: {bids}; total {total}.").format(bids=listed,
                                                            total=s.value(d.get("bid_total")))
    high = d.get("high_bidder")
    if high is not None:
        text += " " + t.gettext("{player} bid highest: trump {suit}.").format(
            player=s.name(high), suit=suit_text(d.get("trump"), t))
    if d.get("adjust_needed"):
        text += " " + t.gettext("The bids total 13: {player} moves every bid up or down."
                                ).format(player=s.name(high))
    elif d.get("mode") == "atas":
        text += " " + t.gettext("Main atas: play high.")
    elif d.get("mode") == "bawah":
        text += " " + t.gettext("Main bawah: play low.")
    return text


def _draw_round(s: Seating, d: Mapping[str, Any]) -> str:
    t = s.t
    draws = ", ".join(t.gettext("{player} {card}").format(player=s.name(seat),
                                                          card=card_text(c))
                      for seat, c in d.get("draws") or [])
    n = int(d.get("stock_size") or 0)
    # Translators: {draws} lists who drew which card, e.g. "Ann K♥, Bo 7♠"; {count} the cards
    # left in the stock.
    return t.ngettext("Cards drawn: {draws}; {count} card left.",
                      "Cards drawn: {draws}; {count} cards left.", n).format(
        draws=draws, count=t.number(n))


def _answer(s: Seating, d: Mapping[str, Any]) -> str:
    n = int(d.get("tricks") or 0)
    return s.t.ngettext("{player} expects {count} more trick.",
                        "{player} expects {count} more tricks.", n).format(
        player=s.name(d.get("seat")), count=s.t.number(n))


def _kort(s: Seating, d: Mapping[str, Any]) -> str:
    if d.get("continue"):
        text = s.t.gettext("{player} plays on for kort: all nine tricks.")
    else:
        text = s.t.gettext("{player} stops at five tricks.")
    return text.format(player=s.name(d.get("seat")))


def _bid(s: Seating, d: Mapping[str, Any]) -> str:
    if d.get("card"):
        return s.t.gettext("{player} bids {card}.").format(player=s.name(d.get("seat")),
                                                           card=card_text(str(d["card"])))
    return s.t.gettext("{player} bids {cards}.").format(
        player=s.name(d.get("seat")), cards=cards_text(d.get("cards") or []))


def _adjust(s: Seating, d: Mapping[str, Any]) -> str:
    if d.get("direction") == "up":
        text = s.t.gettext("{player} moves every bid up by {amount}.")
    else:
        text = s.t.gettext("{player} moves every bid down by {amount}.")
    return text.format(player=s.name(d.get("seat")), amount=s.value(d.get("amount")))


def _seat_line(message: str) -> Callable[[Seating, Mapping[str, Any]], str]:
    """An event told by one sentence about the acting player (``{player}``)."""
    return lambda s, d: s.t.gettext(message).format(player=s.name(d.get("seat")))


_EVENTS: dict[str, Callable[[Seating, Mapping[str, Any]], str | None]] = {
    "play": _play,
    "trick": lambda s, d: trick_line(s, d),
    "trump": lambda s, d: s.t.gettext("{player} names {suit} trump.").format(
        player=s.name(d.get("seat")), suit=suit_text(d.get("suit"), s.t)),
    "call_trump": lambda s, d: s.t.gettext("{player} calls {suit} trump.").format(
        player=s.name(d.get("seat")), suit=suit_text(d.get("suit"), s.t)),
    "pass": _seat_line(N_("{player} passes.")),
    "hand_void": lambda s, d: s.t.gettext("Everybody passed: the hand is abandoned."),
    # Translators: {value} is the run's worth in points (20 or 50).
    "declare_runs": lambda s, d: s.t.gettext("{player} declares a run worth {value}.").format(
        player=s.name(d.get("seat")), value=s.value(d.get("value"))),
    "runs": _runs,
    "bella": _seat_line(N_("{player} announces bella with the run.")),
    "concede": _seat_line(N_("{player} concedes the hand.")),
    "ask_partner": lambda s, d: s.t.gettext(
        "{player} asks {partner} how many more tricks they expect.").format(
        player=s.name(d.get("seat")), partner=s.name(d.get("partner"))),
    "answer": _answer,
    "kort": _kort,
    # Translators: {side} is a team by its players' names ("Ann and Cy").
    "declare_kort": lambda s, d: s.t.gettext(
        "{player} declares kort: {side} play for all nine tricks.").format(
        player=s.name(d.get("seat")), side=s.side_name(int(d.get("side") or 0))),
    "bid_placed": _seat_line(N_("{player} has chosen a bid.")),
    "bid": _bid,
    "bids_revealed": _bids_revealed,
    "adjust": _adjust,
    "trump_turned": lambda s, d: s.t.gettext("{card} is turned: {suit} are trump.").format(
        card=card_text(str(d.get("card"))), suit=suit_text(d.get("suit"), s.t)),
    # Translators: {took} and {gave} are cards, e.g. "7♥".
    "exchange": lambda s, d: s.t.gettext(
        "{player} takes the turned {took} and puts {gave} in its place.").format(
        player=s.name(d.get("seat")), took=card_text(str(d.get("took"))),
        gave=card_text(str(d.get("gave")))),
    "bottom_card": lambda s, d: s.t.gettext("{card} lies face up under the stock.").format(
        card=card_text(str(d.get("card")))),
    "draw_round": _draw_round,
    "deal_started": lambda s, d: s.t.gettext("Deal {n}: {player} deals.").format(
        n=s.t.number(int(d.get("deal") or 0) + 1), player=s.name(d.get("dealer"))),
    "away": _seat_line(N_("{player} is away: an AI plays for them.")),
    "returned": _seat_line(N_("{player} is back.")),
    "timeout": lambda s, d: s.t.gettext("Time ran out: an AI played for {players}.").format(
        players=join_names([s.name(x) for x in d.get("seats") or []], s.t)),
}


def event_line(seating: Seating, kind: str, data: Mapping[str, Any]) -> str | None:
    """One event in words, or ``None`` when the event needs no line (see the module)."""
    make = _EVENTS.get(kind)
    return None if make is None else make(seating, data)

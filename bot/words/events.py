"""Trick-log lines and event lines: what happened at the table, one sentence each.

:func:`trick_line` describes a completed trick (who led, what each played, who won);
:func:`event_line` describes any game event the table service publishes (``docs/service.md``
lists them) in players' words, or returns ``None`` for events that need no line of their
own (``deal_over`` has :func:`bot.words.results.deal_result`; ``hand`` and ``draw`` update a
player's own hand, shown by the hand panel). A card the reader may not see (Truf's face-down
trumps during the trick, other players' draws) is written ``🂠``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.words.cards import card_text, cards_text, suit_text
from bot.words.seating import Seating
from bot.words.text import plural

SIGNAL_WORDS = {"strong": "strong suit", "weak": "weak suit"}


def signal_text(signal: str) -> str:
    """A signal token in words: ``strong`` → ``strong suit``; a group's own token as is."""
    return SIGNAL_WORDS.get(signal, signal)


def trick_line(seating: Seating, trick: Mapping[str, Any], number: int | None = None) -> str:
    """``Trick 3: Ann led K♣, Bo 9♣, Cy A♣, Di 6♦; Cy wins.`` (Albastini adds the trick's
    card points when the trick carries them)."""
    cards = list(trick.get("cards") or [])
    n = number if number is not None else trick.get("number")
    parts = []
    for i, (seat, card) in enumerate(cards):
        template = "{player} led {card}" if i == 0 else "{player} {card}"
        parts.append(template.format(player=seating.name(seat), card=card_text(card)))
    played = ", ".join(parts)
    winner = trick.get("winner")
    if winner is None:
        line = played
    else:
        line = "{played}; {player} wins".format(played=played, player=seating.name(winner))
    points = trick.get("points")
    if points:
        line = plural(int(points), "{line} ({n} card point)", "{line} ({n} card points)",
                      line=line)
    if n is None:
        return line + "."
    return "Trick {n}: {line}.".format(n=n, line=line)


def _play(seating: Seating, d: Mapping[str, Any]) -> str:
    text = "{player} played {card}.".format(player=seating.name(d.get("seat")),
                                            card=card_text(str(d.get("card"))))
    if d.get("signal"):
        text = "{player} led {card}, signalling: {signal}.".format(
            player=seating.name(d.get("seat")), card=card_text(str(d.get("card"))),
            signal=signal_text(str(d["signal"])))
    if d.get("bella"):
        text = "{player} played {card} and announced bella.".format(
            player=seating.name(d.get("seat")), card=card_text(str(d.get("card"))))
    return text


def _runs(seating: Seating, d: Mapping[str, Any]) -> str | None:
    winner = d.get("winner")
    if not d.get("resolved"):
        return None
    if winner is None:
        return "No runs count this hand."
    shown = " and ".join(cards_text(run) for run in d.get("shown") or [])
    if shown:
        return "{player} scores runs worth {points}: {cards}.".format(
            player=seating.name(winner), points=d.get("points"), cards=shown)
    return "{player} scores runs worth {points}.".format(player=seating.name(winner),
                                                         points=d.get("points"))


def _bids_revealed(seating: Seating, d: Mapping[str, Any]) -> str:
    bids = d.get("bids") or []
    cards = d.get("bid_cards") or []
    listed = ", ".join("{player} {cards} ({value})".format(
        player=seating.name(s), cards=cards_text(c), value=bids[s] if s < len(bids) else 0)
        for s, c in enumerate(cards))
    text = "Bids: {bids}; total {total}.".format(bids=listed, total=d.get("bid_total"))
    high = d.get("high_bidder")
    if high is not None:
        text += " " + "{player} bid highest: trump {suit}.".format(
            player=seating.name(high), suit=suit_text(d.get("trump")))
    if d.get("adjust_needed"):
        text += " " + "The bids total 13: {player} moves every bid up or down.".format(
            player=seating.name(high))
    elif d.get("mode") in ("atas", "bawah"):
        text += " " + ("Main atas: play high." if d["mode"] == "atas"
                       else "Main bawah: play low.")
    return text


def _draw_round(seating: Seating, d: Mapping[str, Any]) -> str:
    draws = ", ".join("{player} {card}".format(player=seating.name(s), card=card_text(c))
                      for s, c in d.get("draws") or [])
    return plural(int(d.get("stock_size") or 0), "Cards drawn: {draws}; {n} card left.",
                  "Cards drawn: {draws}; {n} cards left.", draws=draws)


_EVENTS: dict[str, Callable[[Seating, Mapping[str, Any]], str | None]] = {
    "play": _play,
    "trick": lambda s, d: trick_line(s, d),
    "trump": lambda s, d: "{player} names {suit} trump.".format(
        player=s.name(d.get("seat")), suit=suit_text(d.get("suit"))),
    "call_trump": lambda s, d: "{player} calls {suit} trump.".format(
        player=s.name(d.get("seat")), suit=suit_text(d.get("suit"))),
    "pass": lambda s, d: "{player} passes.".format(player=s.name(d.get("seat"))),
    "hand_void": lambda s, d: "Everybody passed: the hand is abandoned.",
    "declare_runs": lambda s, d: "{player} declares a run worth {value}.".format(
        player=s.name(d.get("seat")), value=d.get("value")),
    "runs": _runs,
    "bella": lambda s, d: "{player} announces bella with the run.".format(
        player=s.name(d.get("seat"))),
    "concede": lambda s, d: "{player} concedes the hand.".format(player=s.name(d.get("seat"))),
    "ask_partner": lambda s, d: "{player} asks {partner} how many more tricks they expect."
    .format(player=s.name(d.get("seat")), partner=s.name(d.get("partner"))),
    "answer": lambda s, d: plural(int(d.get("tricks") or 0),
                                  "{player} expects {n} more trick.",
                                  "{player} expects {n} more tricks.",
                                  player=s.name(d.get("seat"))),
    "kort": lambda s, d: ("{player} plays on for kort: all nine tricks."
                          if d.get("continue") else "{player} stops at five tricks.").format(
        player=s.name(d.get("seat"))),
    "declare_kort": lambda s, d: "{player} declares kort: {side} play for all nine tricks."
    .format(player=s.name(d.get("seat")), side=s.side_name(int(d.get("side") or 0))),
    "bid_placed": lambda s, d: "{player} has chosen a bid.".format(player=s.name(d.get("seat"))),
    "bid": lambda s, d: ("{player} bids {card}.".format(player=s.name(d.get("seat")),
                                                        card=card_text(str(d["card"])))
                         if d.get("card") else
                         "{player} bids {cards}.".format(player=s.name(d.get("seat")),
                                                         cards=cards_text(d.get("cards") or []))),
    "bids_revealed": _bids_revealed,
    "adjust": lambda s, d: "{player} moves every bid {direction} by {amount}.".format(
        player=s.name(d.get("seat")), direction=d.get("direction"), amount=d.get("amount")),
    "trump_turned": lambda s, d: "{card} is turned: {suit} are trump.".format(
        card=card_text(str(d.get("card"))), suit=suit_text(d.get("suit"))),
    "exchange": lambda s, d: "{player} takes the turned {took} and puts {gave} in its place."
    .format(player=s.name(d.get("seat")), took=card_text(str(d.get("took"))),
            gave=card_text(str(d.get("gave")))),
    "bottom_card": lambda s, d: "{card} lies face up under the stock.".format(
        card=card_text(str(d.get("card")))),
    "draw_round": _draw_round,
    "deal_started": lambda s, d: "Deal {n}: {player} deals.".format(
        n=int(d.get("deal") or 0) + 1, player=s.name(d.get("dealer"))),
    "away": lambda s, d: "{player} is away: an AI plays for them.".format(
        player=s.name(d.get("seat"))),
    "returned": lambda s, d: "{player} is back.".format(player=s.name(d.get("seat"))),
    "timeout": lambda s, d: "Time ran out: an AI played for {players}.".format(
        players=", ".join(s.name(x) for x in d.get("seats") or [])),
}


def event_line(seating: Seating, kind: str, data: Mapping[str, Any]) -> str | None:
    """One event in words, or ``None`` when the event needs no line (see the module)."""
    make = _EVENTS.get(kind)
    return None if make is None else make(seating, data)

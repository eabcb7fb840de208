"""Deal results of Truf and Albastini in words.

Truf: each player's bid card and its value, the high bidder (trump and lead), main atas or
bawah, any adjustment of a 13 total, then each player's bid, tricks and score with the
scoring rule in one sentence. Albastini: the bids, the turned trump card and who took it,
card points per side and the victory points with their reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.words.cards import card_text, cards_text, suit_text
from bot.words.seating import Seating
from bot.words.text import plural, signed

MODE_WORDS = {"atas": "main atas (play high)", "bawah": "main bawah (play low)"}
SCORING_WORDS = {
    ("difference", "atas"): "In main atas each trick over the bid earns 2 and each trick "
                            "short of it costs 1.",
    ("difference", "bawah"): "In main bawah each trick under the bid earns 2 and each trick "
                             "over it costs 1.",
    ("zero_bid_bonus", "atas"): "In main atas each trick over the bid earns 2 and each trick "
                                "short of it costs 1.",
    ("zero_bid_bonus", "bawah"): "In main bawah each trick under the bid earns 2 and each "
                                 "trick over it costs 1; a bid of 0 made with no trick "
                                 "earns 5.",
    ("exact", "atas"): "Exact scoring: a player who takes exactly his bid scores the bid; "
                       "otherwise each trick over costs 1 and each trick short costs 2.",
    ("exact", "bawah"): "Exact scoring: a player who takes exactly his bid scores the bid; "
                        "otherwise each trick over costs 2 and each trick short costs 1.",
}


def truf(seating: Seating, summary: Mapping[str, Any],
         match: Mapping[str, Any] | None) -> list[str]:
    """Truf: bids, mode, trump, each player's tricks and score, the running totals."""
    lines: list[str] = []
    if summary.get("redeal"):
        for m in summary.get("misdeal") or []:
            lines.append("Misdeal: {player} held {reason}.".format(
                player=seating.name(m["seat"]), reason=m["reason"]))
        lines.append("The same dealer deals again; nobody scores.")
        return lines
    bids = summary.get("bids")
    bid_cards = summary.get("bid_cards")
    if bids is not None and bid_cards:
        lines.append("Bids: {bids}.".format(bids=", ".join(
            "{player} {cards} ({value})".format(player=seating.name(s), cards=cards_text(c),
                                                value=bids[s])
            for s, c in enumerate(bid_cards))))
    elif bids is not None:
        lines.append("Bids: {bids}.".format(bids=seating.per_seat(bids)))
    leader = summary.get("leader")
    if leader is not None:
        lines.append("{player} bid highest: trump {suit}, and {player} leads.".format(
            player=seating.name(leader), suit=suit_text(summary.get("trump"))))
    total, mode = summary.get("bid_total"), summary.get("mode")
    adjust = summary.get("adjust")
    if adjust:
        lines.append("The bids total 13: {player} moved every bid {direction} by {amount}, "
                     "so the deal is {mode}.".format(
                         player=seating.name(leader), direction=adjust["direction"],
                         amount=adjust["amount"], mode=MODE_WORDS.get(str(mode), mode)))
    elif total is not None and mode:
        lines.append("The bids total {total}: {mode}.".format(
            total=total, mode=MODE_WORDS.get(mode, mode)))
    final, tricks, points = (summary.get("final_bids") or bids, summary.get("tricks_by_seat"),
                             summary.get("points"))
    if final is not None and tricks is not None and points is not None:
        for s in range(seating.players):
            lines.append("{player}: bid {bid}, took {tricks}: {score}.".format(
                player=seating.name(s), bid=final[s],
                tricks=plural(tricks[s], "{n} trick", "{n} tricks"), score=signed(points[s])))
        scoring = str(seating.options.get("scoring", "difference"))
        rule = SCORING_WORDS.get((scoring, str(mode)))
        if rule:
            lines.append(rule)
    if match is not None:
        deals = seating.options.get("deals", 13)
        played = int(match.get("next_hand_number", 1)) - 1
        lines.append("Totals after deal {played} of {deals}: {totals}.".format(
            played=played, deals=deals, totals=seating.per_seat(match["totals"])))
    return lines


def albastini(seating: Seating, summary: Mapping[str, Any], match: Mapping[str, Any] | None,
              deal: Mapping[str, Any] | None = None) -> list[str]:
    """Albastini: bids, the turned trump and who took it, card points, victory points.

    ``deal`` (the deal's record: ``extra.trump_card`` and the actions) adds the bids and
    the turned card when someone took it; without it the summary's facts are used."""
    lines: list[str] = []
    bids = [(a["seat"], a.get("card")) for a in (deal or {}).get("actions", [])
            if a.get("type") in ("bid", "pass") and "seat" in a]
    if bids:
        lines.append("Bids: {bids}.".format(bids=", ".join(
            ("{player} {card}" if card else "{player} passed").format(
                player=seating.name(s), card=card_text(card) if card else "")
            for s, card in bids)))
    trump = summary.get("trump")
    turned = ((deal or {}).get("extra") or {}).get("trump_card")
    took = summary.get("exchanged_by")
    bottom = summary.get("bottom_card")
    if trump:
        if took is not None:
            turned_text = card_text(turned) if turned else "the turned card"
            lines.append("Trump: {suit}. {player} had bid trumps, took the turned {card} and "
                         "put {bid} face up under the stock.".format(
                             suit=suit_text(trump), player=seating.name(took),
                             card=turned_text, bid=card_text(bottom) if bottom else ""))
        else:
            card = turned or bottom
            lines.append("Trump: {suit}, the turned {card}; nobody took it.".format(
                suit=suit_text(trump), card=card_text(card) if card else ""))
    points = summary.get("points_by_side")
    if points is not None:
        lines.append("Card points: {counts}.".format(counts=seating.per_side(points)))
    w = summary.get("winner_side")
    vp = summary.get("victory_points") or []
    if w is None and points is not None and summary.get("hand_over"):
        lines.append("A tie for most points: no victory points.")
    elif w is not None:
        n = vp[w] if w < len(vp) else 0
        per = 10 * len(seating.sides[0])
        if n == 2:
            why = "a side took fewer than {per} card points".format(per=per)
        else:
            why = "every side took at least {per} card points".format(per=per)
        vp = plural(n, "{n} victory point", "{n} victory points")
        lines.append(plural(len(seating.sides[w]), "{side} wins the game: {vp}, because {why}.",
                            "{side} win the game: {vp}, because {why}.",
                            side=seating.side_name(w), vp=vp, why=why))
    if match is not None:
        lines.append("Victory points: {counts} (first to {target}).".format(
            counts=seating.per_side(match["totals"]),
            target=seating.options.get("target_vp", 5)))
    return lines

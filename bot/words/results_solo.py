"""Deal results of Truf and Albastini in words.

Truf: each player's bid card and its value, the high bidder (trump and lead), main atas or
bawah, any adjustment of a 13 total, then each player's bid, tricks and score with the
scoring rule in one sentence. Albastini: the bids, the turned trump card and who took it,
card points per side and the victory points with their reason. All in the seating's
language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.i18n import N_
from bot.words.cards import card_text, cards_text, suit_text
from bot.words.refusals import refusal_text
from bot.words.seating import Seating
from bot.words.text import signed
from games.event_types import DealSummary, MatchSummary

MODE_WORDS = {"atas": N_("main atas (play high)"), "bawah": N_("main bawah (play low)")}
_ATAS = N_("In main atas each trick over the bid earns 2 and each trick short of it costs 1.")
SCORING_WORDS = {
    ("difference", "atas"): _ATAS,
    ("difference", "bawah"): N_("In main bawah each trick under the bid earns 2 and each "
                                "trick over it costs 1."),
    ("zero_bid_bonus", "atas"): _ATAS,
    ("zero_bid_bonus", "bawah"): N_("In main bawah each trick under the bid earns 2 and each "
                                    "trick over it costs 1; a bid of 0 made with no trick "
                                    "earns 5."),
    ("exact", "atas"): N_("Exact scoring: a player who takes exactly his bid scores the bid; "
                          "otherwise each trick over costs 1 and each trick short costs 2."),
    ("exact", "bawah"): N_("Exact scoring: a player who takes exactly his bid scores the "
                           "bid; otherwise each trick over costs 2 and each trick short "
                           "costs 1."),
}
"""The scoring rule of a deal by (``scoring`` option, mode), English (translate to show)."""


def _mode(seating: Seating, mode: str | None) -> str:
    words = MODE_WORDS.get(str(mode))
    return seating.t.gettext(words) if words else str(mode)


MISDEALS = {"only number cards": N_("Misdeal: {player} held only number cards."),
            "only court cards": N_("Misdeal: {player} held only court cards.")}
"""A Truf misdeal by the engine's reason (``games.truf.misdeal_of``)."""


def _misdeal(seating: Seating, summary: DealSummary) -> list[str]:
    t = seating.t
    lines = []
    for m in summary.get("misdeal") or []:
        known = MISDEALS.get(str(m["reason"]))
        player = seating.name(m["seat"])
        lines.append(t.gettext(known).format(player=player) if known else
                     t.gettext("Misdeal: {player} held {reason}.").format(
                         player=player, reason=refusal_text(str(m["reason"]), seating)))
    lines.append(t.gettext("The same dealer deals again; nobody scores."))
    return lines


def _truf_bids(seating: Seating, summary: DealSummary) -> list[str]:
    t = seating.t
    lines: list[str] = []
    bids = summary.get("bids")
    bid_cards = summary.get("bid_cards")
    if bids is not None and bid_cards:
        lines.append(t.gettext("Bids: {bids}.").format(bids=", ".join(
            t.gettext("{player} {cards} ({value})").format(
                player=seating.name(s), cards=cards_text(c), value=seating.value(bids[s]))
            for s, c in enumerate(bid_cards))))
    elif bids is not None:
        lines.append(t.gettext("Bids: {bids}.").format(bids=seating.per_seat(bids)))
    leader = summary.get("leader")
    if leader is not None:
        lines.append(t.gettext("{player} bid highest: trump {suit}, and {player} leads.").format(
            player=seating.name(leader), suit=suit_text(summary.get("trump"), t)))
    total, mode = summary.get("bid_total"), summary.get("mode")
    adjust = summary.get("adjust")
    if adjust:
        if adjust["direction"] == "up":
            # Translators: {amount} is a number; {mode} is "main atas" or "main bawah" (play
            # high / low), as the game's own words.
            text = t.gettext("The bids total 13: {player} moved every bid up by {amount}, so "
                             "the deal is {mode}.")
        else:
            text = t.gettext("The bids total 13: {player} moved every bid down by {amount}, "
                             "so the deal is {mode}.")
        lines.append(text.format(player=seating.name(leader),
                                 amount=seating.value(adjust["amount"]),
                                 mode=_mode(seating, mode)))
    elif total is not None and mode:
        # Translators: {mode} is "main atas" or "main bawah" (play high / low), as the game's
        # own words.
        lines.append(t.gettext("The bids total {total}: {mode}.").format(
            total=seating.value(total), mode=_mode(seating, mode)))
    return lines


def truf(seating: Seating, summary: DealSummary,
         match: MatchSummary | None) -> list[str]:
    """Truf: bids, mode, trump, each player's tricks and score, the running totals."""
    t = seating.t
    if summary.get("redeal"):
        return _misdeal(seating, summary)
    lines = _truf_bids(seating, summary)
    mode = summary.get("mode")
    final, tricks, points = (summary.get("final_bids") or summary.get("bids"),
                             summary.get("tricks_by_seat"), summary.get("points"))
    if final is not None and tricks is not None and points is not None:
        for s in range(seating.players):
            lines.append(t.ngettext("{player}: bid {bid}, took {count} trick: {score}.",
                                    "{player}: bid {bid}, took {count} tricks: {score}.",
                                    tricks[s]).format(
                player=seating.name(s), bid=seating.value(final[s]),
                count=t.number(tricks[s]), score=signed(points[s], t)))
        scoring = str(seating.options.get("scoring", "difference"))
        rule = SCORING_WORDS.get((scoring, str(mode)))
        if rule:
            lines.append(t.gettext(rule))
    if match is not None:
        deals = seating.options.get("deals", 13)
        played = int(match.get("next_hand_number", 1)) - 1
        # Translators: {played} and {deals} are numbers; {totals} each player with their total
        # ("Ann 3, Bo 5").
        lines.append(t.gettext("Totals after deal {played} of {deals}: {totals}.").format(
            played=t.number(played), deals=seating.value(deals),
            totals=seating.per_seat(match["totals"])))
    return lines


def _albastini_trump(seating: Seating, summary: DealSummary,
                     deal: Mapping[str, Any] | None) -> list[str]:
    t = seating.t
    trump = summary.get("trump")
    if not trump:
        return []
    turned = ((deal or {}).get("extra") or {}).get("trump_card")
    took = summary.get("exchanged_by")
    bottom = summary.get("bottom_card")
    if took is not None:
        if turned:
            text = t.gettext("Trump: {suit}. {player} had bid trumps, took the turned {card} "
                             "and put {bid} face up under the stock.")
        else:
            text = t.gettext("Trump: {suit}. {player} had bid trumps, took the turned card "
                             "and put {bid} face up under the stock.")
        return [text.format(suit=suit_text(trump, t), player=seating.name(took),
                            card=card_text(turned) if turned else "",
                            bid=card_text(bottom) if bottom else "")]
    card = turned or bottom
    return [t.gettext("Trump: {suit}, the turned {card}; nobody took it.").format(
        suit=suit_text(trump, t), card=card_text(card) if card else "")]


def albastini(seating: Seating, summary: DealSummary, match: MatchSummary | None,
              deal: Mapping[str, Any] | None = None) -> list[str]:
    """Albastini: bids, the turned trump and who took it, card points, victory points.

    ``deal`` (the deal's record: ``extra.trump_card`` and the actions) adds the bids and
    the turned card when someone took it; without it the summary's facts are used."""
    t = seating.t
    lines: list[str] = []
    bids = [(a["seat"], a.get("card")) for a in (deal or {}).get("actions", [])
            if a.get("type") in ("bid", "pass") and "seat" in a]
    if bids:
        lines.append(t.gettext("Bids: {bids}.").format(bids=", ".join(
            (t.gettext("{player} {card}").format(player=seating.name(s), card=card_text(card))
             if card else t.gettext("{player} passed").format(player=seating.name(s)))
            for s, card in bids)))
    lines += _albastini_trump(seating, summary, deal)
    points = summary.get("points_by_side")
    if points is not None:
        lines.append(t.gettext("Card points: {counts}.").format(
            counts=seating.per_side(points)))
    w = summary.get("winner_side")
    vp = summary.get("victory_points") or []
    if w is None and points is not None and summary.get("hand_over"):
        lines.append(t.gettext("A tie for most points: no victory points."))
    elif w is not None:
        lines.append(_albastini_win(seating, w, vp[w] if w < len(vp) else 0))
    if match is not None:
        lines.append(t.gettext("Victory points: {counts} (first to {target}).").format(
            counts=seating.per_side(match["totals"]),
            target=seating.value(seating.options.get("target_vp", 5))))
    return lines


def _albastini_win(seating: Seating, w: int, n: int) -> str:
    """The game's winner and why: 2 victory points when a side stayed under 10 card points
    a player, else 1."""
    t = seating.t
    per = t.number(10 * len(seating.sides[0]))
    if n == 2:
        # Translators: {per} is a number of card points (10 a player).
        why = t.gettext("a side took fewer than {per} card points").format(per=per)
    else:
        why = t.gettext("every side took at least {per} card points").format(per=per)
    vp = t.ngettext("{count} victory point", "{count} victory points", n).format(
        count=t.number(n))
    if len(seating.sides[w]) == 1:
        # Translators: {vp} is e.g. "2 victory points"; {why} a reason such as "a side took
        # fewer than 10 card points".
        text = t.gettext("{player} wins the game: {vp}, because {why}.")
        return text.format(player=seating.side_name(w), vp=vp, why=why)
    # Translators: {side} is a team by its players' names ("Ann and Cy"); {vp} e.g. "2
    # victory points"; {why} a reason such as "a side took fewer than 20 card points".
    return t.gettext("{side} win the game: {vp}, because {why}.").format(
        side=seating.side_name(w), vp=vp, why=why)

"""The table in play, in words: trump, bids, contract, runs, bella, kort, Truf's bids and
adjustment, the running count of the deal, a trick, a decision, a refusal.

Front-end neutral (no terminal or Discord imports): every function takes a seat's
``view`` (``Deal.view``) or an event's data and a :class:`~bot.words.seating.Seating`, and
returns plain sentences. The rule is the house rule for players' words: names, never seat
numbers; cards as ``K♣`` (:mod:`bot.words.cards`), never ``KC``; sentences, never engine
keys. ``me`` is the reader's seat when the words are for one player (a side containing
it is called ``you``/``us`` then), ``None`` for the public. Events and decisions in
words are :mod:`bot.words.events` and :mod:`bot.words.actions`; deal and match results
:mod:`bot.words.results`.

A hidden card (Truf's trump played face down) is written ``a card face down`` in the
trick until the trick is complete; the completed trick (``trick`` event, ``tricks`` of
the view) shows every card.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from bot.words.cards import card_text, cards_text, suit_text
from bot.words.seating import Seating, join_names
from games.base import HIDDEN

FACE_DOWN = "a card face down"
_CARD_CODE = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
_MODES = {"atas": "play high (main atas)", "bawah": "play low (main bawah)"}


def reason_text(reason: str) -> str:
    """An engine's refusal with its card codes written as players read them:
    ``"you must follow clubs: you hold QC"`` → ``"… you hold Q♣"``; first letter upper."""
    text = _CARD_CODE.sub(lambda m: card_text(m.group(0)), reason.strip())
    return text[:1].upper() + text[1:]


def who(seating: Seating, seat: int | None, me: int | None) -> str:
    """A seat's name, ``you`` for the reader."""
    return "you" if me is not None and seat == me else seating.name(seat)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def side_label(seating: Seating, side: int, me: int | None) -> str:
    """A side for a score line: ``us``/``them`` for a reader in a two-side partnership
    game, else the side's names (``you`` for the reader)."""
    if me is not None and seating.partnerships and len(seating.sides) == 2:
        return "us" if me in seating.sides[side] else "them"
    return join_names([who(seating, s, me) for s in seating.sides[side]])


def per_side(seating: Seating, values: Sequence[Any], me: int | None) -> str:
    """Values by side: ``us 3 · them 1``."""
    return " · ".join(f"{side_label(seating, i, me)} {v}" for i, v in enumerate(values))


def per_seat(seating: Seating, values: Sequence[Any], me: int | None) -> str:
    return " · ".join(f"{who(seating, s, me)} {v}" for s, v in enumerate(values))


def trick_cards(cards: Sequence[Sequence[Any]], seating: Seating, me: int | None) -> str:
    """``[[1, "KH"], [2, "??"]]`` → ``"Bo K♥, Cy a card face down"``."""
    parts = []
    for seat, card in cards:
        shown = FACE_DOWN if card == HIDDEN else card_text(str(card))
        parts.append(f"{who(seating, int(seat), me)} {shown}")
    return ", ".join(parts)


def trick_result(data: Mapping[str, Any], seating: Seating, me: int | None) -> str:
    """A completed trick (``trick`` event or a view's ``tricks`` entry): every card, then
    the winner: ``"Trick 3: Bo K♥, Cy 9♥, you A♥, Di 6♥ — you win"``."""
    winner = data.get("winner")
    head = f"Trick {data['number']}: " if data.get("number") else ""
    verb = "win" if winner == me and me is not None else "wins"
    points = f" ({data['points']} points)" if data.get("points") is not None else ""
    return (f"{head}{trick_cards(data.get('cards') or [], seating, me)} — "
            f"{who(seating, winner, me)} {verb}{points}")


def trump_fact(view: Mapping[str, Any], seating: Seating, me: int | None) -> str:
    """Trump in words with who fixed it, where the game says so."""
    trump = view.get("trump")
    game = seating.game
    if game == "truf":
        if view.get("phase") == "bid":
            return "not known until the bids are revealed"
        bidder = view.get("high_bidder")
        whose = "your" if me is not None and bidder == me else f"{seating.name(bidder)}'s"
        return f"{suit_text(trump)}, from {whose} bid"
    if trump is None:
        if game == "albastini":
            return "not turned yet"
        return "not named yet"
    text = suit_text(trump)
    if game == "tarabish" and view.get("caller") is not None:
        text += f", called by {who(seating, view['caller'], me)}"
    if game == "albastini" and view.get("trump_card"):
        text += f" (turned {card_text(view['trump_card'])}"
        if view.get("exchanged_by") is not None:
            text += f", taken by {who(seating, view['exchanged_by'], me)}"
        text += ")"
    return text


def table_facts(view: Mapping[str, Any], seating: Seating, me: int | None
                ) -> list[tuple[str, str]]:
    """The deal's state in words as ``(label, sentence)`` pairs, in reading order:
    trump, the contract (bids, auction, kort), melds, the running count."""
    out: list[tuple[str, str]] = [("Trump", trump_fact(view, seating, me))]
    game = seating.game
    if game in ("arbaa_turub", "turup"):
        out.append(("Tricks", per_side(seating, view.get("tricks_by_team") or [], me)))
        if game == "turup":
            out.extend(_kort_facts(view, seating, me))
    elif game == "tarabish":
        out.extend(_tarabish_facts(view, seating, me))
    elif game == "albastini":
        out.extend(_albastini_facts(view, seating, me))
    elif game == "truf":
        out.extend(_truf_facts(view, seating, me))
    return out


def _kort_facts(view: Mapping[str, Any], seating: Seating, me: int | None
                ) -> list[tuple[str, str]]:
    out = []
    side = view.get("kort_side")
    if side is not None:
        how = "declared" if view.get("kort_declared") else "chose"
        out.append(("Kort", f"{cap(side_label(seating, side, me))} {how} to play for all "
                            "nine tricks"))
    decider = view.get("decider")
    if decider is not None and side is None and view.get("phase") in ("kort", "answer"):
        out.append(("Kort", f"5–0: {who(seating, decider, me)} decides whether to play on "
                            "for all nine"))
    if view.get("partner_answer") is not None:
        out.append(("Partner", f"answered {view['partner_answer']} (more tricks expected)"))
    return out


def _tarabish_facts(view: Mapping[str, Any], seating: Seating, me: int | None
                    ) -> list[tuple[str, str]]:
    out = []
    if view.get("phase") == "auction":
        auction = view.get("auction") or []
        passes = [who(seating, s, me) for s, call in auction if call is None]
        if passes:
            out.append(("Auction", f"{cap(join_names(passes))} passed"))
    runs = view.get("runs") or {}
    declared = runs.get("declared") or []
    if declared:
        said = ", ".join(f"{who(seating, d['seat'], me)} {d['value']}" for d in declared)
        text = f"declared: {said}"
        if runs.get("resolved"):
            if runs.get("winner") is not None:
                shown = "; ".join(cards_text(c) for c in runs.get("shown") or [])
                text = (f"{cap(side_label(seating, seating.side_of(runs['winner']), me))} "
                        f"score {runs.get('points', 0)}" + (f" ({shown})" if shown else ""))
            else:
                text = "equal runs: nobody scores"
        out.append(("Runs", text))
    mine = view.get("my_runs") or []
    if mine and not any(d["seat"] == me for d in declared) and not runs.get("resolved"):
        out.append(("Your runs", ", ".join(f"{cards_text(r['cards'])} ({r['value']})"
                                             for r in mine)))
    if view.get("bella") is not None:
        out.append(("Bella", f"announced by {who(seating, view['bella'], me)} (20)"))
    out.append(("Card points", per_side(seating, view.get("card_points_by_team") or [], me)))
    if view.get("conceded_by") is not None:
        out.append(("Conceded", f"by {side_label(seating, view['conceded_by'], me)}"))
    return out


def _albastini_facts(view: Mapping[str, Any], seating: Seating, me: int | None
                     ) -> list[tuple[str, str]]:
    out = []
    bids = view.get("bids") or []
    if view.get("phase") == "bidding" or bids:
        said = ", ".join(f"{who(seating, s, me)} {card_text(c) if c else 'passed'}"
                         for s, c in bids)
        out.append(("Bids", said or "none yet"))
    if view.get("bottom_card"):
        where = "under the stock"
        if view.get("bottom_drawn_by") is not None:
            where = f"drawn by {who(seating, view['bottom_drawn_by'], me)}"
        out.append(("Face-up card", f"{card_text(view['bottom_card'])} ({where})"))
    out.append(("Stock", f"{view.get('stock_size', 0)} cards"))
    out.append(("Card points", per_side(seating, view.get("points_by_side") or [], me)))
    return out


def _truf_facts(view: Mapping[str, Any], seating: Seating, me: int | None
                ) -> list[tuple[str, str]]:
    direction = str(view.get("direction", "clockwise")).replace("counterclockwise",
                                                                "counter-clockwise")
    out = [("Deal", f"{view.get('hand_number', 1)} of {view.get('deals', 13)}, played "
                    f"{direction}")]
    if view.get("phase") == "bid":
        placed = view.get("bid_placed") or []
        waiting = [who(seating, s, me) for s, done in enumerate(placed) if not done]
        mine = (view.get("bids") or [None] * seating.players)[me] if me is not None else None
        text = f"waiting for {join_names(waiting)}" if waiting else "all in"
        if mine:
            text = f"yours: {cards_text(mine)}; {text}"
        out.append(("Bids", text))
        return out
    values = view.get("final_bids") or view.get("bid_values")
    if values is not None:
        bid_cards = view.get("bids") or []
        parts = []
        for s, v in enumerate(values):
            cards = bid_cards[s] if s < len(bid_cards) and bid_cards[s] else []
            parts.append(f"{who(seating, s, me)} {v}" +
                         (f" ({cards_text(cards)})" if cards else ""))
        out.append(("Bids", ", ".join(parts)))
    if view.get("bid_total") is not None:
        mode = _MODES.get(str(view.get("mode")), str(view.get("mode")))
        out.append(("Bid total", f"{view['bid_total']}: {mode}"))
    adjust = view.get("adjust")
    if view.get("phase") == "adjust":
        out.append(("Adjustment", f"the bids total 13: {who(seating, view.get('high_bidder'), me)}"
                                  " moves every bid up or down"))
    elif adjust:
        direction, amount = adjust
        out.append(("Adjustment", f"every bid moved {direction} by {amount}"))
    if view.get("phase") in ("play", "over"):
        out.append(("Trumps", "broken" if view.get("broken") else "not broken yet"))
        out.append(("Tricks", per_seat(seating, view.get("tricks_by_seat") or [], me)))
    if view.get("points") is not None:
        out.append(("Points", per_seat(seating, [f"{p:+d}" for p in view["points"]], me)))
    return out


def score_line(match: Mapping[str, Any], seating: Seating, me: int | None) -> str:
    """The match score against its target, e.g. ``Game points: us 2 · them 1 (first to
    5)`` (short: it heads the table screen)."""
    totals = list(match.get("totals") or [])
    opts = seating.options
    game = seating.game
    if game == "arbaa_turub":
        return f"Deals won: {per_side(seating, totals, me)}"
    if game == "turup":
        return f"Game points: {per_side(seating, totals, me)} (first to {opts.get('target', 5)})"
    if game == "tarabish":
        return f"Score: {per_side(seating, totals, me)} (game to {opts.get('target', 500)})"
    if game == "albastini":
        return (f"Victory points: {per_side(seating, totals, me)} "
                f"(first to {opts.get('target_vp', 5)})")
    if game == "truf":
        deals = opts.get("deals", 13)
        return f"Score: {per_seat(seating, [f'{t:+d}' for t in totals], me)} ({deals} deals)"
    return f"Score: {per_side(seating, totals, me)}"


def match_facts(match: Mapping[str, Any], seating: Seating, me: int | None
                ) -> list[tuple[str, str]]:
    """What the match score alone does not say: Arba'a Turub's streak (the side that won
    the last deal and the tricks its next win must beat, ``holder`` and ``ref``)."""
    if seating.game != "arbaa_turub" or match.get("over"):
        return []
    holder, ref = match.get("holder"), match.get("ref")
    if holder is None or ref is None:
        return [("Match", "two deals won in a row win it, the second with more tricks")]
    return [("Match", f"{side_label(seating, int(holder), me)} won the last deal with {ref} "
                      f"tricks; winning the next with more than {ref} takes the match")]

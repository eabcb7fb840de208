"""The table in play, in words: trump, bids, contract, runs, bella, kort, Truf's bids and
adjustment, the running count of the deal, the match score, the trick being played, a
refusal.

Front-end neutral (no terminal or Discord imports): every function takes a seat's
``view`` (``Deal.view``) or a match summary and a :class:`~bot.words.seating.Seating`, and
returns plain sentences. The rule is the house rule for players' words: names, never seat
numbers; cards as ``K♣`` (:mod:`bot.words.cards`), never ``KC``; sentences, never engine
keys. ``me`` is the reader's seat when the words are for one player (the reader is
``you``, the two sides of a partnership game ``us`` and ``them``), ``None`` for the
public. Every sentence is a ``str.format`` template with named placeholders, as in the
rest of :mod:`bot.words`, so it can be wrapped in gettext unchanged.

Events and decisions in words are :mod:`bot.words.events` (a completed trick:
:func:`bot.words.events.trick_line`) and :mod:`bot.words.actions`; deal and match results
:mod:`bot.words.results`.

A hidden card (Truf's trump played face down) is written ``a card face down`` in the
trick being played (:func:`trick_cards`); the completed trick shows every card.

Every sentence and label is in the seating's language (``seating.t``), the engine's
refusals too (:func:`reason_text`, worded by :mod:`bot.words.refusals`: names, cards as
``K♣``, the language's suit words).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

from bot.i18n import N_
from bot.words.cards import card_text, cards_text, suit_text
from bot.words.events import FACE_DOWN
from bot.words.refusals import Refused, refusal_text
from bot.words.results_solo import MODE_WORDS
from bot.words.seating import Seating, join_names
from bot.words.text import signed
from games.base import HIDDEN
from games.errors import english
from games.event_types import MatchSummary
from games.view_types import (
    AlbastiniView,
    GameView,
    PlainView,
    TarabishView,
    TrufView,
    TurupView,
)

YOUR_TURN_CARD = N_("Your turn: tap a lit card.")
"""The web page's turn sentence when the viewer picks a card of the hand (the terminal has
its own, with its keys)."""
YOUR_TURN_CHOOSE = N_("Your turn: choose below.")
"""The web page's turn sentence when every choice is a button under the table (a bid, a
trump call, a question)."""
_NO_VIEW = cast(GameView, {})
"""What :func:`table_facts` reads when there is no deal: a view with every key absent."""
_CARD_CODE = re.compile(r"\b([2-9TJQKA])([SHDC])\b")
Fact = tuple[str, str]


def reason_text(reason: Refused | str, seating: Seating | None = None) -> str:
    """An engine's refusal as a sentence for the reader, first letter upper. With a seating,
    in its language and players' words (:func:`bot.words.refusals.refusal_text`: an
    :class:`~games.errors.IllegalAction` or the service's
    :class:`~bot.service.errors.RuleRefusal` from its template, a plain reason translated
    or with names and symbols); without one, a plain reason (worded already) with its card
    codes as players read them: ``"you must follow clubs: you hold QC"`` → ``"… Q♣"``."""
    if seating is not None:
        return cap(refusal_text(reason, seating).strip())
    text = reason if isinstance(reason, str) else english(reason.template, reason.params)
    return cap(_CARD_CODE.sub(lambda m: card_text(m.group(0)), text.strip()))


def who(seating: Seating, seat: int | None, me: int | None) -> str:
    """A seat's name, ``you`` for the reader."""
    if me is not None and seat == me:
        return seating.t.gettext("you")
    return seating.name(seat)


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def side_label(seating: Seating, side: int, me: int | None) -> str:
    """A side for a score line: ``us``/``them`` for a reader in a two-side partnership
    game, else the side's names (``you`` for the reader)."""
    t = seating.t
    if me is not None and seating.partnerships and len(seating.sides) == 2:
        return t.gettext("us") if me in seating.sides[side] else t.gettext("them")
    return join_names([who(seating, s, me) for s in seating.sides[side]], t)


def side_says(seating: Seating, side: int, me: int | None, *, we: str, they: str,
              named: str, **values: Any) -> str:
    """A sentence whose subject is a side, its verb agreeing with it: ``we`` (the reader's
    side) or ``they`` (the other) in a two-side partnership game with a reader — the
    score line's *us* and *them* — else ``named`` with the side's names as ``{side}``.
    Each template is a whole translated sentence, so every language words its own
    agreement."""
    if me is not None and seating.partnerships and len(seating.sides) == 2:
        template = we if me in seating.sides[side] else they
    else:
        template = named
    return template.format(side=side_label(seating, side, me), **values)


def per_side(seating: Seating, values: Sequence[Any], me: int | None) -> str:
    """Values by side: ``us 3 · them 1``."""
    return " · ".join(seating.t.gettext("{side} {value}").format(
        side=side_label(seating, i, me), value=seating.value(v))
        for i, v in enumerate(values))


def per_seat(seating: Seating, values: Sequence[Any], me: int | None) -> str:
    """Values by seat: ``you 3 · Bo 5 · Cy 2``."""
    return " · ".join(seating.t.gettext("{player} {value}").format(
        player=who(seating, s, me), value=seating.value(v)) for s, v in enumerate(values))


def trick_cards(cards: Sequence[Sequence[Any]], seating: Seating, me: int | None) -> str:
    """The trick being played: ``[[1, "KH"], [2, "??"]]`` → ``"Bo K♥, Cy a card face
    down"``."""
    t = seating.t
    return ", ".join(t.gettext("{player} {card}").format(
        player=who(seating, int(seat), me),
        card=t.gettext(FACE_DOWN) if card == HIDDEN else card_text(str(card)))
        for seat, card in cards)


def trump_fact(view: GameView, seating: Seating, me: int | None) -> str:
    """Trump in words with who fixed it, where the game says so."""
    t = seating.t
    trump = view.get("trump")
    game = seating.game
    if game == "truf":
        if view.get("phase") == "bid":
            return t.gettext("not known until the bids are revealed")
        bidder = cast(TrufView, view).get("high_bidder")
        if me is not None and bidder == me:
            return t.gettext("{suit}, from your bid").format(suit=suit_text(trump, t))
        return t.gettext("{suit}, from {player}'s bid").format(suit=suit_text(trump, t),
                                                               player=seating.name(bidder))
    if trump is None:
        return t.gettext("not turned yet") if game == "albastini" else t.gettext(
            "not named yet")
    text = suit_text(trump, t)
    if game == "tarabish" and (caller := cast(TarabishView, view).get("caller")) is not None:
        text = t.gettext("{suit}, called by {player}").format(
            suit=text, player=who(seating, caller, me))
    albastini = cast(AlbastiniView, view)
    if game == "albastini" and (card := albastini.get("trump_card")):
        turned = card_text(card)
        if (taker := albastini.get("exchanged_by")) is not None:
            text = t.gettext("{suit} (turned {card}, taken by {player})").format(
                suit=text, card=turned, player=who(seating, taker, me))
        else:
            text = t.gettext("{suit} (turned {card})").format(suit=text, card=turned)
    return text


def table_facts(view: GameView | None, seating: Seating, me: int | None) -> list[Fact]:
    """The deal's state in words as ``(label, sentence)`` pairs, in reading order:
    trump, the contract (bids, auction, kort), melds, the running count. The view is
    the game's of ``seating.game`` (``None``: no deal, every key absent)."""
    t = seating.t
    if view is None:
        view = _NO_VIEW
    out: list[Fact] = [(t.gettext("Trump"), trump_fact(view, seating, me))]
    game = seating.game
    if game in ("arbaa_turub", "turup"):
        out.append((t.gettext("Tricks"),
                    per_side(seating, cast(PlainView, view).get("tricks_by_team") or [], me)))
        if game == "turup":
            out.extend(_kort_facts(cast(TurupView, view), seating, me))
    elif game == "tarabish":
        out.extend(_tarabish_facts(cast(TarabishView, view), seating, me))
    elif game == "albastini":
        out.extend(_albastini_facts(cast(AlbastiniView, view), seating, me))
    elif game == "truf":
        out.extend(_truf_facts(cast(TrufView, view), seating, me))
    return out


def _kort_facts(view: TurupView, seating: Seating, me: int | None) -> list[Fact]:
    t = seating.t
    out = []
    side = view.get("kort_side")
    if side is not None:
        if view.get("kort_declared"):
            text = side_says(seating, side, me,
                             we=t.gettext("We declared kort: all nine tricks"),
                             they=t.gettext("They declared kort: all nine tricks"),
                             named=t.gettext("{side} declared kort: all nine tricks"))
        else:
            text = side_says(seating, side, me,
                             we=t.gettext("We play on for all nine tricks (kort)"),
                             they=t.gettext("They play on for all nine tricks (kort)"),
                             named=t.gettext("{side} play on for all nine tricks (kort)"))
        out.append((t.gettext("Kort"), cap(text)))
    decider = view.get("decider")
    if decider is not None and side is None and view.get("phase") in ("kort", "answer"):
        text = (t.gettext("5–0: you decide whether to play on for all nine")
                if me is not None and decider == me else
                t.gettext("5–0: {player} decides whether to play on for all nine").format(
                    player=seating.name(decider)))
        out.append((t.gettext("Kort"), text))
    if (n := view.get("partner_answer")) is not None:
        out.append((t.gettext("Partner"), t.ngettext(
            "expects {count} more trick", "expects {count} more tricks", n).format(
                count=t.number(n))))
    return out


def _tarabish_facts(view: TarabishView, seating: Seating, me: int | None
                    ) -> list[Fact]:
    t = seating.t
    out = []
    if view.get("phase") == "auction":
        passes = [who(seating, cast(int, s), me) for s, call in view.get("auction") or []
                  if call is None]
        if passes:
            out.append((t.gettext("Auction"), t.gettext("{players} passed").format(
                players=cap(join_names(passes, t)))))
    runs = view.get("runs") or {}
    declared = runs.get("declared") or []
    if declared:
        text = t.gettext("declared: {runs}").format(runs=", ".join(
            t.gettext("{player} {value}").format(player=who(seating, d["seat"], me),
                                                 value=seating.value(d["value"]))
            for d in declared))
        if runs.get("resolved") and (winner := runs.get("winner")) is not None:
            shown = "; ".join(cards_text(c) for c in runs.get("shown") or [])
            text = cap(side_says(
                seating, seating.side_of(winner), me,
                we=t.gettext("We score {points}"), they=t.gettext("They score {points}"),
                named=t.gettext("{side} score {points}"),
                points=seating.value(runs.get("points", 0))))
            if shown:
                text = "{text} ({cards})".format(text=text, cards=shown)
        elif runs.get("resolved"):
            text = t.gettext("equal best runs: nobody scores")
        out.append((t.gettext("Runs"), text))
    mine = view.get("my_runs") or []
    if mine and not any(d["seat"] == me for d in declared) and not runs.get("resolved"):
        out.append((t.gettext("Your runs"), ", ".join("{cards} ({value})".format(
            cards=cards_text(r["cards"]), value=seating.value(r["value"])) for r in mine)))
    if view.get("bella") is not None:
        out.append((t.gettext("Bella"), t.gettext("announced by {player} (20)").format(
            player=who(seating, view["bella"], me))))
    out.append((t.gettext("Card points"),
                per_side(seating, view.get("card_points_by_team") or [], me)))
    if (conceded := view.get("conceded_by")) is not None:
        out.append((t.gettext("Conceded"), t.gettext("by {side}").format(
            side=side_label(seating, conceded, me))))
    return out


def _albastini_facts(view: AlbastiniView, seating: Seating, me: int | None
                     ) -> list[Fact]:
    t = seating.t
    out = []
    bids = view.get("bids") or []
    if view.get("phase") == "bidding" or bids:
        said = ", ".join(t.gettext("{player} {bid}").format(
            player=who(seating, cast(int, s), me),
            bid=card_text(cast(str, c)) if c else t.gettext("passed"))
            for s, c in bids)
        out.append((t.gettext("Bids"), said or t.gettext("none yet")))
    if bottom := view.get("bottom_card"):
        card = card_text(bottom)
        if view.get("bottom_drawn_by") is not None:
            text = t.gettext("{card} (drawn by {player})").format(
                card=card, player=who(seating, view["bottom_drawn_by"], me))
        else:
            text = t.gettext("{card} (under the stock)").format(card=card)
        out.append((t.gettext("Face-up card"), text))
    stock = int(view.get("stock_size", 0))
    out.append((t.gettext("Stock"), t.ngettext("{count} card", "{count} cards", stock)
                .format(count=t.number(stock))))
    out.append((t.gettext("Card points"),
                per_side(seating, view.get("points_by_side") or [], me)))
    return out


def _truf_facts(view: TrufView, seating: Seating, me: int | None) -> list[Fact]:
    t = seating.t
    template = (t.gettext("{n} of {deals}, played clockwise")
                if view.get("direction") == "clockwise"
                else t.gettext("{n} of {deals}, played counter-clockwise"))
    out = [(t.gettext("Deal"), template.format(
        n=seating.value(view.get("hand_number", 1)),
        deals=seating.value(view.get("deals", 13))))]
    if view.get("phase") == "bid":
        placed = view.get("bid_placed") or []
        waiting = [who(seating, s, me) for s, done in enumerate(placed) if not done]
        mine = (view.get("bids") or [None] * seating.players)[me] if me is not None else None
        text = (t.gettext("waiting for {players}").format(players=join_names(waiting, t))
                if waiting else t.gettext("all in"))
        if mine:
            text = t.gettext("yours: {cards}; {rest}").format(cards=cards_text(mine),
                                                                rest=text)
        out.append((t.gettext("Bids"), text))
        return out
    values = view.get("final_bids") or view.get("bid_values")
    if values is not None:
        bid_cards = view.get("bids") or []
        parts = []
        for s, v in enumerate(values):
            cards = bid_cards[s] if s < len(bid_cards) and bid_cards[s] else []
            part = t.gettext("{player} {bid}").format(player=who(seating, s, me),
                                                      bid=seating.value(v))
            if cards:
                part = "{bid} ({cards})".format(bid=part, cards=cards_text(cards))
            parts.append(part)
        out.append((t.gettext("Bids"), ", ".join(parts)))
    if view.get("bid_total") is not None:
        words = MODE_WORDS.get(str(view.get("mode")))
        mode = t.gettext(words) if words else str(view.get("mode"))
        out.append((t.gettext("Bid total"), "{total}: {mode}".format(
            total=seating.value(view["bid_total"]), mode=mode)))
    adjust = view.get("adjust")
    if view.get("phase") == "adjust":
        bidder = view.get("high_bidder")
        out.append((t.gettext("Adjustment"), t.gettext(
            "the bids total 13: you move every bid up or down")
            if me is not None and bidder == me else t.gettext(
            "the bids total 13: {player} moves every bid up or down").format(
                player=seating.name(bidder))))
    elif adjust:
        # the view's adjustment: {"direction": "up" | "down", "amount": k}
        template = (t.gettext("every bid moved up by {n}") if adjust["direction"] == "up"
                    else t.gettext("every bid moved down by {n}"))
        out.append((t.gettext("Adjustment"),
                    template.format(n=seating.value(adjust["amount"]))))
    if view.get("phase") in ("play", "over"):
        out.append((t.gettext("Trumps"), t.gettext("broken") if view.get("broken")
                    else t.gettext("not broken yet")))
        out.append((t.gettext("Tricks"),
                    per_seat(seating, view.get("tricks_by_seat") or [], me)))
    if (points := view.get("points")) is not None:
        out.append((t.gettext("Points"),
                    per_seat(seating, [signed(p, t) for p in points], me)))
    return out


def score_line(match: MatchSummary, seating: Seating, me: int | None) -> str:
    """The match score against its target, e.g. ``Game points: us 2 · them 1 (first to
    5)`` (short: it heads the table screen)."""
    t = seating.t
    totals = list(match.get("totals") or [])
    opts = seating.options
    game = seating.game
    if game == "arbaa_turub":
        return t.gettext("Deals won: {score}").format(score=per_side(seating, totals, me))
    if game == "turup":
        return t.gettext("Game points: {score} (first to {target})").format(
            score=per_side(seating, totals, me), target=seating.value(opts.get("target", 5)))
    if game == "tarabish":
        return t.gettext("Score: {score} (game to {target})").format(
            score=per_side(seating, totals, me),
            target=seating.value(opts.get("target", 500)))
    if game == "albastini":
        return t.gettext("Victory points: {score} (first to {target})").format(
            score=per_side(seating, totals, me),
            target=seating.value(opts.get("target_vp", 5)))
    if game == "truf":
        return t.gettext("Score: {score} ({deals} deals)").format(
            score=per_seat(seating, [signed(n, t) for n in totals], me),
            deals=seating.value(opts.get("deals", 13)))
    return t.gettext("Score: {score}").format(score=per_side(seating, totals, me))


def match_facts(match: MatchSummary, seating: Seating, me: int | None) -> list[Fact]:
    """What the match score alone does not say: Arba'a Turub's streak (the side that won
    the last deal and the tricks its next win must beat, ``holder`` and ``ref``)."""
    if seating.game != "arbaa_turub" or match.get("over"):
        return []
    t = seating.t
    holder, ref = match.get("holder"), match.get("ref")
    if holder is None or ref is None:
        return [(t.gettext("Match"),
                 t.gettext("two deals won in a row win it, the second with more tricks"))]
    return [(t.gettext("Match"), cap(side_says(
        seating, int(holder), me,
        we=t.gettext("We won the last deal with {n} tricks; winning the next with more "
                     "than {n} takes the match"),
        they=t.gettext("They won the last deal with {n} tricks; winning the next with more "
                       "than {n} takes the match"),
        named=t.gettext("{side} won the last deal with {n} tricks; winning the next with "
                        "more than {n} takes the match"),
        n=seating.value(ref))))]

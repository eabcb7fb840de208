"""A player's choices in words (button labels, menus, the terminal's choice list).

:func:`action_text` names any legal action; Truf bids show what each card is worth
(rule file section 4: ``J``, ``Q``, ``K`` = 0, ``A`` = 1, ``2``–``9`` their face value,
``10`` = 10), e.g. ``Bid 10♦ (worth 10)``; :func:`truf_bid_value` is that value, read from
the engine's own table. Every function takes the reader's translator as ``t=`` (English
when omitted).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Translator
from bot.words.cards import card_text, suit_text
from bot.words.events import signal_text, truf_bid_value
from bot.words.text import or_english
from games.actions import Action


def truf_bid_text(cards: str | Sequence[str], *, t: Translator | None = None) -> str:
    """``Bid 10♦ (worth 10)``; several cards: ``Bid 9♠ 5♠ (worth 14)``."""
    t = or_english(t)
    listed = [cards] if isinstance(cards, str) else list(cards)
    # Translators: {cards} are the bid cards ("9♠ 5♠"); {value} the number they are worth.
    return t.gettext("Bid {cards} (worth {value})").format(
        cards=" ".join(card_text(c) for c in listed), value=t.number(truf_bid_value(listed)))


def _play_text(action: Action, t: Translator) -> str:
    shown = card_text(action.card or "")
    if action.bella:
        return t.gettext("Play {card} and announce bella").format(card=shown)
    if action.signal:
        return t.gettext("Play {card}, signalling: {signal}").format(
            card=shown, signal=signal_text(action.signal, t))
    return t.gettext("Play {card}").format(card=shown)


def action_text(action: Action, game: str | None = None, *, t: Translator | None = None
                ) -> str:
    """A player's words for an action. ``game`` tells a Truf bid (card values shown) from
    an Albastini bid (the card names a trump suit)."""
    t = or_english(t)
    kind = action.type
    if kind == "play":
        return _play_text(action, t)
    if kind == "call_trump":
        return t.gettext("Trump {suit}").format(suit=suit_text(action.suit, t))
    if kind == "bid":
        cards = (action.card,) if action.card else (action.cards or ())
        if game == "truf":
            return truf_bid_text(cards, t=t)
        return t.gettext("Bid {cards}").format(cards=" ".join(card_text(c) for c in cards))
    if kind == "adjust":
        amount = t.number(action.amount or 0)
        if action.direction == "up":
            # Translators: {amount} is a number: every player's bid goes up by it.
            return t.gettext("Move every bid up by {amount}").format(amount=amount)
        # Translators: {amount} is a number: every player's bid goes down by it.
        return t.gettext("Move every bid down by {amount}").format(amount=amount)
    if kind == "answer":
        n = action.tricks or 0
        return t.ngettext("Expect {count} more trick", "Expect {count} more tricks", n
                          ).format(count=t.number(n))
    if kind == "kort":
        return t.gettext("Play on for kort") if action.cont else t.gettext(
            "Stop at five tricks")
    fixed = {
        "pass": t.gettext("Pass"),
        "declare_runs": t.gettext("Declare runs"),
        "ask_partner": t.gettext("Ask partner"),
        "declare_kort": t.gettext("Declare kort"),
        "concede": t.gettext("Concede the hand"),
    }
    return fixed[kind]  # every type of games.actions.ACTION_TYPES is named above

"""A player's choices in words (button labels, menus, the terminal's choice list).

:func:`action_text` names any legal action; Truf bids show what each card is worth
(rule file section 4: ``J``, ``Q``, ``K`` = 0, ``A`` = 1, ``2``–``9`` their face value,
``10`` = 10), e.g. ``Bid 10♦ (worth 10)``; :func:`truf_bid_value` is that value, read from
the engine's own table.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.words.cards import card_text, suit_text
from bot.words.events import signal_text
from bot.words.text import plural
from games.actions import Action
from games.cards import card
from games.truf import CARD_VALUE


def truf_bid_value(cards: str | Sequence[str]) -> int:
    """The bid value of one card (``"TD"`` → 10, ``"KC"`` → 0) or of several (their sum)."""
    listed = [cards] if isinstance(cards, str) else list(cards)
    return sum(CARD_VALUE[card(c)] for c in listed)


def truf_bid_text(cards: str | Sequence[str]) -> str:
    """``Bid 10♦ (worth 10)``; several cards: ``Bid 9♠ 5♠ (worth 14)``."""
    listed = [cards] if isinstance(cards, str) else list(cards)
    return "Bid {cards} (worth {value})".format(
        cards=" ".join(card_text(c) for c in listed), value=truf_bid_value(listed))


def action_text(action: Action, game: str | None = None) -> str:
    """A player's words for an action. ``game`` tells a Truf bid (card values shown) from
    an Albastini bid (the card names a trump suit)."""
    t = action.type
    if t == "play":
        text = "Play {card}".format(card=card_text(action.card or ""))
        if action.signal:
            text = "Play {card}, signalling: {signal}".format(
                card=card_text(action.card or ""), signal=signal_text(action.signal))
        if action.bella:
            text = "Play {card} and announce bella".format(card=card_text(action.card or ""))
        return text
    if t == "call_trump":
        return "Trump {suit}".format(suit=suit_text(action.suit))
    if t == "pass":
        return "Pass"
    if t == "bid":
        cards = (action.card,) if action.card else (action.cards or ())
        if game == "truf":
            return truf_bid_text(cards)
        return "Bid {cards}".format(cards=" ".join(card_text(c) for c in cards))
    if t == "adjust":
        word = "up" if action.direction == "up" else "down"
        return "Move every bid {direction} by {amount}".format(direction=word,
                                                              amount=action.amount)
    if t == "declare_runs":
        return "Declare runs"
    if t == "ask_partner":
        return "Ask partner"
    if t == "answer":
        return plural(action.tricks or 0, "Expect {n} more trick", "Expect {n} more tricks")
    if t == "kort":
        return "Play on for kort" if action.cont else "Stop at five tricks"
    if t == "declare_kort":
        return "Declare kort"
    if t == "concede":
        return "Concede the hand"
    return t.replace("_", " ").capitalize()

"""Cards and suits in players' words: ``"TS"`` → ``10♠``, ``"H"`` → ``♥ hearts``.

The rule: a player never reads record notation. Ranks are written as on the cards (``10``
for the record's ``T``), suits as their symbol; identical cards (Arba'a Turub's four packs)
are counted (``Q♥×2``); a card the reader may not see is ``🂠``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot.i18n import Translator, pgettext_noop
from bot.words.text import or_english
from games.base import HIDDEN
from games.cards import SUIT_SYMBOLS, SUITS

RANK_WORDS = {"T": "10"}
HIDDEN_CARD = "🂠"

SUIT_CONTEXT = "suit"
"""The gettext context of the suit names (``t.pgettext("suit", "hearts")``)."""

SUIT_WORDS = {
    "S": pgettext_noop("suit", "spades"),
    "H": pgettext_noop("suit", "hearts"),
    "D": pgettext_noop("suit", "diamonds"),
    "C": pgettext_noop("suit", "clubs"),
}
"""Each suit's name alone (the glossaries give each language's words; Somali has no
established suit names and writes the symbol)."""

SUIT_TEXTS = {
    "S": pgettext_noop("suit", "♠ spades"),
    "H": pgettext_noop("suit", "♥ hearts"),
    "D": pgettext_noop("suit", "♦ diamonds"),
    "C": pgettext_noop("suit", "♣ clubs"),
}
"""Each suit in a sentence: symbol and name (Somali: the symbol alone)."""


def card_text(card: str) -> str:
    """``"TS"`` → ``"10♠"``; a hidden card (``"??"``) → ``"🂠"``."""
    if card == HIDDEN:
        return HIDDEN_CARD
    return RANK_WORDS.get(card[0], card[0]) + SUIT_SYMBOLS[SUITS.index(card[1])]


def suit_symbol(suit: str) -> str:
    """``"H"`` → ``"♥"``."""
    return SUIT_SYMBOLS[SUITS.index(suit)]


def suit_name(suit: str, t: Translator | None = None) -> str:
    """``"H"`` → ``"hearts"`` (Indonesian ``hati``)."""
    return or_english(t).pgettext(SUIT_CONTEXT, SUIT_WORDS[suit])


def suit_text(suit: str | None, t: Translator | None = None) -> str:
    """``"H"`` → ``"♥ hearts"``; no suit (no trump) → ``"no trump"``."""
    t = or_english(t)
    if not suit:
        return t.gettext("no trump")
    return t.pgettext(SUIT_CONTEXT, SUIT_TEXTS[suit])


def grouped(cards: Iterable[str]) -> list[tuple[str, int]]:
    """Cards in their given order with identical ones counted (Arba'a Turub's four packs)."""
    out: list[tuple[str, int]] = []
    index: dict[str, int] = {}
    for c in cards:
        if c in index:
            card, n = out[index[c]]
            out[index[c]] = (card, n + 1)
        else:
            index[c] = len(out)
            out.append((c, 1))
    return out


def count_text(card: str, n: int) -> str:
    """One card with its count: ``Q♥`` or ``Q♥×2``."""
    return card_text(card) + (f"×{n}" if n > 1 else "")


def cards_text(cards: Iterable[str]) -> str:
    """Cards in their given order, identical ones grouped: ``"A♠×2 K♠ 10♥"``."""
    return " ".join(count_text(c, n) for c, n in grouped(cards))


def hand_lines(hand: Sequence[str]) -> list[str]:
    """One line per suit in the hand's order (views sort black and red alternating),
    identical cards grouped (``A♠×2``); hidden cards are left out."""
    lines: list[str] = []
    current: str | None = None
    parts: list[str] = []
    for card, n in grouped(hand):
        if card == HIDDEN:
            continue
        if card[1] != current:
            if parts:
                lines.append(" ".join(parts))
            current, parts = card[1], []
        parts.append(count_text(card, n))
    if parts:
        lines.append(" ".join(parts))
    return lines


_CARD_CODE = re.compile(r"\b([2-9TJQKA][SHDC])\b")


def symbols_in(text: str) -> str:
    """Record card codes inside an engine sentence written with symbols:
    ``"you must follow spades: you hold TS"`` → ``"… you hold 10♠"``."""
    return _CARD_CODE.sub(lambda m: card_text(m.group(1)), text)

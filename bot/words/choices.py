"""A seat's legal actions arranged the way a player chooses, and typed input read back.

The engine lists every variant of a play as its own action (``play AS``, ``play AS
strong``, ``play AS weak``): 27 entries for a Turup lead. :class:`Choices` folds them per
card — one entry per legal card, its plain play first and the variants (signals, bella)
behind it — and keeps every other decision (trump calls, passes, runs, kort, Truf's
adjustment, concede) as a separate list for buttons or a numbered menu. A card bid (Truf,
Albastini) is a card choice like a play; at a Truf table with multi-card bids every bid
is also in :attr:`Choices.multi`, a one-card bid is a card choice too, and a bid of
several cards is read from typed text or the cards marked in the hand.

:func:`interpret` reads what a player types, in any front end: a card (``qh``, ``10s``,
``Q♥``, ``TS``) with optional variant words (``as strong``, ``kh bella``), several cards
for a multi-card bid, or a decision word (``pass``, ``spades``, ``runs``, ``up 2``,
``answer 3``, ``continue``, ``stop``, ``concede``). A card that is in the hand but not
legal is still returned as an action, so the engine refuses it with its own reason.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n import Translator
from bot.words.actions import action_text
from bot.words.cards import card_text
from bot.words.text import or_english
from games.actions import Action
from games.cards import SUIT_NAMES, SUIT_SYMBOLS, SUITS

CARD_TYPES = ("play", "bid")
"""Action types chosen by picking a card of the hand."""

RANK_ALIASES = {"10": "T", "1": "T"}
_SYMBOL_SUITS = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
_SUIT_WORDS = {**{n: SUITS[i] for i, n in enumerate(SUIT_NAMES)},
               **{n[:-1]: SUITS[i] for i, n in enumerate(SUIT_NAMES)}, **_SYMBOL_SUITS,
               **{s.lower(): s for s in SUITS}}
_TOKEN = re.compile(r"^(10|[2-9tjqka1])([shdc♠♥♦♣])$")


@dataclass(frozen=True)
class CardChoice:
    """One legal card and every action that plays (or bids) it: the plain one first."""

    card: str
    actions: tuple[Action, ...]

    @property
    def plain(self) -> Action | None:
        """The action without a signal or bella, if the engine offers one."""
        for a in self.actions:
            if not a.signal and not a.bella:
                return a
        return None

    @property
    def variants(self) -> tuple[Action, ...]:
        return tuple(a for a in self.actions if a.signal or a.bella)


@dataclass(frozen=True)
class Choices:
    """A seat's legal actions for choosing (see the module docstring)."""

    cards: dict[str, CardChoice]
    others: tuple[Action, ...]
    multi: tuple[Action, ...]
    legal: tuple[Action, ...]

    @staticmethod
    def of(legal: Sequence[Action], hand: Sequence[str] = ()) -> Choices:
        """Fold ``legal``; cards are ordered as in ``hand`` (the view's display order)."""
        by_card: dict[str, list[Action]] = {}
        others: list[Action] = []
        multi: list[Action] = []
        for a in legal:
            if a.type in CARD_TYPES and a.card:
                by_card.setdefault(a.card, []).append(a)
            elif a.type == "bid" and a.cards:
                multi.append(a)
                if len(a.cards) == 1:  # a one-card bid is picked like a card
                    by_card.setdefault(a.cards[0], []).append(a)
            else:
                others.append(a)
        order = {c: i for i, c in reversed(list(enumerate(hand)))}
        cards = sorted(by_card, key=lambda c: order.get(c, len(order)))
        folded = {c: CardChoice(c, tuple(sorted(by_card[c], key=_variant_rank)))
                  for c in cards}
        # Concede last: it is never the natural choice.
        others.sort(key=lambda a: a.type == "concede")
        return Choices(folded, tuple(others), tuple(multi), tuple(legal))

    @property
    def pickable(self) -> set[str]:
        """The cards a player may pick now: the legal cards, and every card of a legal
        multi-card bid (marked one by one)."""
        return set(self.cards) | {c for a in self.multi for c in a.cards or ()}

    @property
    def single_cards(self) -> dict[str, CardChoice]:
        """The card choices of actions that name one card (plays and card bids): a
        multi-card bid of one card is left to :attr:`multi`, for a front end that offers
        multi-card bids in their own control (Discord's multi-select)."""
        out: dict[str, CardChoice] = {}
        for c, choice in self.cards.items():
            named = tuple(a for a in choice.actions if a.card)
            if named:
                out[c] = CardChoice(c, named)
        return out

    @property
    def forced(self) -> Action | None:
        """The only legal action, when there is exactly one."""
        return self.legal[0] if len(self.legal) == 1 else None

    @property
    def kind(self) -> str:
        """``play`` or ``bid`` when cards are chosen, else ``""``."""
        for choice in self.cards.values():
            return choice.actions[0].type
        return "bid" if self.multi else ""

    def numbered(self) -> list[Action]:
        """Every choice once, for a numbered menu: each legal card's plain action (its
        first variant when it has none), then the other decisions."""
        out = [c.plain or c.actions[0] for c in self.cards.values()]
        return out + list(self.others)


def needs_confirmation(action: Action) -> bool:
    """Whether a decision is asked twice: conceding gives the opponents the deal."""
    return action.type == "concede"


def _variant_rank(a: Action) -> tuple[int, str]:
    return (1 if (a.signal or a.bella) else 0, a.signal or "")


def read_card(token: str) -> str | None:
    """``qh`` / ``10s`` / ``Q♥`` / ``TS`` → the record code (``QH``), else ``None``."""
    m = _TOKEN.match(token.lower())
    if not m:
        return None
    rank, suit = m.group(1), m.group(2)
    rank = RANK_ALIASES.get(rank, rank.upper())
    suit = _SYMBOL_SUITS.get(suit, suit.upper())
    return rank + suit


def read_suit(token: str) -> str | None:
    return _SUIT_WORDS.get(token.lower())


def interpret(text: str, choices: Choices, hand: Sequence[str],
              t: Translator | None = None) -> Action | str:
    """The action ``text`` names, or a sentence in ``t``'s language saying why it names
    none (see the module docstring). Variant words are the engine's signal tokens and
    ``bella``; a decision is also named by its words in ``t``'s language."""
    t = or_english(t)
    words = text.lower().replace(",", " ").split()
    if not words:
        return t.gettext("Type a card (e.g. qh or 10s) or a decision.")
    decision = _decision(words, choices, t)
    if decision is not None:
        return decision
    cards: list[str] = []
    rest: list[str] = []
    for w in words:
        code = read_card(w)
        if code is not None and not rest:
            cards.append(code)
        else:
            rest.append(w)
    if not cards:
        return t.gettext("“{text}” is not a card or a choice here.").format(
            text=text.strip()[:40])
    if len(cards) > 1:
        return _multi_bid(cards, rest, choices, hand, t)
    card = cards[0]
    if card not in hand:
        return t.gettext("You hold no {card}.").format(card=card_text(card))
    choice = choices.cards.get(card)
    if choice is None:
        kind = choices.kind or "play"
        if not choices.cards and not choices.multi:
            return t.gettext("That is not a card decision: choose one of the offered "
                             "decisions.")
        return Action("play", card=card) if kind == "play" else Action.bid(card)
    return _variant(choice, rest, t)


def _variant(choice: CardChoice, rest: list[str], t: Translator) -> Action | str:
    if not rest:
        if choice.plain is not None:
            return choice.plain
        options = ", ".join(action_text(a, t=t) for a in choice.variants)
        return t.gettext("{card} needs a choice: {options}.").format(
            card=card_text(choice.card), options=options)
    wanted_signal = next((w for w in rest if w != "bella"), None)
    wanted_bella = "bella" in rest
    for a in choice.actions:
        if (a.signal or None) == wanted_signal and a.bella == wanted_bella:
            return a
    words = ", ".join(action_text(a, t=t) for a in choice.actions)
    return t.gettext("{card} can be: {options}.").format(card=card_text(choice.card),
                                                          options=words)


def _multi_bid(cards: list[str], rest: list[str], choices: Choices,
               hand: Sequence[str], t: Translator) -> Action | str:
    if rest:
        return t.gettext("“{text}” is not a card.").format(text=" ".join(rest))
    missing = [c for c in cards if c not in hand]
    if missing:
        return t.gettext("You hold no {card}.").format(card=card_text(missing[0]))
    for a in choices.multi:
        if a.cards is not None and sorted(a.cards) == sorted(cards):
            return a
    if not choices.multi:
        return t.gettext("Choose one card here.")
    return Action.bid_cards(tuple(cards))


def _decision(words: list[str], choices: Choices, tr: Translator) -> Action | None:
    """A non-card decision named by ``words``, if one of the legal ones matches."""
    text = " ".join(words)
    for a in choices.others:
        if text in _names(a, tr):
            return a
    return None


def _names(a: Action, tr: Translator) -> set[str]:
    """The words that name a decision: its English words and its words in ``tr``'s
    language (the button's label)."""
    t = a.type
    label = action_text(a).lower().rstrip("…")
    names = {label, action_text(a, t=tr).lower().rstrip("…"), t.replace("_", " "),
             a.label().lower()}
    if t == "pass":
        names |= {"p"}
    elif t == "call_trump" and a.suit:
        i = SUITS.index(a.suit)
        names |= {SUIT_NAMES[i], SUIT_NAMES[i][:-1], SUIT_SYMBOLS[i], a.suit.lower(),
                  f"trump {SUIT_NAMES[i]}", f"trump {a.suit.lower()}"}
    elif t == "declare_runs":
        names |= {"runs", "declare"}
    elif t == "declare_kort":
        names |= {"kort"}
    elif t == "ask_partner":
        names |= {"ask"}
    elif t == "answer":
        names |= {f"answer {a.tricks}", str(a.tricks)}
    elif t == "kort":
        names |= {"continue", "kort", "play on"} if a.cont else {"stop"}
    elif t == "adjust":
        names |= {f"{a.direction} {a.amount}", f"{a.direction}{a.amount}"}
    return names

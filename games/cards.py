"""Cards, notation, decks, shuffling and dealing.

A card is written as two characters, rank then suit (``"TS"`` = ten of spades), with ranks
``A K Q J T 9 8 7 6 5 4 3 2`` and suits ``S H D C`` (``docs/rules/README.md``).

Inside the engine a card is a small int: ``suit * 13 + rank`` where ``rank`` is the index
in :data:`NATURAL` (``2`` = 0 … ``A`` = 12) and ``suit`` the index in :data:`SUITS`.
Games that rank cards differently (Tarabish, Albastini) keep their own strength tables
indexed by this int; the int itself never changes meaning.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache

from games.errors import IllegalAction, quote
from games.suits import RED_SUITS as RED_SUITS
from games.suits import SUIT_NAMES as SUIT_NAMES
from games.suits import SUIT_SYMBOLS as SUIT_SYMBOLS
from games.suits import SUITS as SUITS

NATURAL = "23456789TJQKA"
"""Ranks from lowest to highest in the usual order; a rank's int is its index here."""

RANKS = "AKQJT98765432"
"""Ranks as written in the rule files, highest first."""

DISPLAY_SUIT_ORDER = (0, 1, 3, 2)
"""Suits for showing a hand: spades, hearts, clubs, diamonds — black and red alternate."""

RANKS_36 = "AKQJT9876"
"""The 36-card pack's ranks (Arba'a Turub, Turup, Tarabish)."""

RANKS_ALBASTINI = "A7KJQ6543"
"""Albastini's ranks (no 2, 8, 9, 10)."""

NAMES: tuple[str, ...] = tuple(NATURAL[c % 13] + SUITS[c // 13] for c in range(52))
"""``NAMES[c]``: the notation of card int ``c``."""

CARD_INTS: dict[str, int] = {r + s: SUITS.index(s) * 13 + NATURAL.index(r)
                             for s in SUITS for r in NATURAL}
"""Every card's notation and its int (the fast form of :func:`card`)."""


def card(text: str) -> int:
    """Parse ``"TS"`` into a card int; raise ``ValueError`` naming the bad text."""
    c = CARD_INTS.get(text) if isinstance(text, str) else None
    if c is None:
        raise ValueError(f"{quote(text)} is not a card (write rank then suit, e.g. 'TS', 'AH')")
    return c


def card_int(text: str | None) -> int:
    """The card int of an action's card, for the engine's checks: like :func:`card`, but
    a bad card is the player's :class:`~games.errors.IllegalAction`."""
    c = CARD_INTS.get(text) if isinstance(text, str) else None
    if c is None:
        raise IllegalAction("{text} is not a card (rank then suit, e.g. 'TS')", text=quote(text))
    return c


def name(c: int) -> str:
    """The two-character notation of card int ``c``."""
    return NAMES[c]


def suit_of(c: int) -> int:
    return c // 13


def rank_of(c: int) -> int:
    """Natural rank index: 2 = 0 … A = 12."""
    return c % 13


def suit_letter(s: int) -> str:
    return SUITS[s]


def parse_suit(text: str) -> int:
    """Parse a suit letter; raise ``ValueError`` naming the bad text."""
    if len(text) != 1 or text not in SUITS:
        raise ValueError(f"{quote(text)} is not a suit (one of S, H, D, C)")
    return SUITS.index(text)


def names(cards: Iterable[int]) -> list[str]:
    return [name(c) for c in cards]


def deck(ranks: str, suits: str = SUITS, copies: int = 1) -> list[int]:
    """Every card of ``ranks`` × ``suits``, ``copies`` times (Arba'a Turub: 4 copies of 36)."""
    one = [SUITS.index(s) * 13 + NATURAL.index(r) for s in suits for r in ranks]
    return one * copies


def shuffled(cards: Sequence[int], rng: random.Random) -> list[int]:
    """A shuffled copy of ``cards``: exactly ``random.Random.shuffle``'s result for the
    same generator state (so seeded deals never change), in about half its time."""
    out = list(cards)
    getrandbits = rng.getrandbits
    for i, n, k in _shuffle_steps(len(out)):
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        out[i], out[j] = out[j], out[i]
    return out


@lru_cache(maxsize=16)
def _shuffle_steps(length: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of :func:`shuffled` for a pack of ``length``: ``(i, i + 1, bits of i + 1)``
    from the top down (worked out once per pack size)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


def seat_order(first: int, players: int, direction: int) -> list[int]:
    """Seats starting at ``first`` going clockwise (``direction`` +1) or counter-clockwise (-1)."""
    return [(first + direction * i) % players for i in range(players)]


def deal_packets(
    cards: Sequence[int], order: Sequence[int], packet: int, per_seat: int, players: int
) -> list[list[int]]:
    """Deal ``cards`` from the top in packets of ``packet`` to the seats of ``order``, round
    and round, until each has ``per_seat``; every hand lists its cards in the order dealt.
    """
    positions = _deal_positions(tuple(order), packet, per_seat, players)
    if len(cards) >= per_seat * len(order):
        return [[cards[i] for i in seat_positions] for seat_positions in positions]
    return [[cards[i] for i in seat_positions if i < len(cards)]
            for seat_positions in positions]


@lru_cache(maxsize=256)
def _deal_positions(order: tuple[int, ...], packet: int, per_seat: int,
                    players: int) -> tuple[tuple[int, ...], ...]:
    """For each seat, the positions in the pack of the cards it is dealt, in order (the
    dealing pattern is worked out once per table shape)."""
    positions: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    while pos < per_seat * len(order):
        for seat in order:
            positions[seat].extend(range(pos, pos + packet))
            pos += packet
    return tuple(tuple(p) for p in positions)


def sort_for_display(cards: Iterable[int], strength: Sequence[int] | None = None) -> list[int]:
    """Sort a hand by suit (black and red alternating), highest first within a suit.

    ``strength`` maps a card int to its rank strength in the game (default: natural order).
    """
    if strength is None:
        return sorted(cards, key=_NATURAL_DISPLAY_KEY.__getitem__)
    return sorted(cards, key=lambda c: DISPLAY_SUIT_ORDER.index(c // 13) * 100 - strength[c])


_NATURAL_DISPLAY_KEY = tuple(DISPLAY_SUIT_ORDER.index(c // 13) * 100 - c % 13
                             for c in range(52))
"""The display sort key of every card int in natural rank order."""


def describe(cards: Iterable[int]) -> str:
    """Cards as a comma-separated list, e.g. ``"9H, KH"``."""
    return ", ".join(name(c) for c in cards)
